import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EffortMap, SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mergeChildEnv, prepareSeatLaunch, type SeatLaunchInput } from "./launch.js";
import { SandboxError, seatSandboxDir } from "./sandbox.js";

/** A seat env reference, `${name}` (built, so no linter takes it for a template). */
const ref = (name: string) => `$\{${name}}`;
const apiKey = "sk-live-Zq81xTf0pLm3Wv9cYb2N";
const seatToken = "tok-Hq4mZ8vR2nX7pK1s";
const effortMap: EffortMap = {
  adapters: {
    claude: {
      default_effort: "high",
      levels: { high: { model: "m-big", args: ["--think"], env: { DEMO_LEVEL: "high" } } },
    },
  },
};

let root: string;
let debateDir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "adapter-kit-launch-"));
  debateDir = join(root, "debate");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function input(over: Partial<SeatLaunchInput> = {}, seat: Partial<SeatConfig> = {}): SeatLaunchInput {
  return {
    name: "claude",
    seat: { adapter: "claude", api_key_env: "DEMO_KEY", env: { SERVICE_TOKEN: ref("PLAIN") }, ...seat },
    context: { debateDir, effortMap },
    request: {
      prompt: "p",
      timeoutMs: 1000,
      step: { debateId: "d1", role: "judge", exchange: 1, attempt: 1 },
    },
    env: { TMPDIR: root, PATH: "/bin", DEMO_KEY: apiKey, PLAIN: seatToken, DROP_ME: "x" },
    buildEnv: mergeChildEnv,
    launch: ({ sandbox }) => ({
      args: ["--safe"],
      env: { DROP_ME: undefined, DEMO_HOME: sandbox.dir },
      files: { "config.json": "{}" },
    }),
    ...over,
  };
}

describe("prepareSeatLaunch", () => {
  test("opens the seat's private folder and returns its env, endpoint, effort, plan and secrets; cleanup removes the plan's files", async () => {
    const prepared = await prepareSeatLaunch(input());
    if (!prepared.ok) throw new Error(prepared.error);
    const { sandbox, env, endpoint, effort, plan, secrets, cleanup } = prepared.setup;
    expect(sandbox.dir).toBe(seatSandboxDir(debateDir, "judge", { TMPDIR: root }));
    expect((await stat(sandbox.dir)).mode & 0o777).toBe(0o700);
    // The caller's env, the seat's env, the effort level's, then the plan's changes.
    expect(env).toMatchObject({
      PATH: "/bin",
      SERVICE_TOKEN: seatToken,
      DEMO_LEVEL: "high",
      DEMO_HOME: sandbox.dir,
    });
    expect(env).not.toHaveProperty("DROP_ME");
    expect(endpoint).toEqual({ apiKey: { name: "DEMO_KEY", value: apiKey } });
    expect(effort).toMatchObject({ effort: "high", model: "m-big", args: ["--think"] });
    expect(plan.args).toEqual(["--safe"]);
    expect(secrets).toEqual(expect.arrayContaining([apiKey, seatToken]));
    expect(await readFile(join(sandbox.dir, "config.json"), "utf8")).toBe("{}");
    await cleanup();
    await expect(stat(join(sandbox.dir, "config.json"))).rejects.toThrow();
  });

  test("the request's model and effort win over the seat's; the sandbox key is the adapter's name without a role", async () => {
    const prepared = await prepareSeatLaunch(
      input({ request: { prompt: "p", timeoutMs: 1000, model: "m-req" } }, { model: "m-seat" }),
    );
    if (!prepared.ok) throw new Error(prepared.error);
    expect(prepared.setup.effort.model).toBe("m-req");
    expect(prepared.setup.sandbox.dir).toBe(seatSandboxDir(debateDir, "claude", { TMPDIR: root }));
    await prepared.setup.cleanup();
  });

  test("a seat env naming an unset variable, or tools: read without a workspace, is an error naming the adapter", async () => {
    const unset = await prepareSeatLaunch(input({}, { env: { X: ref("NOT_SET") } }));
    expect(unset).toEqual({
      ok: false,
      error: `claude: seat env X references ${ref("NOT_SET")}, which is not set`,
    });
    const read = await prepareSeatLaunch(input({ label: "agent" }, { tools: "read" }));
    expect(read).toEqual({
      ok: false,
      error: "agent: `tools: read` needs a `workspace:` folder the seat may read",
    });
  });

  test("a refusal before the launch (not installed, no login) stops it: no plan is made or written", async () => {
    let launched = false;
    const refused = await prepareSeatLaunch(
      input({
        refuse: (callerEnv, endpoint) =>
          callerEnv.SERVICE_TOKEN === seatToken && endpoint.apiKey ? "claude: not installed" : undefined,
        launch: () => {
          launched = true;
          return {};
        },
      }),
    );
    expect(refused).toEqual({ ok: false, error: "claude: not installed" });
    expect(launched).toBe(false);
  });

  test("a launch the seat cannot run safely is an error, redacted; any other failure is thrown", async () => {
    const unsafe = await prepareSeatLaunch(
      input({
        launch: () => {
          throw new SandboxError(`no read-only tools for key ${apiKey}`);
        },
      }),
    );
    expect(unsafe).toEqual({ ok: false, error: "claude: no read-only tools for key [REDACTED]" });
    await expect(
      prepareSeatLaunch(
        input({
          launch: () => {
            throw new Error("bug");
          },
        }),
      ),
    ).rejects.toThrow("bug");
  });
});
