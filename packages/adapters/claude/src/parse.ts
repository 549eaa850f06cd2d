import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/**
 * What `claude -p --output-format json` reported. `failed`: the result object reports an error
 * (`is_error`, or a terminal_reason other than completed); `unusable`: no login or key.
 */
export type ParsedClaudeOutput = ParsedCliOutput;

interface ClaudeResult {
  type?: string;
  /** Assistant events of `stream-json`: the model's content blocks, tool uses among them. */
  message?: { content?: Array<{ type?: string; name?: string }> };
  permission_denials?: Array<{ tool_name?: string }>;
  errors?: string[];
  subtype?: string;
  is_error?: boolean;
  result?: string;
  session_id?: string;
  total_cost_usd?: number;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
  };
  modelUsage?: Record<string, unknown>;
  terminal_reason?: string;
  num_turns?: number;
  api_error_status?: number | null;
}

/**
 * The tools the model asked for, in order, each once: the `tool_use` blocks of the assistant
 * events (a tool that does not exist for the seat is answered "No such tool available" and
 * listed nowhere else) and the result's `permission_denials` (a read outside the workspace).
 */
export function claudeToolCalls(events: readonly ClaudeResult[]): string[] {
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
 * Reads the result object of `claude -p --output-format stream-json` (the last line; `json`
 * prints it alone) and the tools the model asked for. `subtype` stays "success" even for API
 * errors, so failure is decided on `is_error` and `terminal_reason`.
 */
export function parseClaudeOutput(stdout: string, _stderr = ""): ParsedClaudeOutput {
  const events = readJsonLines<ClaudeResult>(stdout);
  // The last line with `type: "result"` (warnings may be printed before it).
  const result = events.findLast((value) => value.type === "result");
  const toolCalls = claudeToolCalls(events);
  if (!result) {
    return {
      parseError: `claude printed no JSON result object (expected {"type":"result",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  }
  const usage = result.usage
    ? {
        inputTokens:
          (result.usage.input_tokens ?? 0) +
          (result.usage.cache_creation_input_tokens ?? 0) +
          (result.usage.cache_read_input_tokens ?? 0),
        // Anthropic counts cache reads apart from input_tokens; they are input all the same.
        cachedInputTokens: result.usage.cache_read_input_tokens ?? 0,
        outputTokens: result.usage.output_tokens ?? 0,
        ...(typeof result.total_cost_usd === "number" ? { costUsd: result.total_cost_usd } : {}),
      }
    : undefined;
  const model = Object.keys(result.modelUsage ?? {})[0];
  const meta: ParsedClaudeOutput = {
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
  };
  const reason = result.terminal_reason;
  const failedBySubtype = result.subtype !== undefined && result.subtype !== "success";
  if (result.is_error || failedBySubtype || (reason !== undefined && reason !== "completed")) {
    if (reason === "max_turns" && toolCalls.length > 0) {
      // The model kept asking for tools the seat does not have (or may not use) until its turns ran out.
      return {
        ...meta,
        failed: true,
        parseError: `claude stopped after ${result.num_turns ?? "its"} turns: ${toolsOnly(toolCalls)}`,
      };
    }
    const status = result.api_error_status ? `API error ${result.api_error_status}` : "error";
    const why = [result.subtype !== "success" ? result.subtype : undefined, reason]
      .filter(Boolean)
      .join(", ");
    return {
      ...meta,
      failed: true,
      ...(/not logged in|please run \/login|invalid api key/i.test(result.result ?? "") &&
      !result.api_error_status
        ? { unusable: true }
        : {}),
      parseError: `claude reported ${status}${why ? ` (${why})` : ""}: ${sanitizeError(result.result ?? result.errors?.join("; ") ?? "", [], 140)}`,
    };
  }
  const text = result.result ?? "";
  if (text.trim() === "" && toolCalls.length > 0)
    return { ...meta, failed: true, parseError: toolsOnly(toolCalls) };
  return { ...meta, text };
}

/** The error of a call whose only move was to ask for tools: said, never an empty success. */
function toolsOnly(toolCalls: readonly string[]): string {
  return `the model asked for tools (${toolCalls.join(", ")}) and gave no answer`;
}
