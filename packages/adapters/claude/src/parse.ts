import type { ParsedOutput } from "@debatekit/adapter-kit";

/** What `claude -p --output-format json` reported, plus whether Claude itself said it failed. */
export interface ParsedClaudeOutput extends ParsedOutput {
  /** True when the result object reports an error (`is_error`, or a terminal_reason other than completed). */
  failed?: boolean;
  /** True when the CLI says it has no login or key (status `unavailable`). */
  unusable?: boolean;
}

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

function cut(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The last line of `stdout` that parses as a JSON object with `type: "result"`. */
function findResult(stdout: string): ClaudeResult | undefined {
  const lines = stdout.split("\n").filter((l) => l.trim().startsWith("{"));
  for (const line of lines.reverse()) {
    try {
      const value = JSON.parse(line) as ClaudeResult;
      if (value && typeof value === "object" && value.type === "result") return value;
    } catch {
      // Not JSON: keep looking (a warning line printed before the result).
    }
  }
  return undefined;
}

/**
 * Reads the single result object of `claude -p --output-format json`. `subtype` stays "success"
 * even for API errors, so failure is decided on `is_error` and `terminal_reason`.
 */
export function parseClaudeOutput(stdout: string, _stderr = ""): ParsedClaudeOutput {
  const result = findResult(stdout);
  if (!result) {
    return {
      parseError: `claude printed no JSON result object (expected {"type":"result",...}); got: ${cut(stdout) || "nothing"}`,
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
      parseError: `claude reported ${status}${why ? ` (${why})` : ""}: ${cut(result.result ?? "", 140)}`,
    };
  }
  return { ...meta, text: result.result ?? "" };
}
