import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/**
 * What `qwen -p -o stream-json` reported. `failed`: the result event reports an error
 * (`is_error`); `unusable`: no API key or login.
 */
export type ParsedQwenOutput = ParsedCliOutput;

interface QwenEvent {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  session_id?: string;
  /** Assistant events: the model's content blocks, tool uses among them. */
  message?: { model?: string; content?: Array<{ type?: string; name?: string }> };
  permission_denials?: Array<{ tool_name?: string }>;
  usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number };
  error?: { message?: string };
}

/**
 * The tools the model asked for, in order, each once: the `tool_use` blocks of the assistant
 * events (a tool the seat does not have is answered with an error and listed nowhere else) and
 * the result's `permission_denials`.
 */
export function qwenToolCalls(events: readonly QwenEvent[]): string[] {
  const names = new Set<string>();
  for (const event of events) {
    if (event.type === "assistant")
      for (const block of event.message?.content ?? [])
        if (block.type === "tool_use" && block.name) names.add(block.name);
    if (event.type === "result")
      for (const denial of event.permission_denials ?? []) if (denial.tool_name) names.add(denial.tool_name);
  }
  return [...names];
}

/**
 * Reads the events of `qwen -p -o stream-json`: the answer, session and usage from the last
 * `result` event, the model from the last assistant event, the tools asked for from all of them.
 */
export function parseQwenOutput(stdout: string, _stderr = ""): ParsedQwenOutput {
  const events = readJsonLines<QwenEvent>(stdout);
  const result = events.findLast((event) => event.type === "result");
  if (!result)
    return {
      parseError: `qwen printed no result event (expected {"type":"result",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  const toolCalls = qwenToolCalls(events);
  const model = events.findLast((event) => event.type === "assistant")?.message?.model;
  const usage = result.usage
    ? {
        inputTokens: result.usage.input_tokens ?? 0,
        cachedInputTokens: result.usage.cache_read_input_tokens ?? 0,
        outputTokens: result.usage.output_tokens ?? 0,
      }
    : undefined;
  const meta: ParsedQwenOutput = {
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
  if (result.is_error || (result.subtype !== undefined && result.subtype !== "success")) {
    const message = result.error?.message ?? result.result ?? "";
    return {
      ...meta,
      failed: true,
      ...(/missing api key|not authenticated|no auth/i.test(message) ? { unusable: true } : {}),
      parseError: `qwen reported an error (${result.subtype ?? "is_error"}): ${sanitizeError(message, [], 160)}`,
    };
  }
  const text = result.result ?? "";
  if (text.trim() === "" && toolCalls.length > 0)
    return {
      ...meta,
      failed: true,
      parseError: `the model asked for tools (${toolCalls.join(", ")}) and gave no answer`,
    };
  return { ...meta, text };
}
