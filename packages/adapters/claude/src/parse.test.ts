import { describe, expect, test } from "vitest";
import { buildClaudeArgs } from "./args.js";
import { parseClaudeOutput } from "./parse.js";

describe("parseClaudeOutput", () => {
  test("reads text, session, model and usage (cache tokens count as input) from a success result", () => {
    const out = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      result: '{"a":1}',
      session_id: "s-1",
      total_cost_usd: 0.5,
      usage: { input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 3 },
      modelUsage: { "claude-sonnet-4-5": {} },
      terminal_reason: "completed",
    });
    expect(parseClaudeOutput(`warning: something\n${out}\n`)).toEqual({
      text: '{"a":1}',
      sessionId: "s-1",
      model: "claude-sonnet-4-5",
      usage: { inputTokens: 15, cachedInputTokens: 5, outputTokens: 3, costUsd: 0.5 },
    });
  });

  test("error_max_turns is a failure even with is_error false", () => {
    const out = JSON.stringify({
      type: "result",
      subtype: "error_max_turns",
      is_error: false,
      session_id: "s",
    });
    const parsed = parseClaudeOutput(out);
    expect(parsed.failed).toBe(true);
    expect(parsed.parseError).toContain("error_max_turns");
  });

  test("'Not logged in' (is_error, no api status) names the result text", () => {
    const out = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: true,
      result: "Not logged in · Please run /login",
    });
    expect(parseClaudeOutput(out).parseError).toBe(
      "claude reported error: Not logged in · Please run /login",
    );
  });

  test("names the tools the model asked for: tool_use blocks and permission denials, each once", () => {
    const lines = [
      { type: "system", subtype: "init", tools: [] },
      { type: "assistant", message: { content: [{ type: "tool_use", name: "Bash", input: {} }] } },
      { type: "user", message: { content: [{ type: "tool_result", is_error: true }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", name: "Bash" }, { type: "text" }] } },
      {
        type: "result",
        subtype: "success",
        is_error: false,
        result: "answer after the refused tool",
        terminal_reason: "completed",
        permission_denials: [{ tool_name: "Read", tool_use_id: "t" }],
      },
    ];
    expect(parseClaudeOutput(lines.map((l) => JSON.stringify(l)).join("\n"))).toEqual({
      text: "answer after the refused tool",
      toolCalls: ["Bash", "Read"],
    });
  });

  test("turns used up on refused tools is a failure naming them, not an empty answer", () => {
    const lines = [
      { type: "assistant", message: { content: [{ type: "tool_use", name: "WebFetch" }] } },
      {
        type: "result",
        subtype: "error_max_turns",
        is_error: true,
        num_turns: 3,
        terminal_reason: "max_turns",
        errors: ["Reached maximum number of turns (2)"],
      },
    ];
    const parsed = parseClaudeOutput(lines.map((l) => JSON.stringify(l)).join("\n"));
    expect(parsed).toMatchObject({ failed: true, toolCalls: ["WebFetch"] });
    expect(parsed.parseError).toBe(
      "claude stopped after 3 turns: the model asked for tools (WebFetch) and gave no answer",
    );
  });

  test("a refused tool and then no text is a failure naming the tool, never an empty success", () => {
    const lines = [
      { type: "assistant", message: { content: [{ type: "tool_use", name: "Bash" }] } },
      { type: "result", subtype: "success", is_error: false, result: "", terminal_reason: "completed" },
    ];
    expect(parseClaudeOutput(lines.map((l) => JSON.stringify(l)).join("\n"))).toMatchObject({
      failed: true,
      toolCalls: ["Bash"],
      parseError: "the model asked for tools (Bash) and gave no answer",
    });
  });

  test("output that is not a result object is a parse error quoting it", () => {
    expect(parseClaudeOutput("error: unknown option '--x'\n").parseError).toContain("unknown option '--x'");
    expect(parseClaudeOutput("").parseError).toContain("got: nothing");
  });
});

describe("buildClaudeArgs", () => {
  test("stream-json output (needs --verbose with -p); model and resume when given; never a prompt", () => {
    expect(buildClaudeArgs({ model: "opus", sessionId: "abc", extra: ["--tools", ""] })).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "opus",
      "--resume",
      "abc",
      "--tools",
      "",
    ]);
    expect(buildClaudeArgs({})).not.toContain("--model");
  });
});
