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
  item?: { type?: string; text?: string; message?: string; tool?: string; server?: string };
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
}

/** JSONL items that record a tool the model used (codex runs them itself). */
const toolItems: Record<string, string> = {
  command_execution: "exec_command",
  file_change: "apply_patch",
  web_search: "web_search",
  mcp_tool_call: "mcp",
};

/**
 * The tools the model asked for, in order, each once: codex logs a call it refuses on stderr
 * (`unsupported call: exec_command` for a tool that is off, `tool apply_patch invoked with
 * incompatible payload`, `request_user_input is unavailable`), and reports the tools it ran as
 * JSONL items (`command_execution`, `file_change`, `mcp_tool_call`, `web_search`).
 */
export function codexToolCalls(events: readonly CodexEvent[], stderr: string): string[] {
  const names = new Set<string>();
  for (const event of events) {
    const type = event.item?.type;
    if (event.type !== "item.completed" && event.type !== "item.started") continue;
    if (type === "mcp_tool_call" && event.item?.tool)
      names.add(`mcp__${event.item.server ?? "?"}__${event.item.tool}`);
    else if (type && toolItems[type]) names.add(toolItems[type]);
  }
  const refused =
    /(?:unsupported call: ([\w.:-]+))|(?:tool ([\w.:-]+) invoked with)|(?:error=([\w.:-]+) is unavailable)/g;
  for (const match of stderr.matchAll(refused)) {
    const name = match[1] ?? match[2] ?? match[3];
    if (name) names.add(name);
  }
  return [...names];
}

/**
 * Reads the JSONL of `codex exec --json`: `thread.started` (the session id), `item.completed`
 * agent messages (the last one is the answer; `error` items are warnings), `turn.completed`
 * (usage), and the failures `turn.failed` / `error`.
 */
export function parseCodexOutput(stdout: string, stderr = ""): ParsedCodexOutput {
  const events = readJsonLines<CodexEvent>(stdout);
  const toolCalls = codexToolCalls(events, stderr);
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
      // OpenAI's input_tokens already include the cached ones.
      usage = {
        inputTokens: event.usage?.input_tokens ?? 0,
        cachedInputTokens: event.usage?.cached_input_tokens ?? 0,
        outputTokens: event.usage?.output_tokens ?? 0,
      };
    } else if (event.type === "turn.failed") failure = event.error?.message ?? "turn failed";
    else if (event.type === "error" && !failure) failure = event.message ?? "error";
  }
  const meta = {
    ...(sessionId ? { sessionId } : {}),
    ...(usage ? { usage } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
  if (failure && !completed) {
    return {
      ...meta,
      failed: true,
      parseError: `codex reported: ${sanitizeError(unwrapErrorMessage(failure), [], 160)}`,
    };
  }
  if ((text ?? "").trim() === "" && toolCalls.length > 0)
    return {
      ...meta,
      failed: true,
      parseError: `the model asked for tools (${toolCalls.join(", ")}) and gave no answer`,
    };
  return { ...meta, text: text ?? "" };
}
