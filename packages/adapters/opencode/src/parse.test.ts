import { describe, expect, test } from "vitest";
import { buildOpencodeArgs } from "./args.js";
import { parseOpencodeOutput } from "./parse.js";

const ndjson = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");

describe("parseOpencodeOutput", () => {
  test("text parts join in order and step_finish usage sums over steps", () => {
    const out = ndjson(
      { type: "step_start", sessionID: "ses_1" },
      { type: "text", sessionID: "ses_1", part: { text: "a" } },
      { type: "step_finish", sessionID: "ses_1", part: { tokens: { input: 3, output: 1 }, cost: 0.25 } },
      { type: "text", sessionID: "ses_1", part: { text: "b" } },
      {
        type: "step_finish",
        sessionID: "ses_1",
        part: { tokens: { input: 4, output: 2, cache: { read: 8, write: 1 } }, cost: 0.5 },
      },
    );
    expect(parseOpencodeOutput(out)).toEqual({
      text: "a\nb",
      sessionId: "ses_1",
      // opencode's `input` leaves out cache reads and writes: they are input too.
      usage: { inputTokens: 16, cachedInputTokens: 8, outputTokens: 3, costUsd: 0.75 },
    });
  });

  test("a missing step_finish leaves usage out, the text still counts", () => {
    expect(parseOpencodeOutput(ndjson({ type: "text", sessionID: "s", part: { text: "x" } }))).toEqual({
      text: "x",
      sessionId: "s",
    });
  });

  test("an error event fails with name, status code and message; usage text alone is a parse error", () => {
    const out = ndjson({
      type: "error",
      sessionID: "s",
      error: { name: "APIError", data: { message: "overloaded", statusCode: 529 } },
    });
    expect(parseOpencodeOutput(out)).toEqual({
      sessionId: "s",
      failed: true,
      parseError: "opencode reported APIError 529: overloaded",
    });
    expect(
      parseOpencodeOutput("opencode run [message..]\n\nrun opencode with a message\n").parseError,
    ).toContain("no JSON events");
  });
});

describe("parseOpencodeOutput: tools the model asked for", () => {
  // Shapes recorded from opencode 1.18.33 with every tool off: a tool the seat lacks comes back
  // as opencode's `invalid` tool naming the one asked for.
  const invalid = (tool: string) => ({
    type: "tool_use",
    sessionID: "ses_1",
    part: {
      type: "tool",
      tool: "invalid",
      state: {
        status: "completed",
        input: { tool, error: `Model tried to call unavailable tool '${tool}'. Available tools: invalid.` },
      },
    },
  });
  const text = (t: string) => ({ type: "text", sessionID: "ses_1", part: { text: t } });

  test("an answer after refused tools is the answer, with the tools named once each", () => {
    const out = ndjson(invalid("bash"), invalid("write"), invalid("bash"), text("my answer"));
    expect(parseOpencodeOutput(out)).toEqual({
      sessionId: "ses_1",
      text: "my answer",
      toolCalls: ["bash", "write"],
    });
  });

  test("no answer after a refused tool fails saying so, not an empty answer", () => {
    expect(parseOpencodeOutput(ndjson(invalid("webfetch")))).toEqual({
      sessionId: "ses_1",
      toolCalls: ["webfetch"],
      failed: true,
      parseError: "the model asked for tools the seat refused (webfetch) and gave no answer",
    });
  });

  test("a permitted read (tools: read) is named too", () => {
    const read = {
      type: "tool_use",
      sessionID: "ses_1",
      part: { type: "tool", tool: "read", state: { status: "completed", input: { filePath: "/w/a.md" } } },
    };
    expect(parseOpencodeOutput(ndjson(read, text("cited")))).toEqual({
      sessionId: "ses_1",
      text: "cited",
      toolCalls: ["read"],
    });
  });
});

describe("buildOpencodeArgs", () => {
  test("JSON events, a fixed title, provider/model, session and variant; no message argument", () => {
    expect(
      buildOpencodeArgs({
        model: "anthropic/claude-sonnet-4-5",
        sessionId: "ses_1",
        extra: ["--variant", "high"],
      }),
    ).toEqual([
      "run",
      "--format",
      "json",
      "--title",
      "debatekit seat",
      "-m",
      "anthropic/claude-sonnet-4-5",
      "--session",
      "ses_1",
      "--variant",
      "high",
    ]);
  });
});
