import type { ParsedOutput } from "@debatekit/adapter-kit";

/** What `gemini -o json` reported, plus whether it reported an error. */
export interface ParsedGeminiOutput extends ParsedOutput {
  /** True when gemini printed its error object (`{session_id, error:{type, message, code}}`). */
  failed?: boolean;
  /** True when the CLI says it has no login or key (status `unavailable`). */
  unusable?: boolean;
}

interface GeminiJson {
  session_id?: string;
  response?: string;
  stats?: { models?: Record<string, { tokens?: { input?: number; prompt?: number; candidates?: number } }> };
  error?: { type?: string; message?: string; code?: number | string };
}

function cut(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The last top-level JSON object in `text`. Gemini pretty-prints it, and on stderr it follows
 * warnings and a stack trace, so it is found from the last line that is exactly "{".
 */
function lastJsonObject(text: string): GeminiJson | undefined {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]?.trim() !== "{" && !lines[i]?.startsWith("{")) continue;
    try {
      const value = JSON.parse(lines.slice(i).join("\n")) as GeminiJson;
      if (value && typeof value === "object") return value;
    } catch {
      // Not the start of the object: keep going up.
    }
  }
  return undefined;
}

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
 * Reads gemini's JSON output: success `{session_id, response, stats}` on stdout, failure
 * `{session_id, error:{type, message, code}}` on stderr.
 */
export function parseGeminiOutput(stdout: string, stderr = ""): ParsedGeminiOutput {
  const failure = lastJsonObject(stderr);
  if (failure?.error) {
    const code = failure.error.code !== undefined ? ` ${failure.error.code}` : "";
    return {
      ...(failure.session_id ? { sessionId: failure.session_id } : {}),
      failed: true,
      // Exit/code 41: no auth method configured (no login, no GEMINI_API_KEY).
      ...(String(failure.error.code) === "41" ? { unusable: true } : {}),
      parseError: `gemini reported error${code}: ${cut(unwrapMessage(failure.error.message ?? ""), 160)}`,
    };
  }
  const result = lastJsonObject(stdout);
  if (!result) {
    return {
      parseError: `gemini printed no JSON result (expected {"session_id","response",...}); got: ${cut(stdout) || "nothing"}`,
    };
  }
  if (result.error) {
    return {
      failed: true,
      parseError: `gemini reported error ${result.error.code ?? ""}: ${cut(unwrapMessage(result.error.message ?? ""), 160)}`,
    };
  }
  const models = Object.entries(result.stats?.models ?? {});
  const usage =
    models.length > 0
      ? {
          inputTokens: models.reduce((n, [, m]) => n + (m.tokens?.input ?? m.tokens?.prompt ?? 0), 0),
          outputTokens: models.reduce((n, [, m]) => n + (m.tokens?.candidates ?? 0), 0),
        }
      : undefined;
  return {
    text: result.response ?? "",
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(models[0] ? { model: models[0][0] } : {}),
    ...(usage ? { usage } : {}),
  };
}
