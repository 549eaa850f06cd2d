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
      usage: { inputTokens: 15, outputTokens: 3, costUsd: 0.5 },
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

  test("output that is not a result object is a parse error quoting it", () => {
    expect(parseClaudeOutput("error: unknown option '--x'\n").parseError).toContain("unknown option '--x'");
    expect(parseClaudeOutput("").parseError).toContain("got: nothing");
  });
});

describe("buildClaudeArgs", () => {
  test("JSON output, one turn, no tools; model and resume when given; never a prompt", () => {
    expect(buildClaudeArgs({ model: "opus", sessionId: "abc", extra: ["--verbose"] })).toEqual([
      "-p",
      "--output-format",
      "json",
      "--max-turns",
      "1",
      "--tools",
      "",
      "--model",
      "opus",
      "--resume",
      "abc",
      "--verbose",
    ]);
    expect(buildClaudeArgs({})).not.toContain("--model");
  });
});
