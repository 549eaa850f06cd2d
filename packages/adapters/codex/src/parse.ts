import type { ParsedCliOutput, ParsedOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError, unwrapErrorMessage } from "@debatekit/adapter-kit";

/**
 * What `codex exec --json` reported. `failed`: the run reported `turn.failed` or an `error`
 * event and no completed turn.
 */
export type ParsedCodexOutput = ParsedCliOutput;

interface CodexEvent {
  type?: string;
  thread_id?: string;
  message?: string;
  item?: { type?: string; text?: string; message?: string };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
}

/**
 * Reads the JSONL of `codex exec --json`: `thread.started` (the session id), `item.completed`
 * agent messages (the last one is the answer; `error` items are warnings), `turn.completed`
 * (usage), and the failures `turn.failed` / `error`.
 */
export function parseCodexOutput(stdout: string, _stderr = ""): ParsedCodexOutput {
  const events = readJsonLines<CodexEvent>(stdout);
  if (events.length === 0) {
    return {
      parseError: `codex printed no JSONL events (expected {"type":"thread.started",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  }
  let sessionId: string | undefined;
  let text: string | undefined;
  let usage: ParsedOutput["usage"];
  let completed = false;
  let failure: string | undefined;
  for (const event of events) {
    if (event.type === "thread.started" && event.thread_id) sessionId = event.thread_id;
    else if (event.type === "item.completed" && event.item?.type === "agent_message")
      text = event.item.text ?? "";
    else if (event.type === "turn.completed") {
      completed = true;
      usage = { inputTokens: event.usage?.input_tokens ?? 0, outputTokens: event.usage?.output_tokens ?? 0 };
    } else if (event.type === "turn.failed") failure = event.error?.message ?? "turn failed";
    else if (event.type === "error" && !failure) failure = event.message ?? "error";
  }
  const meta = { ...(sessionId ? { sessionId } : {}), ...(usage ? { usage } : {}) };
  if (failure && !completed) {
    return {
      ...meta,
      failed: true,
      parseError: `codex reported: ${sanitizeError(unwrapErrorMessage(failure), [], 160)}`,
    };
  }
  return { ...meta, text: text ?? "" };
}
