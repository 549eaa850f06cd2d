import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderFingerprint, repoRoot, runDebateBin } from "./workspace.js";

// A debate folder is data someone may hand over: a seat's `command:` runs only once the user
// allowed it for that folder (`debate allow`, recorded outside the folder), and `debate doctor`
// never starts it. Everything runs through the built `debate` binary, with a HOME of its own.

const example = join(repoRoot, "examples/ai-review-gate");
const bin = join(repoRoot, "apps/debate/dist/bin.js");

let work: string;
let home: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "consent-"));
  home = join(work, "home");
  await mkdir(home);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** A copy of the example debate whose proposition seat is `seat` (a YAML flow mapping). */
async function debateWith(name: string, seat: string): Promise<string> {
  const dir = join(work, name);
  await cp(example, dir, { recursive: true });
  const file = join(dir, "debate.md");
  const text = await readFile(file, "utf8");
  await writeFile(
    file,
    text.replace("proposition: { adapter: replay, file: replay.jsonl }", `proposition: ${seat}`),
  );
  return dir;
}

const shellSeat = (marker: string) => `{ adapter: claude, command: ["/bin/sh", "-c", "touch ${marker}"] }`;

const debate = (args: string[], env?: NodeJS.ProcessEnv) => runDebateBin(args, { cwd: work, home, env });

describe("a seat's command runs only once the user allowed it", () => {
  it("debate run refuses a folder whose command is not allowed, before anything is written; allow runs it; an edit needs allow again", async () => {
    const marker = join(work, "MARKER");
    const dir = await debateWith("shell-seat", shellSeat(marker));
    const before = await folderFingerprint(dir);

    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("seat `seats.proposition` would run /bin/sh -c 'touch");
    expect(refused.stderr).toContain(`debate allow ${dir}`);
    expect(await exists(marker)).toBe(false);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(join(dir, ".debate"))).toBe(false);

    const allowed = debate(["allow", dir]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`seats.proposition  runs /bin/sh -c 'touch ${marker}'`);
    // Recorded outside the folder, in the user's state folder.
    expect(await exists(join(home, ".local/state/debatekit/allowed.json"))).toBe(true);
    expect(await folderFingerprint(dir)).toEqual(before);

    debate(["run", dir]);
    expect(await exists(marker)).toBe(true);

    // Another program in the same seat: not what was allowed.
    const other = join(work, "MARKER2");
    await writeFile(
      join(dir, "debate.md"),
      (await readFile(join(dir, "debate.md"), "utf8")).replace(`touch ${marker}`, `touch ${other}`),
    );
    const again = debate(["run", dir]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`would run /bin/sh -c 'touch ${other}'`);
    expect(await exists(other)).toBe(false);
  });

  it("debate deny takes an allowance back", async () => {
    const marker = join(work, "MARKER-deny");
    const dir = await debateWith("denied", shellSeat(marker));
    expect(debate(["allow", dir]).code).toBe(0);
    expect(debate(["deny", dir]).stdout).toContain("no longer run");
    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("which you have not allowed");
    expect(await exists(marker)).toBe(false);
  });

  it("debate doctor <folder> does not start a command it was not allowed to run, and says what it would run", async () => {
    const marker = join(work, "MARKER-doctor");
    const dir = await debateWith("doctor", shellSeat(marker));
    const before = await folderFingerprint(dir);
    const report = debate(["doctor", dir]);
    expect(await exists(marker)).toBe(false);
    expect(report.stdout).toContain(`would run /bin/sh -c 'touch ${marker}'`);
    expect(report.stdout).toContain(`debate allow ${dir}`);
    expect(report.stdout).not.toContain("tools      none (safe: cannot act on the machine)");
    expect(report.code).toBe(1);
    expect(await folderFingerprint(dir)).toEqual(before);
    // Once allowed, the seat's program is named, never called safe.
    expect(debate(["allow", dir]).code).toBe(0);
    expect(debate(["doctor", dir]).stdout).toContain(
      `tools      none asked of its own command /bin/sh -c 'touch ${marker}' (you allowed it`,
    );
  });

  it.each([
    ["/", "/"],
    ["the home folder", "HOME"],
  ])("a workspace of %s is refused, and no allow can change that", async (_name, where) => {
    const path = where === "HOME" ? home : where;
    const dir = await debateWith(
      `workspace-${where === "/" ? "root" : "home"}`,
      `{ adapter: claude, tools: read, workspace: ${JSON.stringify(path)} }`,
    );
    const before = await folderFingerprint(dir);
    const refused = debate(["run", dir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("`seats.proposition.workspace`");
    expect(refused.stderr).toContain("may not read the whole machine or the home folder");
    expect(debate(["allow", dir]).code).toBe(2);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(join(dir, ".debate"))).toBe(false);
  });

  it("the offline example runs with no allowance: replay seats run no program", async () => {
    const dir = join(work, "offline");
    await cp(example, dir, { recursive: true });
    const ran = debate(["run", dir, "--exchanges", "1"]);
    expect(ran.code, ran.stderr).toBe(0);
  });
});

// A server the folder chose must never be contacted by these tests: `.invalid` names never resolve
// (RFC 2606), so even a refusal that came too late would reach nobody.
const elsewhere = "http://models.invalid/v1";
const canary = "ghp_CANARY0000000000000000000000000000";

describe("a seat sends your credentials to a server the folder chose only once you allowed it", () => {
  it("debate run refuses an http seat whose base_url is not loopback, before anything is written or contacted; allow records it", async () => {
    const dir = await debateWith(
      "endpoint-http",
      `{ adapter: http, base_url: "${elsewhere}", model: m, api_key_env: GITHUB_TOKEN }`,
    );
    const before = await folderFingerprint(dir);

    const started = performance.now();
    const refused = debate(["run", dir], { GITHUB_TOKEN: canary });
    // Refused by reading the folder alone: no connection attempt, no retries.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `seat \`seats.proposition\` would send $GITHUB_TOKEN to ${elsewhere}, which you have not allowed`,
    );
    expect(refused.stderr).toContain("nothing was run");
    expect(refused.stderr).toContain(`debate allow ${dir}`);
    expect(refused.stdout + refused.stderr).not.toContain(canary);
    expect(await folderFingerprint(dir)).toEqual(before);
    expect(await exists(join(dir, ".debate"))).toBe(false);

    // doctor says where it would send what, without contacting it.
    const doctor = debate(["doctor", dir], { GITHUB_TOKEN: canary });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `proposition (http): would send $GITHUB_TOKEN to ${elsewhere}; not allowed, so doctor did not contact it (check it, then: debate allow ${dir})`,
    );

    const allowed = debate(["allow", dir]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`seats.proposition  sends $GITHUB_TOKEN to ${elsewhere}`);
    const record = await readFile(join(home, ".local/state/debatekit/allowed.json"), "utf8");
    expect(record).toContain(`seats.proposition: sends $GITHUB_TOKEN to ${elsewhere}`);
    expect(record).not.toContain(canary);
    expect(await folderFingerprint(dir)).toEqual(before);
    // Allowed now: doctor checks the seat as usual (without $GITHUB_TOKEN set it contacts nothing).
    const checked = debate(["doctor", dir]);
    expect(checked.stdout).not.toContain("not allowed");
    expect(checked.stdout).toContain(`endpoint   ${elsewhere}`);
    expect(checked.stdout).toContain("set $GITHUB_TOKEN (the seat's api_key_env)");

    // Another credential to the same server is not what was allowed.
    await writeFile(
      join(dir, "debate.md"),
      (await readFile(join(dir, "debate.md"), "utf8")).replace("GITHUB_TOKEN", "NPM_TOKEN"),
    );
    const again = debate(["run", dir], { NPM_TOKEN: canary });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`would send $NPM_TOKEN to ${elsewhere}`);
    expect(await exists(join(dir, ".debate"))).toBe(false);
  });

  it("a CLI seat pointed at a server the folder chose (base_url, or an env variable naming one) is refused", async () => {
    const viaBaseUrl = await debateWith("endpoint-cli", `{ adapter: claude, base_url: "${elsewhere}" }`);
    const refused = debate(["run", viaBaseUrl]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`would send your claude login to ${elsewhere}`);
    expect(await exists(join(viaBaseUrl, ".debate"))).toBe(false);

    const viaEnv = await debateWith(
      "endpoint-env",
      `{ adapter: codex, env: { OPENAI_BASE_URL: "${elsewhere}", EXTRA: "\${GITHUB_TOKEN}" } }`,
    );
    const viaEnvRefused = debate(["run", viaEnv], { GITHUB_TOKEN: canary });
    expect(viaEnvRefused.code).toBe(1);
    expect(viaEnvRefused.stderr).toContain(
      `seat \`seats.proposition\` would send $GITHUB_TOKEN and your codex login to ${elsewhere} (its env OPENAI_BASE_URL)`,
    );
    expect(viaEnvRefused.stdout + viaEnvRefused.stderr).not.toContain(canary);
    expect(await exists(join(viaEnv, ".debate"))).toBe(false);
  });

  it("your own config's allow_endpoints allows a server everywhere; a project's config is refused for it", async () => {
    const dir = await debateWith(
      "endpoint-config",
      `{ adapter: http, base_url: "${elsewhere}", model: m, api_key_env: GITHUB_TOKEN }`,
    );
    const cwd = join(work, "project");
    await mkdir(cwd, { recursive: true });
    await writeFile(join(cwd, "debatekit.config.yaml"), 'allow_endpoints: ["http://models.invalid"]\n');
    // A project's file may come with the debate it would allow: the key is refused there, by name.
    const fromProject = runDebateBin(["run", dir], { cwd, home });
    expect(fromProject.code).toBe(2);
    expect(fromProject.stderr).toContain(
      "debatekit.config.yaml: `allow_endpoints` is read only from your own config",
    );
    expect(await exists(join(dir, ".debate"))).toBe(false);

    const userHome = join(work, "home-with-config");
    await mkdir(join(userHome, ".config/debatekit"), { recursive: true });
    await writeFile(
      join(userHome, ".config/debatekit/config.yaml"),
      'allow_endpoints: ["http://models.invalid"]\n',
    );
    const doctor = runDebateBin(["doctor", dir], { cwd: work, home: userHome });
    expect(doctor.stdout).not.toContain("not allowed");
    expect(doctor.stdout).toContain(`endpoint   ${elsewhere}`);
  });

  it("a loopback base_url needs no consent: the seat runs against the model server on this machine", async () => {
    const recorded = await readFile(join(example, "replay.jsonl"), "utf8");
    const argument = JSON.parse(recorded.split("\n")[0]!).text as string;
    const server: ModelServer = await startModelServer(() => argument);
    try {
      const dir = await debateWith(
        "endpoint-loopback",
        `{ adapter: http, base_url: "${server.url}/v1", model: m, api_key_env: LOOPBACK_KEY }`,
      );
      // Not spawnSync: the model server answers from this process's event loop.
      await promisify(execFile)(process.execPath, [bin, "run", dir, "--exchanges", "1"], {
        cwd: work,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          NO_COLOR: "1",
          CI: "1",
          LOOPBACK_KEY: "loopback-key",
        },
      });
      expect(server.requests.some((r) => r.headers.authorization === "Bearer loopback-key")).toBe(true);
    } finally {
      await server.close();
    }
  });
});
