import { describe, expect, test } from "vitest";
import { parseKiloOutput } from "./parse.js";

// Events as kilo 7.7.7 prints them with `run --format json` (cut to the fields read).
const line = (event: object) => JSON.stringify(event);
const session = "ses_de3974113ffefxSafdZDzgOYgA";
const finish = line({
  type: "step_finish",
  sessionID: session,
  part: { reason: "stop", cost: 0.000141, tokens: { input: 12, output: 7, cache: { read: 0, write: 0 } } },
});

describe("parseKiloOutput", () => {
  test("reads the answer, session and usage of a successful run", () => {
    const stdout = [
      line({ type: "step_start", sessionID: session }),
      line({ type: "text", sessionID: session, part: { text: "hello from kilo" } }),
      finish,
    ].join("\n");
    expect(parseKiloOutput(stdout)).toEqual({
      text: "hello from kilo",
      sessionId: session,
      usage: { inputTokens: 12, cachedInputTokens: 0, outputTokens: 7, costUsd: 0.000141 },
    });
  });

  test("a tool the seat does not have is named; asking only for it fails saying so", () => {
    const refused = line({
      type: "tool_use",
      sessionID: session,
      part: {
        tool: "bash",
        state: { status: "error", error: "Model tried to call unavailable tool 'bash'. Available tools: ." },
      },
    });
    expect(parseKiloOutput([refused, finish].join("\n"))).toMatchObject({
      failed: true,
      toolCalls: ["bash"],
      parseError: "the model asked for tools (bash) and gave no answer",
    });
  });

  test("an empty answer that kilo fails itself (a plain-string error) is a failure naming it", () => {
    const stdout = [
      line({ type: "text", sessionID: session, part: { text: "" } }),
      finish,
      line({
        type: "error",
        sessionID: session,
        error: "run ended without an assistant message; the model returned no output",
      }),
    ].join("\n");
    expect(parseKiloOutput(stdout)).toMatchObject({
      failed: true,
      parseError: "kilo reported run ended without an assistant message; the model returned no output",
    });
  });

  test("errors and output without events name kilo", () => {
    const error = line({
      type: "error",
      error: { name: "APIError", data: { message: "nope", statusCode: 401 } },
    });
    expect(parseKiloOutput(error).parseError).toBe("kilo reported APIError 401: nope");
    expect(parseKiloOutput("Usage: kilo run").parseError).toMatch(
      /^kilo printed no JSON events.*Usage: kilo/,
    );
  });
});
