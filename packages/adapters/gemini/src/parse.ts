import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { sanitizeError, unwrapErrorMessage } from "@debatekit/adapter-kit";

/**
 * What `gemini -o json` reported. `failed`: gemini printed its error object
 * (`{session_id, error:{type, message, code}}`); `unusable`: error code 41, no auth configured.
 */
export type ParsedGeminiOutput = ParsedCliOutput;

interface GeminiJson {
  session_id?: string;
  response?: string;
  stats?: {
    models?: Record<
      string,
      { tokens?: { input?: number; prompt?: number; candidates?: number; cached?: number } }
    >;
    /** Every tool call of the session by name, refused ones included (`fail`). */
    tools?: { byName?: Record<string, unknown> };
  };
  error?: { type?: string; message?: string; code?: number | string };
}

/** " <code>" or " <type>" (gemini sends `INVALID_STREAM` with no code), or nothing. */
function errorLabel(error: { type?: string; code?: number | string }): string {
  const label = error.code ?? error.type;
  return label !== undefined && label !== "" ? ` ${label}` : "";
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

/**
 * Reads gemini's JSON output: success `{session_id, response, stats}` on stdout (the tools the
 * model asked for, refused ones included, are the keys of `stats.tools.byName`), failure
 * `{session_id, error:{type, message, code}}` on stderr.
 */
export function parseGeminiOutput(stdout: string, stderr = ""): ParsedGeminiOutput {
  const failure = lastJsonObject(stderr);
  if (failure?.error) {
    const code = errorLabel(failure.error);
    return {
      ...(failure.session_id ? { sessionId: failure.session_id } : {}),
      failed: true,
      // Exit/code 41: no auth method configured (no login, no GEMINI_API_KEY).
      ...(String(failure.error.code) === "41" ? { unusable: true } : {}),
      parseError: `gemini reported error${code}: ${sanitizeError(unwrapErrorMessage(failure.error.message ?? ""), [], 160)}`,
    };
  }
  const result = lastJsonObject(stdout);
  if (!result) {
    return {
      parseError: `gemini printed no JSON result (expected {"session_id","response",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  }
  if (result.error) {
    return {
      failed: true,
      parseError: `gemini reported error${errorLabel(result.error)}: ${sanitizeError(unwrapErrorMessage(result.error.message ?? ""), [], 160)}`,
    };
  }
  const models = Object.entries(result.stats?.models ?? {});
  const usage =
    models.length > 0
      ? {
          // `prompt` is every input token; `input` (newer CLIs) is `prompt` less the `cached` ones.
          inputTokens: models.reduce(
            (n, [, m]) => n + (m.tokens?.prompt ?? (m.tokens?.input ?? 0) + (m.tokens?.cached ?? 0)),
            0,
          ),
          cachedInputTokens: models.reduce((n, [, m]) => n + (m.tokens?.cached ?? 0), 0),
          outputTokens: models.reduce((n, [, m]) => n + (m.tokens?.candidates ?? 0), 0),
        }
      : undefined;
  const toolCalls = Object.keys(result.stats?.tools?.byName ?? {});
  if ((result.response ?? "").trim() === "" && toolCalls.length > 0)
    return {
      ...(result.session_id ? { sessionId: result.session_id } : {}),
      toolCalls,
      failed: true,
      parseError: `the model asked for tools (${toolCalls.join(", ")}) and gave no answer`,
    };
  return {
    text: result.response ?? "",
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(result.session_id ? { sessionId: result.session_id } : {}),
    ...(models[0] ? { model: models[0][0] } : {}),
    ...(usage ? { usage } : {}),
  };
}
