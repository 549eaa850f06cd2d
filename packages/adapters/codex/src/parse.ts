import type { ParsedOutput } from "@debatekit/adapter-kit";

/** What `codex exec --json` reported, plus whether the turn failed. */
export interface ParsedCodexOutput extends ParsedOutput {
  /** True when the run reported `turn.failed` or an `error` event and no completed turn. */
  failed?: boolean;
  /** True when the CLI says it has no login or key (status `unavailable`). */
  unusable?: boolean;
}

interface CodexEvent {
  type?: string;
  thread_id?: string;
  message?: string;
  item?: { type?: string; text?: string; message?: string };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
}

function cut(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** An API error body inside a message (`{"error":{"message":...}}`) becomes its message. */
function unwrapMessage(message: string): string {
  try {
    const inner = JSON.parse(message) as { error?: { message?: string } };
    if (inner?.error?.message) return inner.error.message;
  } catch {
    // Plain text already.
  }
  return message;
}

/**
 * Reads the JSONL of `codex exec --json`: `thread.started` (the session id), `item.completed`
 * agent messages (the last one is the answer; `error` items are warnings), `turn.completed`
 * (usage), and the failures `turn.failed` / `error`.
 */
export function parseCodexOutput(stdout: string, _stderr = ""): ParsedCodexOutput {
  const events: CodexEvent[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      events.push(JSON.parse(line) as CodexEvent);
    } catch {
      // A partial line (killed mid-write) or a log line: not an event.
    }
  }
  if (events.length === 0) {
    return {
      parseError: `codex printed no JSONL events (expected {"type":"thread.started",...}); got: ${cut(stdout) || "nothing"}`,
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
    return { ...meta, failed: true, parseError: `codex reported: ${cut(unwrapMessage(failure), 160)}` };
  }
  return { ...meta, text: text ?? "" };
}
