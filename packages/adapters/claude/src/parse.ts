import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/**
 * What `claude -p --output-format json` reported. `failed`: the result object reports an error
 * (`is_error`, or a terminal_reason other than completed); `unusable`: no login or key.
 */
export type ParsedClaudeOutput = ParsedCliOutput;

interface ClaudeResult {
  type?: string;
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
  api_error_status?: number | null;
}

/** The last JSON line of `stdout` with `type: "result"` (warnings may be printed before it). */
function findResult(stdout: string): ClaudeResult | undefined {
  return readJsonLines<ClaudeResult>(stdout).findLast((value) => value.type === "result");
}

/**
 * Reads the single result object of `claude -p --output-format json`. `subtype` stays "success"
 * even for API errors, so failure is decided on `is_error` and `terminal_reason`.
 */
export function parseClaudeOutput(stdout: string, _stderr = ""): ParsedClaudeOutput {
  const result = findResult(stdout);
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
        outputTokens: result.usage.output_tokens ?? 0,
        ...(typeof result.total_cost_usd === "number" ? { costUsd: result.total_cost_usd } : {}),
      }
    : undefined;
  const model = Object.keys(result.modelUsage ?? {})[0];
  const meta: ParsedClaudeOutput = {
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
  };
  const reason = result.terminal_reason;
  const failedBySubtype = result.subtype !== undefined && result.subtype !== "success";
  if (result.is_error || failedBySubtype || (reason !== undefined && reason !== "completed")) {
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
      parseError: `claude reported ${status}${why ? ` (${why})` : ""}: ${sanitizeError(result.result ?? "", [], 140)}`,
    };
  }
  return { ...meta, text: result.result ?? "" };
}
