import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatSandbox } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { claudeLaunch, claudeProviderSettings } from "./launch.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "dk-claude-launch-"));
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

/** The user's settings.json: hooks, MCP servers and permissions a seat must not get, a provider it must. */
function plantUserSettings(): void {
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(
    join(home, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch /tmp/x" }] }] },
      permissions: { allow: ["Bash"] },
      enabledPlugins: { "p@m": true },
      apiKeyHelper: "/usr/local/bin/get-key",
      env: { ANTHROPIC_BASE_URL: "https://proxy.example", CLAUDE_CODE_USE_BEDROCK: "1", EDITOR: "vim" },
    }),
  );
}

describe("claudeLaunch", () => {
  test("tools off: no built-in tool, 2 turns, no MCP server, no slash command, none of the user's settings", () => {
    const plan = claudeLaunch({ sandbox: sandbox(), env: { HOME: home }, endpoint: {} });
    expect(plan.args).toEqual([
      "--tools",
      "",
      "--max-turns",
      "2",
      "--permission-mode",
      "default",
      "--strict-mcp-config",
      "--disable-slash-commands",
      "--setting-sources",
      "",
    ]);
    expect(plan.env).toMatchObject({
      CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      CLAUDE_CODE_MAX_RETRIES: "2",
    });
    expect(plan.files).toBeUndefined();
  });

  test("tools: read offers only Read, Grep and Glob", () => {
    const plan = claudeLaunch({
      sandbox: sandbox({ tools: "read", workspace: home, cwd: home }),
      env: { HOME: home },
      endpoint: {},
    });
    expect(plan.args?.slice(0, 4)).toEqual(["--tools", "Read,Grep,Glob", "--max-turns", "12"]);
    // Confined to the workspace whatever the user's permission rules say.
    expect(plan.args).toContain("--restricted");
  });

  test("isolated: only the user's credential helper and provider variables travel, in a flag settings file", () => {
    plantUserSettings();
    const plan = claudeLaunch({ sandbox: sandbox(), env: { HOME: home }, endpoint: {} });
    const path = join(home, "seat", "claude-settings.json");
    expect(plan.args?.slice(-2)).toEqual(["--settings", path]);
    expect(JSON.parse(plan.files?.["claude-settings.json"] ?? "")).toEqual({
      apiKeyHelper: "/usr/local/bin/get-key",
      env: { ANTHROPIC_BASE_URL: "https://proxy.example", CLAUDE_CODE_USE_BEDROCK: "1" },
    });
  });

  test("the seat's endpoint wins over the user's settings, also with isolation off", () => {
    plantUserSettings();
    for (const isolation of ["on", "off"] as const) {
      const plan = claudeLaunch({
        sandbox: sandbox({ isolation }),
        env: { HOME: home },
        endpoint: { baseUrl: "http://127.0.0.1:9", apiKey: { name: "MY_KEY", value: "k-123" } },
      });
      expect(plan.env).toMatchObject({
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
        ANTHROPIC_API_KEY: "k-123",
      });
      const settings = JSON.parse(plan.files?.["claude-settings.json"] ?? "{}");
      expect(settings.env).toMatchObject({
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
        ANTHROPIC_API_KEY: "k-123",
      });
      expect(settings.apiKeyHelper).toBeUndefined();
    }
  });

  test("isolation off: the user's settings load (no --setting-sources, no auto-memory switch), tools stay off", () => {
    const plan = claudeLaunch({ sandbox: sandbox({ isolation: "off" }), env: { HOME: home }, endpoint: {} });
    expect(plan.args).not.toContain("--setting-sources");
    expect(plan.args?.slice(0, 2)).toEqual(["--tools", ""]);
    expect(plan.args).toContain("--strict-mcp-config");
    expect(plan.env?.CLAUDE_CODE_DISABLE_AUTO_MEMORY).toBeUndefined();
  });

  test("the caller's own retry count is kept", () => {
    const plan = claudeLaunch({
      sandbox: sandbox(),
      env: { HOME: home, CLAUDE_CODE_MAX_RETRIES: "5" },
      endpoint: {},
    });
    expect(plan.env?.CLAUDE_CODE_MAX_RETRIES).toBe("5");
  });
});

test("claudeProviderSettings keeps credential keys and provider variables only", () => {
  expect(
    claudeProviderSettings({
      hooks: {},
      model: "opus",
      awsAuthRefresh: "aws sso login",
      env: { AWS_REGION: "eu-west-1", ANTHROPIC_API_KEY: "k", FOO: "bar", ANTHROPIC_MODEL: 3 },
    }),
  ).toEqual({ awsAuthRefresh: "aws sso login", env: { AWS_REGION: "eu-west-1", ANTHROPIC_API_KEY: "k" } });
  expect(claudeProviderSettings({ env: ["x"] })).toEqual({});
});
