import { describe, expect, test } from "vitest";
import { buildGeminiArgs, geminiHeadlessInstruction } from "./args.js";
import { parseGeminiOutput } from "./parse.js";

describe("parseGeminiOutput", () => {
  test("reads the pretty-printed success object: response, session, model, tokens summed over models", () => {
    const out = JSON.stringify(
      {
        session_id: "s-1",
        response: "yes",
        stats: {
          models: {
            // `input` (newer CLIs) leaves out the cached tokens; `prompt` counts them.
            "gemini-2.5-pro": { tokens: { input: 10, cached: 6, candidates: 3 } },
            "gemini-2.5-flash": { tokens: { prompt: 4, cached: 2, candidates: 1 } },
          },
        },
      },
      null,
      2,
    );
    expect(parseGeminiOutput(out, "Warning: 256-color support not detected.\n")).toEqual({
      text: "yes",
      sessionId: "s-1",
      model: "gemini-2.5-pro",
      usage: { inputTokens: 20, cachedInputTokens: 8, outputTokens: 4 },
    });
  });

  test("the error object on stderr after a stack trace wins, its inner API message unwrapped", () => {
    const err = `Error when talking to Gemini API\n    at x (file.js:1:1) {\n  status: 429\n}\n${JSON.stringify(
      {
        session_id: "s",
        error: { type: "Error", message: '{"error":{"code":429,"message":"quota"}}', code: 429 },
      },
      null,
      2,
    )}\n`;
    expect(parseGeminiOutput("", err)).toEqual({
      sessionId: "s",
      failed: true,
      parseError: "gemini reported error 429: quota",
    });
  });

  test("an error with a type and no code is named by its type", () => {
    const out = JSON.stringify({
      session_id: "s",
      error: { type: "INVALID_STREAM", message: "empty response" },
    });
    expect(parseGeminiOutput(out, "").parseError).toBe(
      "gemini reported error INVALID_STREAM: empty response",
    );
  });

  test("an auth setup failure (exit 41) without JSON is a parse error quoting stdout", () => {
    expect(parseGeminiOutput("", "Please set an Auth method in your settings.json\n").parseError).toContain(
      "got: nothing",
    );
  });
});

test("the tools the model asked for are the names in stats.tools.byName (refused ones too)", () => {
  const out = JSON.stringify({
    session_id: "s",
    response: "done",
    stats: {
      models: {},
      tools: {
        totalCalls: 1,
        totalFail: 1,
        byName: { run_shell_command: { count: 1, success: 0, fail: 1 } },
      },
    },
  });
  expect(parseGeminiOutput(out)).toEqual({ text: "done", sessionId: "s", toolCalls: ["run_shell_command"] });
});

test("a refused tool and then no text is a failure naming the tool, never an empty success", () => {
  const out = JSON.stringify({
    session_id: "s",
    response: "",
    stats: { tools: { byName: { write_file: {} } } },
  });
  expect(parseGeminiOutput(out)).toEqual({
    sessionId: "s",
    toolCalls: ["write_file"],
    failed: true,
    parseError: "the model asked for tools (write_file) and gave no answer",
  });
});

describe("buildGeminiArgs", () => {
  test("a fixed -p instruction (the prompt goes to stdin), JSON output, model, resume (trust is the launch plan's)", () => {
    expect(buildGeminiArgs({ model: "gemini-2.5-pro", sessionId: "s-1" })).toEqual([
      "-p",
      geminiHeadlessInstruction,
      "-o",
      "json",
      "-m",
      "gemini-2.5-pro",
      "--resume",
      "s-1",
    ]);
  });
});
