import { describe, expect, test } from "vitest";
import { buildCopilotArgs } from "./args.js";
import { parseCopilotOutput } from "./parse.js";

const jsonl = (...events: unknown[]) => events.map((e) => JSON.stringify(e)).join("\n");

describe("parseCopilotOutput", () => {
  test("the last non-empty assistant.message is the answer; deltas are ignored", () => {
    const out = jsonl(
      { type: "assistant.message_delta", data: { deltaContent: "par" } },
      { type: "assistant.message", data: { content: "first", model: "gpt-5.5" } },
      { type: "assistant.message", data: { content: "", model: "gpt-5.5" } },
      { type: "assistant.message", data: { content: "final", model: "gpt-5.5" } },
      { type: "result", sessionId: "s-1", exitCode: 0 },
    );
    expect(parseCopilotOutput(out)).toEqual({ text: "final", sessionId: "s-1", model: "gpt-5.5" });
  });

  test("session.error fails with its type, status and message", () => {
    const out = jsonl(
      { type: "session.error", data: { errorType: "rate_limit", statusCode: 429, message: "slow down" } },
      { type: "result", sessionId: "s", exitCode: 1 },
    );
    expect(parseCopilotOutput(out)).toEqual({
      sessionId: "s",
      failed: true,
      parseError: "copilot reported rate_limit 429: slow down",
    });
  });

  test("a non-zero result.exitCode without a message fails; no JSON (not logged in) is a parse error", () => {
    expect(parseCopilotOutput(jsonl({ type: "result", sessionId: "s", exitCode: 2 })).parseError).toBe(
      "copilot reported exit code 2",
    );
    expect(parseCopilotOutput("").parseError).toContain("no JSON events");
  });
});

test("the not-logged-in text on stderr is an unusable failure quoting copilot's own line", () => {
  const stderr =
    "Error: No authentication information found.\n\nTo authenticate, you can use any of the following methods:\n";
  expect(parseCopilotOutput("", stderr)).toEqual({
    failed: true,
    unusable: true,
    parseError:
      "copilot: No authentication information found. (log in with `copilot` then /login, or set GH_TOKEN)",
  });
});

describe("buildCopilotArgs", () => {
  test("JSONL output, non-interactive tools, model and resume; no -p (the prompt is piped)", () => {
    const args = buildCopilotArgs({ model: "gpt-5.5", sessionId: "s-1" });
    expect(args).toEqual([
      "--output-format",
      "json",
      "--allow-all-tools",
      "--no-color",
      "--model",
      "gpt-5.5",
      "--resume",
      "s-1",
    ]);
    expect(args).not.toContain("-p");
  });
});
