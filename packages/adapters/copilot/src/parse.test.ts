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

describe("parseCopilotOutput: tools the model asked for", () => {
  // Shapes recorded from copilot 1.0.102 with --available-tools none (the tool does not exist).
  const asked = {
    type: "assistant.message",
    data: { content: "", toolRequests: [{ name: "bash" }, { name: "web_fetch" }] },
  };
  const refused = {
    type: "tool.execution_complete",
    data: { success: false, error: { message: "Tool 'bash' does not exist.", code: "failure" } },
  };

  test("an answer after refused tools is the answer, with the tools named", () => {
    const out = jsonl(
      asked,
      { type: "tool.execution_start", data: { toolName: "bash" } },
      refused,
      { type: "assistant.message", data: { content: "my answer", model: "gpt-5.5" } },
      { type: "result", sessionId: "s", exitCode: 0 },
    );
    expect(parseCopilotOutput(out)).toEqual({
      text: "my answer",
      sessionId: "s",
      model: "gpt-5.5",
      toolCalls: ["bash", "web_fetch"],
    });
  });

  test("no answer after a refused tool fails saying so (not copilot's 'No response was returned')", () => {
    const out = jsonl(
      asked,
      refused,
      { type: "session.error", data: { errorType: "query", message: "No response was returned" } },
      { type: "result", sessionId: "s", exitCode: 1 },
    );
    expect(parseCopilotOutput(out)).toEqual({
      sessionId: "s",
      toolCalls: ["bash", "web_fetch"],
      failed: true,
      parseError: "the model asked for tools the seat refused (bash, web_fetch) and gave no answer",
    });
  });
});

describe("buildCopilotArgs", () => {
  test("JSONL output, model and resume; no -p (the prompt is piped), no --allow-all-tools", () => {
    const args = buildCopilotArgs({ model: "gpt-5.5", sessionId: "s-1" });
    expect(args).toEqual(["--output-format", "json", "--no-color", "--model", "gpt-5.5", "--resume", "s-1"]);
    expect(args).not.toContain("-p");
  });
});
