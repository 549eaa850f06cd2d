import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  findConfigOption,
  permissionOutcome,
  readConfigOptions,
  readInitializeResult,
  readPromptResult,
  TurnCollector,
  toolNameOf,
} from "./protocol.js";

// The option list opencode 1.18.33 sends with session/request_permission (recorded).
const options = [
  { optionId: "once", kind: "allow_once", name: "Allow once" },
  { optionId: "always", kind: "allow_always", name: "Always allow" },
  { optionId: "reject", kind: "reject_once", name: "Reject" },
];
const request = (kind?: string) => ({
  sessionId: "s",
  toolCall: { toolCallId: "t", title: "x", ...(kind ? { kind } : {}) },
  options,
});

describe("permissionOutcome", () => {
  let workspace: string;
  let outside: string;
  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), "acp-perm-"));
    workspace = join(root, "ws");
    outside = join(root, "outside");
    mkdirSync(workspace);
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.txt"), "x");
    // A symlink inside the workspace that leads out of it.
    symlinkSync(join(outside, "secret.txt"), join(workspace, "link.txt"));
  });
  const at = (kind: string | undefined, ...paths: string[]) => ({
    ...request(kind),
    toolCall: { ...request(kind).toolCall, locations: paths.map((path) => ({ path })) },
  });
  const reject = { outcome: { outcome: "selected", optionId: "reject" } };
  const once = { outcome: { outcome: "selected", optionId: "once" } };

  it("deny-all (tools: none) refuses every request, reads included", () => {
    for (const kind of ["read", "search", "think", "edit", "execute", "fetch", undefined])
      expect(permissionOutcome(at(kind, join(workspace, "a.md")), "deny-all", workspace)).toEqual(reject);
  });

  it("read-only allows a read or search whose every location is inside the workspace", () => {
    for (const kind of ["read", "search"]) {
      expect(permissionOutcome(at(kind, join(workspace, "a.md")), "read-only", workspace)).toEqual(once);
      expect(permissionOutcome(at(kind, workspace), "read-only", workspace)).toEqual(once);
    }
  });

  it("read-only refuses other kinds, reads outside, through a symlink out, without locations or workspace", () => {
    for (const kind of ["edit", "delete", "move", "execute", "fetch", "think", "other", undefined])
      expect(
        permissionOutcome(at(kind, join(workspace, "a.md")), "read-only", workspace),
        String(kind),
      ).toEqual(reject);
    const refused = [
      at("read", join(outside, "secret.txt")),
      at("read", join(workspace, "..", "outside", "secret.txt")),
      at("read", join(workspace, "link.txt")),
      at("read", join(workspace, "a.md"), join(outside, "secret.txt")),
      at("read", "relative/path.md"),
      request("read"),
    ];
    for (const params of refused) expect(permissionOutcome(params, "read-only", workspace)).toEqual(reject);
    expect(permissionOutcome(at("read", join(workspace, "a.md")), "read-only")).toEqual(reject);
  });

  it("never picks an *_always option; answers cancelled when no once-option fits", () => {
    const onlyAlways = {
      toolCall: { kind: "read", locations: [{ path: join(workspace, "a.md") }] },
      options: [
        { optionId: "a", kind: "allow_always" },
        { optionId: "r", kind: "reject_always" },
      ],
    };
    expect(permissionOutcome(onlyAlways, "read-only", workspace)).toEqual({
      outcome: { outcome: "cancelled" },
    });
    expect(permissionOutcome(null, "read-only", workspace)).toEqual({ outcome: { outcome: "cancelled" } });
  });
});

describe("toolNameOf", () => {
  it("names opencode's stand-in for a tool the seat lacks by the tool the model asked for", () => {
    expect(
      toolNameOf({ title: "invalid", kind: "other", rawInput: { tool: "bash", error: "unavailable" } }),
    ).toBe("bash");
    expect(toolNameOf({ title: "read README", kind: "read" })).toBe("read README");
    expect(toolNameOf({ kind: "execute" })).toBe("execute");
    expect(toolNameOf(null)).toBeUndefined();
  });
});

describe("TurnCollector", () => {
  const chunk = (sessionId: string, text: string) => ({
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "text", text } },
  });
  const cost = (sessionId: string, amount: number) => ({
    sessionId,
    update: { sessionUpdate: "usage_update", used: 1, size: 2, cost: { amount, currency: "USD" } },
  });

  it("collects only our session's chunks after start, ignoring a load replay and other blocks", () => {
    const c = new TurnCollector();
    c.watch("s");
    c.update(chunk("s", "replayed "));
    c.update(cost("s", 0.5));
    c.start("s");
    c.update(chunk("s", "Hel"));
    c.update(chunk("other", "XX"));
    c.update({
      sessionId: "s",
      update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
    });
    c.update({
      sessionId: "s",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "image", data: "" } },
    });
    c.update({ sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t", title: "t" } });
    c.update(chunk("s", "lo"));
    c.update(cost("s", 0.75));
    expect(c.text()).toBe("Hello");
    c.update({
      sessionId: "s",
      update: { sessionUpdate: "tool_call", toolCallId: "u", title: "invalid", rawInput: { tool: "bash" } },
    });
    expect(c.toolCalls).toEqual(["t", "bash"]);
    expect(c.refusedTools).toBe(1);
    expect(c.costUsd).toBe(0.25);
  });

  it("has no cost when none was reported, and ignores other currencies", () => {
    const c = new TurnCollector();
    c.start("s");
    expect(c.costUsd).toBeUndefined();
    c.update({
      sessionId: "s",
      update: { sessionUpdate: "usage_update", cost: { amount: 3, currency: "EUR" } },
    });
    expect(c.costUsd).toBeUndefined();
  });
});

describe("result readers", () => {
  it("reads opencode's initialize answer (recorded, 1.18.33)", () => {
    const result = {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        mcpCapabilities: { http: true, sse: true },
        promptCapabilities: { embeddedContext: true, image: true },
        sessionCapabilities: { close: {}, fork: {}, list: {}, resume: {} },
      },
      authMethods: [
        {
          description: "Run `opencode auth login` in the terminal",
          name: "Login with opencode",
          id: "opencode-login",
        },
      ],
      agentInfo: { name: "OpenCode", version: "1.18.33" },
    };
    expect(readInitializeResult(result)).toEqual({
      protocolVersion: 1,
      loadSession: true,
      name: "OpenCode",
      version: "1.18.33",
    });
    expect(readInitializeResult(undefined)).toEqual({ loadSession: false });
  });

  it("reads the stop reason and usage of session/prompt", () => {
    expect(
      readPromptResult({
        stopReason: "end_turn",
        usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 },
      }),
    ).toEqual({
      stopReason: "end_turn",
      inputTokens: 12,
      outputTokens: 7,
    });
    // opencode acp (measured): inputTokens leaves out cache reads and writes, which are input too.
    expect(
      readPromptResult({
        stopReason: "end_turn",
        usage: {
          inputTokens: 904,
          outputTokens: 321,
          totalTokens: 5321,
          cachedReadTokens: 4096,
          cachedWriteTokens: 10,
        },
      }),
    ).toEqual({ stopReason: "end_turn", inputTokens: 5010, cachedInputTokens: 4096, outputTokens: 321 });
    expect(readPromptResult({ stopReason: "max_tokens", usage: { inputTokens: -1 } })).toEqual({
      stopReason: "max_tokens",
    });
    expect(readPromptResult(null)).toEqual({ stopReason: "unknown" });
  });

  it("reads config options and finds one by category or id", () => {
    const session = {
      sessionId: "s",
      configOptions: [
        {
          id: "model",
          name: "Model",
          category: "model",
          type: "select",
          currentValue: "a/b",
          options: [{ value: "a/b" }, { value: "a/c" }],
        },
        {
          id: "effort",
          name: "Effort",
          category: "thought_level",
          type: "select",
          currentValue: "high",
          options: [{ value: "high" }, { value: "max" }],
        },
        { name: "broken" },
      ],
    };
    const list = readConfigOptions(session);
    expect(list).toEqual([
      { id: "model", category: "model", currentValue: "a/b", values: ["a/b", "a/c"] },
      { id: "effort", category: "thought_level", currentValue: "high", values: ["high", "max"] },
    ]);
    expect(findConfigOption(list, "thought_level")?.id).toBe("effort");
    expect(findConfigOption(list, "mode")).toBeUndefined();
  });
});
