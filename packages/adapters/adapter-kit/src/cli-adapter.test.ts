import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EffortMap, SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { CliAdapterSpec } from "./cli-adapter.js";
import { defineCliAdapter } from "./cli-adapter.js";
import type { ParsedCliOutput } from "./cli-output.js";

// A small CLI written as a real script and run as a real process: the program under test is
// defineCliAdapter, this only plays the AI CLI's part. Its stdin decides what it does.
const fakeCli = `
if (process.argv.includes("--version")) {
  if (process.env.FAKE_VERSION === "broken") { console.error("config file is broken"); process.exit(3); }
  console.log("fakecli 1.2.3");
  process.exit(0);
}
let prompt = "";
process.stdin.on("data", (d) => (prompt += d));
process.stdin.on("end", () => {
  const fs = require("node:fs");
  const report = { argv: process.argv.slice(2), stdin: prompt, cwd: process.cwd(),
    planFile: process.env.PLAN_FILE && fs.existsSync(process.env.PLAN_FILE) ? fs.readFileSync(process.env.PLAN_FILE, "utf8") : null,
    env: { ADDED_BY_SPEC: process.env.ADDED_BY_SPEC, LEVEL_VAR: process.env.LEVEL_VAR, REMOVED: process.env.REMOVED,
      FROM_SEAT: process.env.FROM_SEAT } };
  if (prompt === "fail") { console.log(JSON.stringify({ failed: "API error 401: bad key" })); process.exit(1); }
  if (prompt === "no login") { console.log(JSON.stringify({ failed: "not logged in", unusable: true })); process.exit(1); }
  if (prompt === "leak") report.answer = "the key is " + process.env.FAKECLI_KEY;
  else report.answer = "answer to " + prompt;
  console.log(JSON.stringify(report));
});
`;

const spec: CliAdapterSpec = {
  name: "fakecli",
  program: "fakecli-is-not-on-any-path",
  buildArgs: (input) => [
    "--model",
    input.model ?? "none",
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ],
  buildEnv: (base, extra) => ({ ...base, ...extra, ADDED_BY_SPEC: "yes" }),
  parseOutput: (stdout): ParsedCliOutput => {
    try {
      const out = JSON.parse(stdout) as { answer?: string; failed?: string; unusable?: boolean };
      if (out.failed) return { failed: true, unusable: out.unusable ?? false, parseError: out.failed };
      return { text: out.answer ?? "", sessionId: "session-1" };
    } catch {
      return { parseError: `fakecli printed no JSON: ${stdout.slice(0, 50)}` };
    }
  },
  installHint: "install fakecli: npm install -g fakecli",
  loginHint: "installed; run `fakecli login`",
  credentials: { env: ["FAKECLI_KEY"], files: (home) => [join(home, ".fakecli", "auth.json")] },
  launch: ({ sandbox }) => ({
    args: ["--safe"],
    env: { PLAN_FILE: join(sandbox.dir, "conf", "settings.json"), REMOVED: undefined },
    files: { "conf/settings.json": '{"tools":"off"}' },
  }),
  safety: { toolsOff: "--safe", readOnly: "--safe", isolated: "conf/", passedThrough: "nothing" },
};
const fakecli = defineCliAdapter(spec);

const effortMap: EffortMap = {
  adapters: {
    fakecli: { levels: { high: { model: "big-model", args: ["--think"], env: { LEVEL_VAR: "v" } } } },
  },
};

let dir: string;
let seat: SeatConfig;
const context = (env: NodeJS.ProcessEnv = {}) => ({ debateDir: dir, env, effortMap });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "adapter-kit-cli-"));
  await writeFile(join(dir, "fakecli.cjs"), fakeCli);
  // The seat's command replaces the program; its own arguments come before the spec's argv.
  seat = {
    adapter: "claude",
    effort: "high",
    command: [process.execPath, join(dir, "fakecli.cjs"), "--base"],
  };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("defineCliAdapter: call()", () => {
  test("runs the program with the spec's argv and env, the prompt on stdin, and reads the answer", async () => {
    const adapter = fakecli.createAdapter(seat, context());
    const call = await adapter.call({ prompt: "hello", timeoutMs: 20_000, cwd: dir, sessionId: "s-0" });
    expect(adapter.name).toBe("fakecli");
    expect(call).toMatchObject({
      status: "ok",
      text: "answer to hello",
      sessionId: "session-1",
      exitCode: 0,
    });
    const report = JSON.parse(call.raw?.stdout ?? "");
    expect(report.argv).toEqual(["--base", "--model", "big-model", "--resume", "s-0", "--safe", "--think"]);
    expect(report.env).toEqual({ ADDED_BY_SPEC: "yes", LEVEL_VAR: "v" });
    expect(report.stdin).toBe("hello");
  });

  test("the launch plan: its files exist during the call only, its env wins, the seat runs in its own folder", async () => {
    const seatWithEnv: SeatConfig = { ...seat, env: { FROM_SEAT: "${CALLER_VALUE}" } };
    const adapter = fakecli.createAdapter(
      seatWithEnv,
      context({ REMOVED: "still here", CALLER_VALUE: "v1" }),
    );
    const call = await adapter.call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    const report = JSON.parse(call.raw?.stdout ?? "");
    expect(report.planFile).toBe('{"tools":"off"}');
    expect(report.env.REMOVED).toBeUndefined();
    expect(report.env.FROM_SEAT).toBe("v1");
    // Never the caller's folder: an empty folder of the seat's own under the temp folder.
    expect(report.cwd).not.toBe(dir);
    expect(report.cwd.startsWith(join(tmpdir(), "debatekit-seats"))).toBe(true);
    await expect(stat(join(report.cwd, "..", "conf", "settings.json"))).rejects.toThrow();
    expect((await stat(join(report.cwd, ".."))).mode & 0o777).toBe(0o700);
  });

  test("a seat env reference to an unset variable, or a workspace that is not a folder, is unavailable", async () => {
    const unset = await fakecli
      .createAdapter({ ...seat, env: { X: "${NOT_SET_ANYWHERE}" } }, context())
      .call({ prompt: "hello", timeoutMs: 20_000 });
    expect(unset).toMatchObject({ status: "unavailable", text: "" });
    expect(unset.error).toContain("${NOT_SET_ANYWHERE}");
    const badWorkspace = await fakecli
      .createAdapter({ ...seat, tools: "read", workspace: "no-such-folder" }, context())
      .call({ prompt: "hello", timeoutMs: 20_000 });
    expect(badWorkspace).toMatchObject({ status: "unavailable" });
    expect(badWorkspace.error).toContain("no-such-folder");
  });

  test("tools: read runs the seat in its workspace", async () => {
    const workspace = join(dir, "repo");
    await mkdir(workspace, { recursive: true });
    const call = await fakecli
      .createAdapter({ ...seat, tools: "read", workspace: "repo" }, context())
      .call({ prompt: "hello", timeoutMs: 20_000 });
    expect(JSON.parse(call.raw?.stdout ?? "").cwd).toBe(workspace);
  });

  test("the request's model wins over the effort level's", async () => {
    const call = await fakecli
      .createAdapter(seat, context())
      .call({ prompt: "x", model: "small-model", timeoutMs: 20_000, cwd: dir });
    expect(JSON.parse(call.raw?.stdout ?? "").argv).toEqual([
      "--base",
      "--model",
      "small-model",
      "--safe",
      "--think",
    ]);
  });

  test("a failure the CLI reports is status exit with the CLI's own message", async () => {
    const call = await fakecli
      .createAdapter(seat, context())
      .call({ prompt: "fail", timeoutMs: 20_000, cwd: dir });
    expect(call).toMatchObject({ status: "exit", text: "", exitCode: 1 });
    expect(call.error).toBe("fakecli exited with 1: API error 401: bad key");
  });

  test("a CLI that says it has no login is status unavailable", async () => {
    const call = await fakecli
      .createAdapter(seat, context())
      .call({ prompt: "no login", timeoutMs: 20_000, cwd: dir });
    expect(call.status).toBe("unavailable");
    expect(call.error).toBe("fakecli exited with 1: not logged in");
  });

  test("a secret from the child's env is redacted from the answer and the raw output", async () => {
    const key = "fake-secret-value-123456";
    const call = await fakecli
      .createAdapter(seat, context({ FAKECLI_KEY: key }))
      .call({ prompt: "leak", timeoutMs: 20_000, cwd: dir });
    expect(call.text).toBe("the key is [REDACTED]");
    expect(call.raw?.stdout).not.toContain(key);
  });

  test("without seat.command the spec's program runs; missing, it is status unavailable, not a throw", async () => {
    const call = await fakecli
      .createAdapter({ adapter: "claude" }, context({ PATH: dir }))
      .call({ prompt: "hi", timeoutMs: 20_000, cwd: dir });
    expect(call.status).toBe("unavailable");
    expect(call.error).toBe(
      "fakecli: not installed (no `fakecli-is-not-on-any-path` on PATH); install fakecli: npm install -g fakecli",
    );
  });
});

describe("defineCliAdapter: call() when no credential is found (credentials.whenMissing)", () => {
  const withPolicy = (whenMissing: "before-call" | "on-failure") =>
    defineCliAdapter({ ...spec, credentials: { ...spec.credentials, whenMissing } });
  // HOME is the temp folder: no ~/.fakecli/auth.json there unless a test writes one.
  const noLogin = () => context({ HOME: dir });

  test("before-call: unavailable with the login hint, and the program never starts", async () => {
    const marker = join(dir, "started.txt");
    const recordingSeat: SeatConfig = {
      ...seat,
      command: [process.execPath, "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x")`],
    };
    const call = await withPolicy("before-call")
      .createAdapter(recordingSeat, noLogin())
      .call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    expect(call).toMatchObject({ status: "unavailable", text: "", transport: "cli" });
    expect(call.error).toBe("fakecli: no login or key found; installed; run `fakecli login`");
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);
  });

  test("before-call: a program that is not installed says so before any word about the login", async () => {
    const call = await withPolicy("before-call")
      .createAdapter({ adapter: "claude" }, context({ HOME: dir, PATH: dir }))
      .call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    expect(call.status).toBe("unavailable");
    expect(call.error).toBe(
      "fakecli: not installed (no `fakecli-is-not-on-any-path` on PATH); install fakecli: npm install -g fakecli",
    );
  });

  test("before-call: a key in the env or a login file lets the call run", async () => {
    const adapter = withPolicy("before-call");
    const byEnv = await adapter
      .createAdapter(seat, context({ HOME: dir, FAKECLI_KEY: "k" }))
      .call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    expect(byEnv.status).toBe("ok");
    const home = join(dir, "logged-in-home");
    await mkdir(join(home, ".fakecli"), { recursive: true });
    await writeFile(join(home, ".fakecli", "auth.json"), "{}");
    const byFile = await adapter
      .createAdapter(seat, context({ HOME: home }))
      .call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    expect(byFile.status).toBe("ok");
  });

  test("on-failure: the program runs; its failure becomes unavailable with the login hint, its answer stays", async () => {
    const adapter = withPolicy("on-failure").createAdapter(seat, noLogin());
    const failed = await adapter.call({ prompt: "fail", timeoutMs: 20_000, cwd: dir });
    expect(failed).toMatchObject({ status: "unavailable", exitCode: 1 });
    expect(failed.error).toBe("fakecli: no login or key found; installed; run `fakecli login`");
    expect(failed.raw?.stdout).toContain("API error 401"); // what the CLI said is kept for the journal
    const answered = await adapter.call({ prompt: "hello", timeoutMs: 20_000, cwd: dir });
    expect(answered).toMatchObject({ status: "ok", text: "answer to hello" });
  });
});

describe("defineCliAdapter: detect()", () => {
  test("not installed: the install hint", async () => {
    const detection = await fakecli.createAdapter({ adapter: "claude" }, context({ PATH: dir })).detect();
    expect(detection).toEqual({
      adapter: "fakecli",
      path: "fakecli-is-not-on-any-path",
      installed: false,
      usable: false,
      hint: "install fakecli: npm install -g fakecli",
    });
  });

  test("a failing --version: installed but not usable, with the program's own words", async () => {
    const detection = await fakecli.createAdapter(seat, context({ FAKE_VERSION: "broken" })).detect();
    expect(detection).toMatchObject({ installed: true, usable: false });
    expect(detection.hint).toBe("`fakecli --version` failed: config file is broken");
  });

  test("installed without credentials: the version and the login hint", async () => {
    const detection = await fakecli.createAdapter(seat, context({ HOME: dir })).detect();
    expect(detection).toMatchObject({ installed: true, usable: true, version: "1.2.3" });
    expect(detection.hint).toBe("installed; run `fakecli login`");
  });

  test("a credential variable or a credential file: no hint", async () => {
    const byEnv = await fakecli.createAdapter(seat, context({ HOME: dir, FAKECLI_KEY: "k" })).detect();
    expect(byEnv).toMatchObject({ usable: true, version: "1.2.3" });
    expect(byEnv.hint).toBeUndefined();
    const home = join(dir, "home-with-login");
    await mkdir(join(home, ".fakecli"), { recursive: true });
    await writeFile(join(home, ".fakecli", "auth.json"), "{}");
    const byFile = await fakecli.createAdapter(seat, context({ HOME: home })).detect();
    expect(byFile.hint).toBeUndefined();
  });
});

describe("defineCliAdapter: readOutcome()", () => {
  test("is pure: a recorded outcome reads to the same envelope as a live one", () => {
    const call = fakecli.readOutcome(
      {
        stdout: '{"answer":"recorded"}\n',
        stderr: "",
        exitCode: 0,
        signal: null,
        timedOut: false,
        cancelled: false,
        truncated: false,
        durationMs: 7,
      },
      { timeoutMs: 1000 },
    );
    expect(call).toMatchObject({ status: "ok", text: "recorded", durationMs: 7, transport: "cli" });
  });

  test("buildEnv is the spec's, or the caller's env merged with the level's", () => {
    expect(fakecli.buildEnv({ A: "1" }, { B: "2" })).toEqual({ A: "1", B: "2", ADDED_BY_SPEC: "yes" });
    const plain = defineCliAdapter({ ...spec, buildEnv: undefined });
    expect(plain.buildEnv({ A: "1", B: "0" }, { B: "2" })).toEqual({ A: "1", B: "2" });
  });
});
