import { describe, expect, it } from "vitest";
import { envelopeFromProcess } from "./envelope.js";
import type { ProcessOutcome } from "./process.js";

const done = (stdout: string): ProcessOutcome => ({
  stdout,
  stderr: "",
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  truncated: false,
  durationMs: 5,
});

describe("envelopeFromProcess and the tools a model asked for", () => {
  it("an answer after a refused tool is ok, and the tool stays on record", () => {
    const call = envelopeFromProcess(
      done(""),
      { text: "my answer", toolCalls: ["Bash"] },
      { timeoutMs: 1000, program: "claude" },
    );
    expect(call).toMatchObject({ status: "ok", text: "my answer", toolCalls: ["Bash"] });
  });

  it("no answer but a tool is a failure that names the tool, never a silent empty answer", () => {
    const call = envelopeFromProcess(
      done(""),
      { text: "", toolCalls: ["Bash", "WebFetch"] },
      { timeoutMs: 1000, program: "claude" },
    );
    expect(call).toMatchObject({ status: "exit", text: "", toolCalls: ["Bash", "WebFetch"] });
    expect(call.error).toBe(
      "claude: the model asked only for tools (Bash, WebFetch), which seats may not use",
    );
  });

  it("no answer and no tool stays empty", () => {
    expect(envelopeFromProcess(done(""), { text: "" }, { timeoutMs: 1000, program: "claude" })).toMatchObject(
      {
        status: "empty",
        error: "claude answered nothing",
      },
    );
  });
});
