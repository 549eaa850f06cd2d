import { describe, expect, test } from "vitest";
import { buildCodexArgs } from "./args.js";
import { parseCodexOutput } from "./parse.js";

const jsonl = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");

describe("parseCodexOutput", () => {
  test("the last agent message is the answer; error items are warnings, not failures", () => {
    const out = jsonl(
      { type: "thread.started", thread_id: "t-1" },
      { type: "item.completed", item: { type: "error", message: "model metadata not found" } },
      { type: "item.completed", item: { type: "agent_message", text: "thinking aloud" } },
      { type: "item.completed", item: { type: "agent_message", text: "final" } },
      { type: "turn.completed", usage: { input_tokens: 5, cached_input_tokens: 4, output_tokens: 2 } },
    );
    expect(parseCodexOutput(out)).toEqual({
      text: "final",
      sessionId: "t-1",
      usage: { inputTokens: 5, cachedInputTokens: 4, outputTokens: 2 },
    });
  });

  test("a top-level error event without a completed turn fails with its message", () => {
    const out = jsonl(
      { type: "thread.started", thread_id: "t" },
      { type: "error", message: "stream disconnected" },
    );
    expect(parseCodexOutput(out)).toMatchObject({
      failed: true,
      parseError: "codex reported: stream disconnected",
    });
  });

  test("a partial last line (killed mid-write) is skipped; no events at all is a parse error", () => {
    expect(
      parseCodexOutput(`${jsonl({ type: "thread.started", thread_id: "t" })}\n{"type":"ite`).sessionId,
    ).toBe("t");
    expect(parseCodexOutput("error: unexpected argument '--x' found\n").parseError).toContain(
      "unexpected argument",
    );
  });
});

describe("codex tool calls", () => {
  test("a refused call logged on stderr is named, and the answer after it is kept", () => {
    const out = [
      { type: "thread.started", thread_id: "t-1" },
      { type: "item.completed", item: { id: "item_0", type: "agent_message", text: "after tool" } },
      { type: "turn.completed", usage: { input_tokens: 2, output_tokens: 1 } },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n");
    const stderr = [
      "2026-11-24T01:04:41.851399Z ERROR codex_core::tools::router: error=unsupported call: exec_command",
      "2026-11-24T01:04:57.078695Z ERROR codex_core::tools::router: error=Fatal error: tool apply_patch invoked with incompatible payload",
      "2026-11-24T01:04:51.163152Z ERROR codex_core::tools::router: error=request_user_input is unavailable in Default mode",
      "2026-11-24T01:04:52.000000Z ERROR codex_core::tools::router: error=unsupported call: exec_command",
    ].join("\n");
    expect(parseCodexOutput(out, stderr)).toEqual({
      text: "after tool",
      sessionId: "t-1",
      usage: { inputTokens: 2, cachedInputTokens: 0, outputTokens: 1 },
      toolCalls: ["exec_command", "apply_patch", "request_user_input"],
    });
  });

  test("a refused call and then no text is a failure naming the tool, never an empty success", () => {
    const out = [{ type: "thread.started", thread_id: "t" }, { type: "turn.completed" }]
      .map((e) => JSON.stringify(e))
      .join("\n");
    expect(
      parseCodexOutput(out, "ERROR codex_core::tools::router: error=unsupported call: shell"),
    ).toMatchObject({
      failed: true,
      toolCalls: ["shell"],
      parseError: "the model asked for tools (shell) and gave no answer",
    });
  });

  test("tools codex ran are named from their JSONL items", () => {
    const out = [
      { type: "item.completed", item: { type: "command_execution", command: "ls" } },
      { type: "item.completed", item: { type: "mcp_tool_call", server: "s", tool: "t" } },
      { type: "item.completed", item: { type: "agent_message", text: "x" } },
      { type: "turn.completed" },
    ]
      .map((e) => JSON.stringify(e))
      .join("\n");
    expect(parseCodexOutput(out).toolCalls).toEqual(["exec_command", "mcp__s__t"]);
  });
});

describe("buildCodexArgs", () => {
  test("stdin prompt (-), model and effort flags; resume puts `resume <id>` before the prompt marker", () => {
    expect(buildCodexArgs({ model: "gpt-5.5", extra: ["-c", "model_reasoning_effort=high"] })).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "-m",
      "gpt-5.5",
      "-c",
      "model_reasoning_effort=high",
      "-",
    ]);
    expect(buildCodexArgs({ sessionId: "t-1" }).slice(-3)).toEqual(["resume", "t-1", "-"]);
  });
});
