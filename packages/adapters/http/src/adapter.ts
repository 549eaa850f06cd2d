import { performance } from "node:perf_hooks";
import type {
  Adapter,
  AdapterContext,
  Detection,
  ResolvedEffort,
  SeatCall,
  SeatRequest,
  SeatSafetyReport,
} from "@debatekit/adapter-kit";
import {
  findEffortOverrides,
  loadEffortMap,
  redactSecrets,
  resolveEffort,
  sanitizeError,
  secretsFromEnv,
} from "@debatekit/adapter-kit";
import type { SeatConfig } from "@debatekit/schema";
import { describeHttpError, describeNetworkError, parseCompletionBody, statusForHttpError } from "./parse.js";

/** Where an `http` seat without `base_url` goes: a local Ollama. */
export const defaultBaseUrl = "http://127.0.0.1:11434/v1";

const maxBodyBytes = 8 * 1024 * 1024;
const detectTimeoutMs = 3000;

/** `{base}/{path}` without a doubled slash. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${path}`;
}

/**
 * Extra request-body fields from the effort level's `args`: each `name=value`, the value read
 * as JSON when it parses (`temperature=0.2`, `reasoning_effort=high`).
 */
export function bodyFieldsFromArgs(args: readonly string[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq <= 0) continue;
    const value = arg.slice(eq + 1);
    try {
      fields[arg.slice(0, eq)] = JSON.parse(value);
    } catch {
      fields[arg.slice(0, eq)] = value;
    }
  }
  return fields;
}

/** The JSON body of one chat-completions call (non-streamed: one answer, usage included). */
export function buildRequestBody(
  prompt: string,
  model: string,
  effort: ResolvedEffort,
): Record<string, unknown> {
  return {
    ...bodyFieldsFromArgs(effort.args),
    model,
    messages: [{ role: "user", content: prompt }],
    stream: false,
  };
}

/** Reads a response body up to `maxBodyBytes`; the rest is dropped. */
async function readCapped(response: Response): Promise<{ body: string; truncated: boolean }> {
  if (!response.body) return { body: "", truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBodyBytes) {
      chunks.push(value.subarray(0, maxBodyBytes - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { body: Buffer.concat(chunks).toString("utf8"), truncated };
}

/** One HTTP answer as it came off the wire (what the fixtures record). */
export interface HttpAnswer {
  status: number;
  statusText: string;
  contentType: string | null;
  body: string;
  /** True when the body was cut at the size cap. */
  truncated: boolean;
  /** The wait the server asked for (`retry-after-ms`, else `retry-after` in seconds or as a date), in ms. */
  retryAfterMs?: number;
}

/**
 * The wait an answer's headers ask for before the next request, in ms: `retry-after-ms` (OpenAI's),
 * else `retry-after` as seconds or as an HTTP date (`now` is the date it is counted from).
 */
export function retryAfterHeaderMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Folds one HTTP answer into the seat result envelope: an error status by {@link statusForHttpError},
 * a 2xx body read as JSON or SSE, `empty` for no choices or blank content. Pure: the fixtures
 * tests replay recorded answers through it.
 */
export function readHttpAnswer(
  answer: HttpAnswer,
  options: { secrets: readonly string[]; durationMs: number; keyEnv?: string },
): SeatCall {
  const { secrets, durationMs } = options;
  const raw = {
    stdout: redactSecrets(answer.body, secrets),
    // Like `curl -i`: the status line and the one header the body is read by.
    stderr:
      `HTTP ${answer.status} ${answer.statusText}`.trim() +
      (answer.contentType ? `\ncontent-type: ${answer.contentType}` : ""),
    truncated: answer.truncated,
  };
  const meta = { durationMs, transport: "http" as const, raw };
  if (answer.status < 200 || answer.status > 299) {
    return {
      ...meta,
      status: statusForHttpError(answer.status),
      text: "",
      error: sanitizeError(
        describeHttpError(answer.status, answer.body, {
          ...(options.keyEnv ? { keyEnv: options.keyEnv } : {}),
          ...(answer.retryAfterMs !== undefined ? { retryAfterMs: answer.retryAfterMs } : {}),
        }),
        secrets,
      ),
    };
  }
  const parsed = parseCompletionBody(answer.body, answer.contentType);
  const found = {
    ...meta,
    ...(parsed.model ? { model: parsed.model } : {}),
    ...(parsed.usage ? { usage: parsed.usage } : {}),
  };
  if (parsed.parseError) {
    return { ...found, status: "parse_error", text: "", error: sanitizeError(parsed.parseError, secrets) };
  }
  const text = redactSecrets(parsed.text, secrets);
  if (parsed.noChoices || text.trim() === "") {
    const why = parsed.noChoices
      ? "no choices"
      : `an empty message (finish_reason ${parsed.finishReason ?? "none"})`;
    return { ...found, status: "empty", text: "", error: `the endpoint answered ${why}` };
  }
  return { ...found, status: "ok", text };
}

/** An adapter for any OpenAI-compatible `POST {base_url}/chat/completions` endpoint. Stateless. */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const env = context.env ?? process.env;
  const baseUrl = seat.base_url ?? defaultBaseUrl;
  const keyEnv = seat.api_key_env;
  const apiKey = keyEnv ? env[keyEnv] : undefined;
  const secrets = [...secretsFromEnv(env), ...(apiKey ? [apiKey] : [])];
  const headers = (): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  });

  async function call(request: SeatRequest): Promise<SeatCall> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const envelope = (status: SeatCall["status"], error: string, raw?: SeatCall["raw"]): SeatCall => ({
      status,
      text: "",
      durationMs: elapsed(),
      transport: "http",
      error: sanitizeError(error, secrets),
      ...(raw ? { raw } : {}),
    });

    if (keyEnv && !apiKey) {
      return envelope("unavailable", `$${keyEnv} is not set (the seat's api_key_env names it)`);
    }
    const effortMap =
      context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
    const effort = resolveEffort(effortMap, "http", {
      model: request.model ?? seat.model,
      effort: request.effort ?? seat.effort,
    });
    if (!effort.model) {
      return envelope("unavailable", "an http seat needs a model (set `model` on the seat, e.g. qwen3:8b)");
    }
    if (request.signal?.aborted) return envelope("cancelled", "stopped by the user before the request");

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    const onAbort = () => controller.abort();
    request.signal?.addEventListener("abort", onAbort, { once: true });
    const url = endpointUrl(baseUrl, "chat/completions");
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: headers(),
        body: JSON.stringify(buildRequestBody(request.prompt, effort.model, effort)),
        signal: controller.signal,
      });
      const { body, truncated } = await readCapped(response);
      const wait = response.ok ? undefined : retryAfterHeaderMs(response.headers);
      return readHttpAnswer(
        {
          status: response.status,
          statusText: response.statusText,
          contentType: response.headers.get("content-type"),
          body,
          truncated,
          ...(wait === undefined ? {} : { retryAfterMs: wait }),
        },
        { secrets, durationMs: elapsed(), ...(keyEnv ? { keyEnv } : {}) },
      );
    } catch (error) {
      if (timedOut) return envelope("timeout", `no answer within ${request.timeoutMs} ms; request aborted`);
      if (request.signal?.aborted) return envelope("cancelled", "stopped by the user");
      const { status, message } = describeNetworkError(error, baseUrl);
      return envelope(status, message);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
    }
  }

  async function detect(): Promise<Detection> {
    const base = { adapter: "http", path: baseUrl };
    if (keyEnv && !apiKey) {
      return { ...base, installed: true, usable: false, hint: `set $${keyEnv} (the seat's api_key_env)` };
    }
    try {
      const response = await fetch(endpointUrl(baseUrl, "models"), {
        headers: headers(),
        signal: AbortSignal.timeout(detectTimeoutMs),
      });
      const { body } = await readCapped(response);
      if (!response.ok) {
        const hint = sanitizeError(
          describeHttpError(response.status, body, keyEnv ? { keyEnv } : {}),
          secrets,
        );
        return { ...base, installed: true, usable: false, hint };
      }
      const ids = modelIds(body);
      const wanted = seat.model;
      if (wanted && ids && !ids.includes(wanted)) {
        const listed = ids.slice(0, 5).join(", ") || "none";
        return {
          ...base,
          installed: true,
          usable: false,
          hint: sanitizeError(`model ${wanted} is not served here (listed: ${listed})`, secrets),
        };
      }
      return { ...base, installed: true, usable: true };
    } catch (error) {
      const { message } = describeNetworkError(error, baseUrl);
      return {
        ...base,
        installed: false,
        usable: false,
        hint: sanitizeError(
          `${message} Start the server (e.g. \`ollama serve\`) or set the seat's base_url`,
          secrets,
        ),
      };
    }
  }

  function safety(): SeatSafetyReport {
    return {
      tools: "none",
      isolation: "on",
      endpoint: baseUrl,
      // The request body is messages, model and stream only: nothing a model could call.
      toolsSwitches: "no tools in the request (a `tools: read` seat gets text only)",
      isolated: "everything: no program runs, only an HTTP request",
      passedThrough: keyEnv ? `the value of $${keyEnv} as a bearer token` : "nothing",
    };
  }

  return { name: "http", call, detect, safety };
}

/** Model ids of a `GET /models` answer (`{data:[{id}]}`), or undefined when it has another shape. */
export function modelIds(body: string): string[] | undefined {
  try {
    const data = JSON.parse(body) as { data?: unknown };
    if (!Array.isArray(data.data)) return undefined;
    return data.data.flatMap((m) =>
      typeof (m as { id?: unknown }).id === "string" ? [(m as { id: string }).id] : [],
    );
  } catch {
    return undefined;
  }
}
