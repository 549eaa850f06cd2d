import { sanitizeError } from "@debatekit/adapter-kit";
import type { AdapterResult, Usage } from "@debatekit/schema";

/** What was read from a chat-completions response body. */
export interface ParsedCompletion {
  text: string;
  model?: string;
  usage?: Usage;
  finishReason?: string;
  /** Set when the body is not a chat completion (not JSON, no `choices`, an `error` object...). */
  parseError?: string;
  /** True when the body is a completion without any choice (`choices: []`). */
  noChoices?: boolean;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line of a body for a message: secrets removed first, then cut (never the other way round). */
function cut(text: string, max = 120): string {
  return sanitizeError(text, [], max);
}

function readUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const usage: Usage = {};
  if (Number.isInteger(raw.prompt_tokens) && (raw.prompt_tokens as number) >= 0)
    usage.inputTokens = raw.prompt_tokens as number;
  if (Number.isInteger(raw.completion_tokens) && (raw.completion_tokens as number) >= 0)
    usage.outputTokens = raw.completion_tokens as number;
  const details = raw.prompt_tokens_details;
  // OpenAI's prompt_tokens already include the cached ones.
  if (isObject(details) && Number.isInteger(details.cached_tokens) && (details.cached_tokens as number) >= 0)
    usage.cachedInputTokens = details.cached_tokens as number;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** The text of a message `content`: a string, or an array of `{type:"text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
  }
  return "";
}

/** The message of an OpenAI-style error body (`{error:{message}}`, `{error:"..."}`, vLLM `{message}`). */
export function errorMessageOf(body: string): string | undefined {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(data)) return undefined;
  if (isObject(data.error) && typeof data.error.message === "string") return data.error.message;
  if (typeof data.error === "string") return data.error;
  if (typeof data.message === "string") return data.message;
  if (typeof data.detail === "string") return data.detail;
  return undefined;
}

/** Reads a non-streamed chat completion (`{choices:[{message:{content}}], usage, model}`). */
export function parseCompletionJson(body: string): ParsedCompletion {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { text: "", parseError: `the endpoint did not answer JSON: ${JSON.stringify(cut(body))}` };
  }
  if (!isObject(data))
    return { text: "", parseError: `expected a JSON object, got ${cut(JSON.stringify(data))}` };
  const usage = readUsage(data.usage);
  const model = typeof data.model === "string" && data.model ? data.model : undefined;
  const meta = { ...(model ? { model } : {}), ...(usage ? { usage } : {}) };
  if (data.error !== undefined) {
    return {
      text: "",
      ...meta,
      parseError: `the endpoint reported an error: ${errorMessageOf(body) ?? cut(body)}`,
    };
  }
  if (!Array.isArray(data.choices)) {
    return { text: "", ...meta, parseError: `\`choices\` is missing; got ${JSON.stringify(cut(body))}` };
  }
  if (data.choices.length === 0) return { text: "", ...meta, noChoices: true };
  const first = data.choices[0];
  const message = isObject(first) ? first.message : undefined;
  const finish = isObject(first) && typeof first.finish_reason === "string" ? first.finish_reason : undefined;
  return {
    text: contentText(isObject(message) ? message.content : undefined),
    ...meta,
    ...(finish ? { finishReason: finish } : {}),
  };
}

/** Splits a server-sent-events body into the `data:` payloads of its events. */
export function sseDataPayloads(body: string): string[] {
  const payloads: string[] = [];
  for (const event of body.replace(/\r\n?/g, "\n").split("\n\n")) {
    const data = event
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0) payloads.push(data.join("\n"));
  }
  return payloads;
}

/** Reads a streamed chat completion: `data: {choices:[{delta:{content}}]}` events up to `data: [DONE]`. */
export function parseCompletionSse(body: string): ParsedCompletion {
  let text = "";
  let model: string | undefined;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  let sawChunk = false;
  for (const payload of sseDataPayloads(body)) {
    if (payload.trim() === "[DONE]") break;
    let chunk: unknown;
    try {
      chunk = JSON.parse(payload);
    } catch {
      return { text: "", parseError: `a stream event is not JSON: ${JSON.stringify(cut(payload))}` };
    }
    if (!isObject(chunk)) continue;
    if (chunk.error !== undefined) {
      return {
        text: "",
        parseError: `the stream reported an error: ${errorMessageOf(payload) ?? cut(payload)}`,
      };
    }
    sawChunk = true;
    if (typeof chunk.model === "string" && chunk.model) model = chunk.model;
    usage = readUsage(chunk.usage) ?? usage;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      if (!isObject(choice)) continue;
      if (isObject(choice.delta)) text += contentText(choice.delta.content);
      if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
    }
  }
  if (!sawChunk)
    return { text: "", parseError: `the stream held no completion chunk: ${JSON.stringify(cut(body))}` };
  return {
    text,
    ...(model ? { model } : {}),
    ...(usage ? { usage } : {}),
    ...(finishReason ? { finishReason } : {}),
  };
}

/** Reads a response body by its content type (some servers stream even when asked not to). */
export function parseCompletionBody(body: string, contentType: string | null): ParsedCompletion {
  const looksSse = contentType?.includes("text/event-stream") || /^\s*data:/.test(body);
  return looksSse ? parseCompletionSse(body) : parseCompletionJson(body);
}

/**
 * The envelope status of a failed HTTP answer: auth, a wrong URL or an unknown model are
 * `unavailable` (asking again will not help); everything else (400, 429, 5xx...) is `exit`.
 */
export function statusForHttpError(httpStatus: number): AdapterResult["status"] {
  return httpStatus === 401 || httpStatus === 403 || httpStatus === 404 ? "unavailable" : "exit";
}

/**
 * A sentence for a failed HTTP answer, with what to do where we know it. The wait a Retry-After
 * header asked for is part of it (`retry after 1500 ms`), so a tournament's rate-limit pause can
 * honour it.
 */
export function describeHttpError(
  httpStatus: number,
  body: string,
  context: { keyEnv?: string; retryAfterMs?: number },
): string {
  const detail = errorMessageOf(body) ?? (body.trim() ? cut(body) : "");
  const suffix = detail ? `: ${detail}` : "";
  const wait = context.retryAfterMs !== undefined ? `retry after ${context.retryAfterMs} ms` : undefined;
  const note = (what?: string) => {
    const said = [what, wait].filter(Boolean).join("; ");
    return said ? ` (${said})` : "";
  };
  switch (httpStatus) {
    case 401:
    case 403:
      return `HTTP ${httpStatus}${note(`not authorized${context.keyEnv ? `; check $${context.keyEnv}` : "; set api_key_env on the seat"}`)}${suffix}`;
    case 404:
      return `HTTP 404${note("wrong base_url or unknown model")}${suffix}`;
    case 429:
      return `HTTP 429${note("rate limited or out of quota")}${suffix}`;
    default:
      return `HTTP ${httpStatus}${note()}${suffix}`;
  }
}

/** Network failures that mean "nothing is listening there" rather than "it broke mid-way". */
const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** The envelope status and a sentence for a `fetch` that failed before any HTTP answer. */
export function describeNetworkError(
  error: unknown,
  baseUrl: string,
): { status: AdapterResult["status"]; message: string } {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: string } | null)?.code;
  if (code && unreachableCodes.has(code)) {
    return { status: "unavailable", message: `cannot reach ${baseUrl} (${code}); is the server running?` };
  }
  const what = cause?.message ?? (error as Error | null)?.message ?? String(error);
  return { status: "exit", message: `request to ${baseUrl} failed${code ? ` (${code})` : ""}: ${what}` };
}
