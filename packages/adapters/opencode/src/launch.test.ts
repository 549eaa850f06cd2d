import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatSandbox } from "@debatekit/adapter-kit";
import { SandboxError } from "@debatekit/adapter-kit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  opencodeLaunch,
  opencodePermissionKeys,
  readOpencodeConfigText,
  userProviderConfig,
} from "./launch.js";

let root: string;
let home: string;
let sandbox: SeatSandbox;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "oc-launch-"));
  home = join(root, "home");
  mkdirSync(home);
  sandbox = { dir: join(root, "seat"), cwd: join(root, "seat", "work"), tools: "none", isolation: "on" };
  mkdirSync(sandbox.cwd, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

const configOf = (env: Record<string, string | undefined> | undefined) =>
  JSON.parse(env?.OPENCODE_CONFIG_CONTENT ?? "{}") as Record<string, unknown>;

describe("readOpencodeConfigText", () => {
  test("reads JSON with comments and trailing commas; anything unreadable is {}", async () => {
    expect(readOpencodeConfigText('// mine\n{ "model": "a/b", /* c */ }\n')).toEqual({ model: "a/b" });
    expect(readOpencodeConfigText("{ not json")).toEqual({});
    expect(readOpencodeConfigText("[1]")).toEqual({});
    expect(readOpencodeConfigText(undefined)).toEqual({});
  });
});

describe("userProviderConfig", () => {
  test("keeps only provider settings, merged in opencode's order (later wins, providers one level deep)", async () => {
    write(
      join(home, ".config", "opencode", "opencode.jsonc"),
      `// user config
      {
        "provider": { "anthropic": { "options": { "baseURL": "http://a", "apiKey": "{env:K}" } } },
        "model": "anthropic/x",
        "mcp": { "m": { "type": "local", "command": ["m"] } },
        "plugin": ["p"],
        "instructions": ["AGENTS.md"],
        "agent": { "build": { "prompt": "be French" } },
      }`,
    );
    const extra = join(root, "extra.json");
    write(extra, JSON.stringify({ provider: { anthropic: { options: { timeout: 5 } } }, small_model: "s" }));
    const config = userProviderConfig({
      HOME: home,
      OPENCODE_CONFIG: extra,
      OPENCODE_CONFIG_CONTENT: JSON.stringify({ model: "anthropic/y", permission: { bash: "allow" } }),
    });
    expect(config).toEqual({
      provider: { anthropic: { options: { baseURL: "http://a", apiKey: "{env:K}", timeout: 5 } } },
      model: "anthropic/y",
      small_model: "s",
    });
  });

  test("XDG_CONFIG_HOME moves the folder; nothing there is {}", async () => {
    write(join(root, "xdg", "opencode", "opencode.json"), JSON.stringify({ model: "p/m" }));
    expect(userProviderConfig({ HOME: home, XDG_CONFIG_HOME: join(root, "xdg") })).toEqual({ model: "p/m" });
    expect(userProviderConfig({ HOME: home })).toEqual({});
  });
});

describe("opencodeLaunch", () => {
  test("tools: none turns every tool off and denies every permission, at the top and on the build agent", async () => {
    const plan = await opencodeLaunch({ sandbox, env: { HOME: home }, endpoint: {} });
    const config = configOf(plan.env);
    expect(config.tools).toEqual({ "*": false });
    const permission = config.permission as Record<string, string>;
    expect(permission["*"]).toBe("deny");
    for (const key of opencodePermissionKeys) expect(permission[key], key).toBe("deny");
    expect(config.default_agent).toBe("build");
    expect((config.agent as Record<string, unknown>).build).toEqual({
      tools: config.tools,
      permission: config.permission,
    });
    // The same permissions win over the user's OPENCODE_PERMISSION (merged after every file).
    expect(JSON.parse(plan.env!.OPENCODE_PERMISSION!)).toEqual(config.permission);
    expect(config).toMatchObject({ autoupdate: false, share: "disabled" });
  });

  test("isolation: private XDG folders and home, project config and plugins off, the login and model cache linked", async () => {
    write(join(home, ".local", "share", "opencode", "auth.json"), "{}");
    write(join(home, ".cache", "opencode", "models.json"), "{}");
    const plan = await opencodeLaunch({
      sandbox,
      env: { HOME: home, OPENCODE_CONFIG: "/x.json", OPENCODE_CONFIG_DIR: "/d" },
      endpoint: {},
    });
    expect(plan.args).toEqual(["--pure"]);
    expect(plan.env).toMatchObject({
      XDG_CONFIG_HOME: join(sandbox.dir, "xdg", "config"),
      XDG_DATA_HOME: join(sandbox.dir, "xdg", "data"),
      XDG_STATE_HOME: join(sandbox.dir, "xdg", "state"),
      XDG_CACHE_HOME: join(sandbox.dir, "xdg", "cache"),
      OPENCODE_TEST_HOME: join(sandbox.dir, "home"),
      OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
      OPENCODE_PURE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      npm_config_offline: "true",
    });
    expect(plan.env).toHaveProperty("OPENCODE_CONFIG", undefined);
    expect(plan.env).toHaveProperty("OPENCODE_CONFIG_DIR", undefined);
    expect(plan.links).toEqual({
      "xdg/data/opencode/auth.json": join(home, ".local", "share", "opencode", "auth.json"),
      "xdg/cache/opencode/models.json": join(home, ".cache", "opencode", "models.json"),
    });
    // The working folder is made a project root, so opencode looks for .opencode folders no higher.
    expect(existsSync(join(sandbox.cwd, ".git", "HEAD"))).toBe(true);
  });

  test("isolation off keeps the user's OPENCODE_CONFIG_CONTENT whole, still with every tool off", async () => {
    const user = {
      model: "a/b",
      mcp: { m: { type: "local", command: ["m"] } },
      permission: { bash: "allow" },
    };
    const plan = await opencodeLaunch({
      sandbox: { ...sandbox, isolation: "off" },
      env: { HOME: home, OPENCODE_CONFIG_CONTENT: JSON.stringify(user) },
      endpoint: {},
    });
    const config = configOf(plan.env);
    expect(config).toMatchObject({ model: "a/b", mcp: user.mcp });
    expect((config.permission as Record<string, string>).bash).toBe("deny");
    expect(plan.args).toEqual([]);
    expect(plan.env).not.toHaveProperty("XDG_CONFIG_HOME");
    expect(plan.links).toEqual({});
  });

  test("tools: read offers read (and grep/glob with an rg on PATH), from the private folder, the workspace linked in", async () => {
    const workspace = join(root, "ws");
    mkdirSync(workspace);
    const read = { ...sandbox, tools: "read" as const, workspace, cwd: workspace };
    const without = await opencodeLaunch({ sandbox: read, env: { HOME: home, PATH: "" }, endpoint: {} });
    expect(configOf(without.env).tools).toEqual({ "*": false, read: true });
    const bin = join(root, "bin");
    write(join(bin, "rg"), "#!/bin/sh\n");
    chmodSync(join(bin, "rg"), 0o755);
    const plan = await opencodeLaunch({ sandbox: read, env: { HOME: home, PATH: bin }, endpoint: {} });
    const config = configOf(plan.env);
    expect(config.tools).toEqual({ "*": false, read: true, grep: true, glob: true });
    const permission = config.permission as Record<string, unknown>;
    expect(permission).toMatchObject({
      read: "allow",
      grep: "allow",
      glob: "allow",
      bash: "deny",
      edit: "deny",
    });
    expect(permission.external_directory).toEqual({
      "*": "deny",
      [workspace]: "allow",
      [`${workspace}/*`]: "allow",
    });
    expect(plan.args).toEqual(["--pure", "--dir", join(sandbox.dir, "work")]);
    expect(plan.links).toMatchObject({ "work/workspace": workspace });
  });

  test("the seat's endpoint goes to the model's provider; the key by variable name, never its value", async () => {
    const plan = await opencodeLaunch({
      sandbox,
      env: { HOME: home, MY_KEY: "sk-secret-value-123456" },
      endpoint: {
        baseUrl: "https://models.example.test/v1",
        apiKey: { name: "MY_KEY", value: "sk-secret-value-123456" },
      },
      model: "openai/gpt-x",
    });
    expect(configOf(plan.env).provider).toEqual({
      openai: { options: { baseURL: "https://models.example.test/v1", apiKey: "{env:MY_KEY}" } },
    });
    expect(plan.env!.OPENCODE_CONFIG_CONTENT).not.toContain("sk-secret-value");
  });
});

describe("a model server that refuses connections", () => {
  test("a loopback base URL nobody listens on makes the seat unavailable before opencode starts", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const input = { sandbox, env: { HOME: home }, endpoint: { baseUrl: `http://127.0.0.1:${port}/v1` } };
    await expect(opencodeLaunch(input)).rejects.toThrow(/refuses connections/);
    // The user's own provider config is checked too.
    const config = JSON.stringify({
      provider: { anthropic: { options: { baseURL: `http://127.0.0.1:${port}` } } },
    });
    await expect(
      opencodeLaunch({ sandbox, env: { HOME: home, OPENCODE_CONFIG_CONTENT: config }, endpoint: {} }),
    ).rejects.toThrow(SandboxError);
  });
});
