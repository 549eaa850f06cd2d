import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxError, type SeatSandbox } from "@debatekit/adapter-kit";
import { parse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { catalogWithoutApplyPatch, codexLaunch, providerConfig } from "./launch.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "dk-codex-launch-"));
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

/** The user's codex home: a custom provider (kept), an MCP server, notify and instructions (not). */
function plantUserCodex(): void {
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(
    join(home, ".codex", "config.toml"),
    [
      'model_provider = "corp"',
      'notify = ["touch", "/tmp/x"]',
      'developer_instructions = "answer in French"',
      "[model_providers.corp]",
      'name = "corp"',
      'base_url = "https://llm.corp.example/v1"',
      'env_key = "CORP_KEY"',
      "request_max_retries = 7",
      "[mcp_servers.files]",
      'command = "mcp-files"',
      "",
    ].join("\n"),
  );
  writeFileSync(join(home, ".codex", "auth.json"), "{}");
}

/** A stand-in codex that prints a bundled catalog for `debug models --bundled`. */
function fakeCodex(): string {
  const script = join(home, "codex.cjs");
  writeFileSync(
    script,
    `#!${process.execPath}\nconsole.log(JSON.stringify({ models: [{ slug: "gpt-x", apply_patch_tool_type: "freeform", shell_type: "unified_exec" }] }));\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

const toolSwitches = [
  "--sandbox",
  "read-only",
  "--disable",
  "shell_tool",
  "--disable",
  "unified_exec",
  "--disable",
  "view_image",
  "--disable",
  "goals",
  "--disable",
  "apps",
  "--disable",
  "plugins",
  "--disable",
  "tool_suggest",
  "--disable",
  "multi_agent",
  "--disable",
  "unbounded_connection_retries",
  "-c",
  'web_search="disabled"',
];

describe("codexLaunch", () => {
  test("isolated: every tool feature off, a private CODEX_HOME with only the user's provider, the login linked", () => {
    plantUserCodex();
    const plan = codexLaunch({ sandbox: sandbox(), env: { HOME: home }, endpoint: {} });
    expect(plan.args).toEqual([
      ...toolSwitches,
      "-c",
      "project_doc_max_bytes=0",
      "-c",
      "skills.include_instructions=false",
    ]);
    expect(plan.env).toEqual({ CODEX_HOME: join(home, "seat", "codex-home") });
    expect(plan.links).toEqual({ "codex-home/auth.json": join(home, ".codex", "auth.json") });
    expect(parse(plan.files?.["codex-home/config.toml"] ?? "")).toEqual({
      model_provider: "corp",
      check_for_update_on_startup: false,
      analytics: { enabled: false },
      model_providers: {
        corp: {
          name: "corp",
          base_url: "https://llm.corp.example/v1",
          env_key: "CORP_KEY",
          request_max_retries: 7,
          stream_max_retries: 2,
        },
      },
    });
  });

  test("the seat's endpoint becomes the provider, with bounded retries and its key variable's name", () => {
    plantUserCodex();
    const plan = codexLaunch({
      sandbox: sandbox(),
      env: { HOME: home },
      endpoint: { baseUrl: "http://127.0.0.1:9/v1", apiKey: { name: "SEAT_KEY", value: "v" } },
    });
    const config = parse(plan.files?.["codex-home/config.toml"] ?? "") as {
      model_provider?: string;
      model_providers: Record<string, unknown>;
    };
    expect(config.model_provider).toBe("debatekit");
    expect(config.model_providers.debatekit).toEqual({
      name: "debatekit seat endpoint",
      base_url: "http://127.0.0.1:9/v1",
      env_key: "SEAT_KEY",
      wire_api: "responses",
      supports_websockets: false,
      request_max_retries: 2,
      stream_max_retries: 2,
    });
    expect(plan.files?.["codex-home/config.toml"]).not.toContain('"v"');
  });

  test("isolation off: the user's config loads, but its MCP servers are switched off and tools stay off", () => {
    plantUserCodex();
    const plan = codexLaunch({
      sandbox: sandbox({ isolation: "off" }),
      env: { HOME: home },
      endpoint: { baseUrl: "http://127.0.0.1:9/v1" },
    });
    expect(plan.env).toEqual({});
    expect(plan.files).toEqual({});
    expect(plan.args).toEqual([
      ...toolSwitches,
      "-c",
      "mcp_servers.files.enabled=false",
      "-c",
      "model_provider=debatekit",
      "-c",
      'model_providers.debatekit={name="debatekit seat endpoint",base_url="http://127.0.0.1:9/v1",wire_api="responses",supports_websockets=false,request_max_retries=2,stream_max_retries=2}',
    ]);
  });

  test("with the program known, a model catalog without apply_patch is written and named", () => {
    const program = fakeCodex();
    const plan = codexLaunch({ sandbox: sandbox(), env: { HOME: home }, endpoint: {}, command: [program] });
    expect(plan.args).toContain(
      `model_catalog_json=${JSON.stringify(join(home, "seat", "codex-models.json"))}`,
    );
    expect(JSON.parse(plan.files?.["codex-models.json"] ?? "")).toEqual({
      models: [{ slug: "gpt-x", apply_patch_tool_type: null, shell_type: "unified_exec" }],
    });
  });

  test("tools: read is refused: codex reads only through its shell", () => {
    expect(() =>
      codexLaunch({
        sandbox: sandbox({ tools: "read", workspace: home }),
        env: { HOME: home },
        endpoint: {},
      }),
    ).toThrow(SandboxError);
  });
});

test("catalogWithoutApplyPatch is undefined when the program cannot print one", () => {
  expect(catalogWithoutApplyPatch([join(home, "missing-codex")], {})).toBeUndefined();
});

test("providerConfig keeps the provider, its default model and login keys only", () => {
  expect(
    providerConfig({
      model_provider: "p",
      model: "llama3",
      developer_instructions: "x",
      model_providers: { p: { name: "p" } },
      mcp_servers: { s: {} },
      notify: [],
    }),
  ).toEqual({ model_provider: "p", model: "llama3", model_providers: { p: { name: "p" } } });
});
