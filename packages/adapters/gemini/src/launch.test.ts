import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatSandbox } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { geminiLaunch, geminiPolicy, geminiReadTools, noMcpServer } from "./launch.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "dk-gemini-launch-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function sandbox(over: Partial<SeatSandbox> = {}): SeatSandbox {
  return {
    dir: join(home, "seat"),
    cwd: join(home, "seat", "work"),
    tools: "none",
    isolation: "on",
    ...over,
  };
}

/** The user's settings: an auth selection (kept), MCP servers, hooks and tool grants (not). */
function plantUserGemini(settings: Record<string, unknown>): void {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
  writeFileSync(join(home, ".gemini", "oauth_creds.json"), "{}");
}

describe("geminiLaunch", () => {
  test("isolated: admin policy, no MCP server, a private home with only the auth selection, folder untrusted", () => {
    plantUserGemini({
      security: { auth: { selectedType: "oauth-personal" } },
      general: { maxAttempts: 1 },
      mcpServers: { s: { command: "x" } },
      hooks: { SessionStart: [] },
      tools: { allowed: ["run_shell_command"] },
    });
    const plan = geminiLaunch({ sandbox: sandbox(), env: { HOME: home }, endpoint: {} });
    expect(plan.args).toEqual([
      "--admin-policy",
      join(home, "seat", "gemini-policy.toml"),
      "--allowed-mcp-server-names",
      noMcpServer,
    ]);
    expect(plan.env).toEqual({
      GEMINI_CLI_HOME: join(home, "seat", "gemini-home"),
      GEMINI_CLI_TRUST_WORKSPACE: "false",
    });
    expect(plan.links).toEqual({
      "gemini-home/.gemini/oauth_creds.json": join(home, ".gemini", "oauth_creds.json"),
    });
    const settings = JSON.parse(plan.files?.["gemini-home/.gemini/settings.json"] ?? "");
    expect(settings).toMatchObject({
      security: { auth: { selectedType: "oauth-personal" }, folderTrust: { enabled: false } },
      general: { maxAttempts: 1 },
      tools: { core: [] },
    });
    expect(settings.mcpServers).toBeUndefined();
    expect(settings.hooks).toBeUndefined();
    expect(plan.files?.["gemini-policy.toml"]).toBe(geminiPolicy(false));
  });

  test("a seat key selects API-key auth and travels as GEMINI_API_KEY; retries bounded when unset", () => {
    const plan = geminiLaunch({
      sandbox: sandbox(),
      env: { HOME: home },
      endpoint: { baseUrl: "http://127.0.0.1:9", apiKey: { name: "K", value: "v" } },
    });
    expect(plan.env).toMatchObject({ GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9", GEMINI_API_KEY: "v" });
    const settings = JSON.parse(plan.files?.["gemini-home/.gemini/settings.json"] ?? "");
    expect(settings.security.auth).toEqual({ selectedType: "gemini-api-key" });
    expect(settings.general).toEqual({ maxAttempts: 2 });
  });

  test("tools: read: the policy allows the read tools only, and the allowlist names them", () => {
    const plan = geminiLaunch({
      sandbox: sandbox({ tools: "read", workspace: home, cwd: home }),
      env: { HOME: home },
      endpoint: {},
    });
    const settings = JSON.parse(plan.files?.["gemini-home/.gemini/settings.json"] ?? "");
    expect(settings.tools.core).toEqual(geminiReadTools);
    expect(plan.files?.["gemini-policy.toml"]).toContain('decision = "allow"');
  });

  test("tools: read is isolated even with isolation off (the user's settings could widen the workspace)", () => {
    const plan = geminiLaunch({
      sandbox: sandbox({ tools: "read", workspace: home, cwd: home, isolation: "off" }),
      env: { HOME: home },
      endpoint: {},
    });
    expect(plan.env).toMatchObject({ GEMINI_CLI_HOME: join(home, "seat", "gemini-home") });
    expect(plan.args).not.toContain("--skip-trust");
  });

  test("isolation off: the user's home, tools still denied by the admin policy, the own folder trusted", () => {
    const plan = geminiLaunch({ sandbox: sandbox({ isolation: "off" }), env: { HOME: home }, endpoint: {} });
    expect(plan.env).toEqual({});
    expect(Object.keys(plan.files ?? {})).toEqual(["gemini-policy.toml"]);
    expect(plan.args).toContain("--skip-trust");
  });
});

test("geminiPolicy denies every tool at a lower priority than the read tools' allow", () => {
  expect(geminiPolicy(false)).toBe('[[rule]]\ntoolName = "*"\ndecision = "deny"\npriority = 998\n');
  expect(geminiPolicy(true)).toContain(
    `toolName = ["read_file", "read_many_files", "list_directory", "glob", "grep_search"]`,
  );
});
