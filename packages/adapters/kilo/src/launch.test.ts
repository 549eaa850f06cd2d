import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LaunchInput } from "@debatekit/adapter-kit";
import { describe, expect, test } from "vitest";
import { kiloLaunch, kiloPermissionKeys } from "./launch.js";

function input(overrides: Partial<LaunchInput["sandbox"]> = {}, env: NodeJS.ProcessEnv = {}): LaunchInput {
  const dir = mkdtempSync(join(tmpdir(), "dk-kilo-launch-"));
  return {
    sandbox: {
      dir,
      cwd: join(dir, "work"),
      tools: "none",
      isolation: "on",
      ...overrides,
    } as LaunchInput["sandbox"],
    env,
    endpoint: {},
    model: "anthropic/claude-sonnet-4-5",
  } as LaunchInput;
}

describe("kiloLaunch", () => {
  test("turns every tool off and denies every permission, at the top level and on the code agent", async () => {
    const plan = await kiloLaunch(input({}, { HOME: "/nonexistent" }));
    const config = JSON.parse(plan.env?.KILO_CONFIG_CONTENT ?? "{}");
    expect(config.tools).toEqual({ "*": false });
    expect(config.default_agent).toBe("code");
    expect(config.agent.code.tools).toEqual({ "*": false });
    for (const key of ["*", "bash", "edit", "write", "webfetch", "background_process", ...kiloPermissionKeys])
      expect(config.permission[key]).toBe("deny");
    expect(JSON.parse(plan.env?.KILO_PERMISSION ?? "{}")).toEqual(config.permission);
  });

  test("isolated: a private HOME and XDG folders, --pure, the user's provider kept and the login linked", async () => {
    const home = mkdtempSync(join(tmpdir(), "dk-kilo-home-"));
    mkdirSync(join(home, ".config", "kilo"), { recursive: true });
    mkdirSync(join(home, ".local", "share", "kilo"), { recursive: true });
    writeFileSync(join(home, ".local", "share", "kilo", "auth.json"), "{}");
    writeFileSync(
      join(home, ".config", "kilo", "kilo.jsonc"),
      `// mine\n${JSON.stringify({
        provider: { anthropic: { options: { baseURL: "https://llm.example/v1" } } },
        mcp: { mine: { type: "local", command: ["x"] } },
        instructions: ["AGENTS.md"],
      })}`,
    );
    const launch = input({}, { HOME: home, KILO_CONFIG: "/somewhere/kilo.json" });
    const plan = await kiloLaunch(launch);
    const config = JSON.parse(plan.env?.KILO_CONFIG_CONTENT ?? "{}");
    expect(config.provider.anthropic.options.baseURL).toBe("https://llm.example/v1");
    expect(config.mcp).toBeUndefined();
    expect(config.instructions).toBeUndefined();
    expect(plan.args).toEqual(["--pure"]);
    expect(plan.env).toMatchObject({
      HOME: join(launch.sandbox.dir, "home"),
      KILO_TEST_HOME: join(launch.sandbox.dir, "home"),
      XDG_CONFIG_HOME: join(launch.sandbox.dir, "xdg", "config"),
      KILO_CONFIG: undefined,
      KILO_DISABLE_PROJECT_CONFIG: "1",
      KILO_PURE: "1",
    });
    expect(plan.links).toEqual({
      "xdg/data/kilo/auth.json": join(home, ".local", "share", "kilo", "auth.json"),
    });
  });

  test("the seat's endpoint becomes the provider's baseURL; the key stays in its variable", async () => {
    const launch = input({}, { HOME: "/nonexistent" });
    const plan = await kiloLaunch({
      ...launch,
      endpoint: { baseUrl: "https://llm.example/v1", apiKey: { name: "MY_KEY", value: "secret-value" } },
    } as LaunchInput);
    const text = plan.env?.KILO_CONFIG_CONTENT ?? "";
    expect(JSON.parse(text).provider.anthropic.options).toEqual({
      baseURL: "https://llm.example/v1",
      apiKey: "{env:MY_KEY}",
    });
    expect(text).not.toContain("secret-value");
  });

  test("isolation off keeps the user's HOME and config; tools stay off", async () => {
    const plan = await kiloLaunch(input({ isolation: "off" }, { HOME: "/nonexistent" }));
    expect(plan.args).toEqual([]);
    expect(plan.env?.HOME).toBeUndefined();
    expect(JSON.parse(plan.env?.KILO_CONFIG_CONTENT ?? "{}").tools).toEqual({ "*": false });
  });

  test("tools: read is refused with the reason", async () => {
    await expect(kiloLaunch(input({ tools: "read" }))).rejects.toThrow(/`tools: read` is not available/);
  });
});
