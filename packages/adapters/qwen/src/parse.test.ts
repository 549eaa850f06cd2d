import { describe, expect, test } from "vitest";
import { parseQwenOutput } from "./parse.js";

// Events as qwen 0.24.4 prints them with `-o stream-json` (cut to the fields read).
const line = (event: object) => JSON.stringify(event);
const init = line({ type: "system", subtype: "init", session_id: "s-1", tools: [] });

describe("parseQwenOutput", () => {
  test("reads the answer, session, model and usage of a successful run", () => {
    const stdout = [
      init,
      line({
        type: "assistant",
        session_id: "s-1",
        message: { model: "qwen3-coder-plus", content: [{ type: "text", text: "hi" }] },
      }),
      line({
        type: "result",
        subtype: "success",
        is_error: false,
        session_id: "s-1",
        result: "hi",
        usage: { input_tokens: 24, output_tokens: 14, cache_read_input_tokens: 4 },
      }),
      "",
    ].join("\n");
    expect(parseQwenOutput(stdout)).toEqual({
      text: "hi",
      sessionId: "s-1",
      model: "qwen3-coder-plus",
      usage: { inputTokens: 24, cachedInputTokens: 4, outputTokens: 14 },
    });
  });

  test("names the tools the model asked for, and a run that only asked for tools fails saying so", () => {
    const stdout = [
      init,
      line({ type: "assistant", message: { content: [{ type: "tool_use", name: "run_shell_command" }] } }),
      line({ type: "result", subtype: "success", is_error: false, session_id: "s-1", result: "" }),
    ].join("\n");
    expect(parseQwenOutput(stdout)).toMatchObject({
      failed: true,
      toolCalls: ["run_shell_command"],
      parseError: "the model asked for tools (run_shell_command) and gave no answer",
    });
  });

  test("an error result fails; a missing key is unusable", () => {
    const failed = line({
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      error: { message: "[API Error: Connection error. (cause: fetch failed)]" },
    });
    expect(parseQwenOutput(failed)).toMatchObject({
      failed: true,
      parseError:
        "qwen reported an error (error_during_execution): [API Error: Connection error. (cause: fetch failed)]",
    });
    expect(parseQwenOutput(failed).unusable).toBeUndefined();
    const noKey = line({
      type: "result",
      subtype: "error_during_execution",
      is_error: true,
      error: { message: "Missing API key for OpenAI-compatible auth." },
    });
    expect(parseQwenOutput(noKey)).toMatchObject({ failed: true, unusable: true });
  });

  test("output without a result event is a parse error quoting it", () => {
    expect(parseQwenOutput("Usage: qwen [options]").parseError).toMatch(/no result event.*Usage: qwen/);
  });
});
