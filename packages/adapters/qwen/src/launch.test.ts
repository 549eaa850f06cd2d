import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LaunchInput } from "@debatekit/adapter-kit";
import { describe, expect, test } from "vitest";
import { qwenLaunch, qwenTools } from "./launch.js";

function input(overrides: Partial<LaunchInput["sandbox"]> = {}, env: NodeJS.ProcessEnv = {}): LaunchInput {
  const dir = mkdtempSync(join(tmpdir(), "dk-qwen-launch-"));
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
  } as LaunchInput;
}

describe("qwenLaunch", () => {
  test("excludes every built-in tool and every MCP server, and never approves automatically", async () => {
    const plan = await qwenLaunch(input());
    const args = plan.args ?? [];
    for (const tool of [
      "run_shell_command",
      "write_file",
      "edit",
      "web_fetch",
      "read_file",
      "agent",
      "skill",
    ])
      expect(qwenTools).toContain(tool);
    expect(
      args.slice(args.indexOf("--exclude-tools") + 1, args.indexOf("--exclude-tools") + 1 + qwenTools.length),
    ).toEqual(qwenTools);
    expect(args).toContain("--allowed-mcp-server-names");
    expect(args[args.indexOf("--approval-mode") + 1]).toBe("default");
  });

  test("isolated: --bare --safe-mode, a private QWEN_HOME, the user's login as flags and a variable", async () => {
    const home = mkdtempSync(join(tmpdir(), "dk-qwen-home-"));
    mkdirSync(join(home, ".qwen"));
    writeFileSync(
      join(home, ".qwen", "settings.json"),
      JSON.stringify({
        security: { auth: { selectedType: "openai", baseUrl: "https://llm.example/v1", apiKey: "user-key" } },
        hooks: {},
      }),
    );
    const launch = input({}, { HOME: home });
    const plan = await qwenLaunch(launch);
    expect(plan.args).toEqual(
      expect.arrayContaining([
        "--bare",
        "--safe-mode",
        "--auth-type",
        "openai",
        "--openai-base-url",
        "https://llm.example/v1",
      ]),
    );
    expect(plan.args?.join(" ")).not.toContain("user-key");
    expect(plan.env).toEqual({
      QWEN_HOME: join(launch.sandbox.dir, "qwen-home"),
      OPENAI_API_KEY: "user-key",
    });
  });

  test("isolation off loads the user's setup (no --bare, no private QWEN_HOME); tools stay off", async () => {
    const plan = await qwenLaunch(input({ isolation: "off" }, { HOME: "/nonexistent" }));
    expect(plan.args).not.toContain("--bare");
    expect(plan.args).toContain("--exclude-tools");
    expect(plan.env).toEqual({});
  });

  test("tools: read is refused with the reason", async () => {
    await expect(qwenLaunch(input({ tools: "read" }))).rejects.toThrow(/`tools: read` is not available/);
  });
});
