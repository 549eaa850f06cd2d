// A loopback model server for the CLI conformance suite: the real CLIs talk to it instead of a
// provider. It answers the Anthropic, OpenAI (responses + chat completions) and Gemini APIs with
// scripted text, can fail or hang on demand, and logs every request it saw.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  type AnswerUsage,
  anthropicEvents,
  anthropicToolEvents,
  chatEvents,
  chatToolEvents,
  geminiEvents,
  geminiResponse,
  geminiToolResponse,
  ollamaCompletion,
  ollamaModelList,
  responsesEvents,
  responsesToolEvents,
  serializeSse,
  type ToolCall,
} from "./sse.js";

export type { ToolCall } from "./sse.js";

/** Which model API a request used. */
export type ModelApi = "anthropic" | "openai-responses" | "openai-chat" | "gemini-stream" | "gemini";

/** One request the server received (the log entry tests read). */
export interface ModelRequest {
  api: ModelApi;
  method: string;
  path: string;
  /** The model named in the body or the URL. */
  model: string;
  /** Text of the last user turn (what the CLI was asked). */
  lastUserText: string;
  /** Every text in the request (system prompt, history, tools) joined; good for markers. */
  allText: string;
  /** Names of the tools the request offered the model (function names, or built-in tool types). */
  toolsOffered: string[];
  /** True when the request carries the result of a tool call (the CLI answered our tool call). */
  hasToolResult: boolean;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** When the request was read (ms, performance.now()), and when its answer was written or abandoned. */
  startedAt: number;
  endedAt?: number;
  /**
   * What became of it: `answered` (a 2xx answer fully written to a socket still open),
   * `error` (an HTTP error fully written), `abandoned` (the client was gone before the answer was
   * written: killed, or hung up while the server waited); undefined while in flight.
   */
  outcome?: "answered" | "error" | "abandoned";
}

/** What to answer: text, an HTTP error, or no answer at all (the connection stays open). */
export type ModelReply =
  | string
  | { text: string; usage?: AnswerUsage }
  | {
      error: 400 | 401 | 403 | 404 | 429 | 500 | 503;
      message?: string;
      /**
       * Sent as `retry-after-ms` and `retry-after` (seconds, rounded up): CLIs that retry a 429
       * or 5xx on their own honour it, so a test can make their retries quick instead of minutes.
       */
      retryAfterMs?: number;
    }
  | { hang: true }
  /** The model asks for a tool instead of answering, in the API's own shape. */
  | { toolCall: ToolCall; usage?: AnswerUsage };

/** Decides the reply to one request; tests script a debate by looking at the prompt. */
export type ReplyFunction = (request: ModelRequest) => ModelReply;

export interface ModelServer {
  /** Base URL without a path, e.g. http://127.0.0.1:43121 */
  url: string;
  port: number;
  /** Every model request so far, in order (HEAD probes and unknown paths excluded). */
  requests: ModelRequest[];
  /** Replaces the reply function (per test). */
  setReply(reply: ReplyFunction): void;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight(): number;
  maxInFlight(): number;
  /** Stops the server and drops open (hanging) connections. */
  close(): Promise<void>;
}

const defaultUsage: AnswerUsage = { inputTokens: 12, outputTokens: 7 };

/** Options of {@link startModelServer}. */
export interface ModelServerOptions {
  log?: (line: string) => void;
  /**
   * `openai` (default): chat completions always stream SSE, even for `stream: false` (as some
   * proxies do). `ollama`: like Ollama's OpenAI-compatible `/v1` API: `stream: false` gets one
   * `chat.completion` JSON object (`system_fingerprint: "fp_ollama"`), and `GET …/models` lists
   * `models`.
   */
  flavor?: "openai" | "ollama";
  /** The models `GET …/models` lists in the `ollama` flavor. */
  models?: string[];
  /**
   * Answer every model request this long after reading it (a provider that takes its time); a
   * client that hangs up meanwhile gets nothing and its request is logged `abandoned`.
   */
  delayMs?: number;
}

/** Starts the model server on 127.0.0.1 with an OS-chosen port. */
export async function startModelServer(
  reply: ReplyFunction = () => "pong",
  options: ModelServerOptions = {},
): Promise<ModelServer> {
  const flavor = options.flavor ?? "openai";
  let replyFn = reply;
  const requests: ModelRequest[] = [];
  const sockets = new Set<Socket>();
  let counter = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log?.(`model server error: ${String(err)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "model server bug" } }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const raw = await readBody(req);
    const api = classify(req.method ?? "GET", url.pathname);
    options.log?.(`${req.method} ${url.pathname}${url.search} -> ${api ?? "404"}`);
    if (flavor === "ollama" && req.method === "GET" && url.pathname.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(ollamaModelList(options.models ?? [])));
      return;
    }
    if (!api) {
      // Claude Code probes `HEAD /api/hello`; a 404 is what it gets from a plain proxy too.
      res.writeHead(404, { "content-type": "application/json" });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    let body: unknown = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = raw;
    }
    const request: ModelRequest = {
      api,
      method: req.method ?? "POST",
      path: `${url.pathname}${url.search}`,
      model: modelOf(api, url.pathname, body),
      lastUserText: lastUserText(api, body),
      allText: collectText(body).join("\n"),
      toolsOffered: toolsOffered(api, body),
      hasToolResult: hasToolResult(api, body),
      headers: req.headers,
      body,
      startedAt: performance.now(),
    };
    requests.push(request);
    counter += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Delivered = the whole answer handed to a socket still open ("finish"); a close before that
    // means the client never got it.
    let ended = false;
    const end = (outcome: NonNullable<ModelRequest["outcome"]>) => {
      if (ended) return;
      ended = true;
      inFlight -= 1;
      request.endedAt = performance.now();
      request.outcome = outcome;
    };
    res.once("finish", () => end(res.statusCode >= 200 && res.statusCode < 300 ? "answered" : "error"));
    res.once("close", () => end("abandoned"));
    if (options.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.delayMs);
        res.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (ended || res.destroyed) return;
    }
    const answer = replyFn(request);
    if (typeof answer === "object" && "hang" in answer) return; // never answer; close() drops it
    if (typeof answer === "object" && "error" in answer) {
      sendError(res, api, answer.error, answer.message ?? `scripted ${answer.error}`, answer.retryAfterMs);
      return;
    }
    sendAnswer(res, request, answer, { id: `stub${counter}`, ollama: flavor === "ollama" });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setReply(next) {
      replyFn = next;
    },
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a scripted answer (text or a tool call) in the wire form of the request's API. */
function sendAnswer(
  res: ServerResponse,
  request: ModelRequest,
  answer: Exclude<ModelReply, { hang: true } | { error: unknown }>,
  { id, ollama }: { id: string; ollama: boolean },
): void {
  const { api, body } = request;
  if (typeof answer === "object" && "toolCall" in answer) {
    const usage = answer.usage ?? defaultUsage;
    if (api === "gemini") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(geminiToolResponse(answer.toolCall, request.model, usage)));
      return;
    }
    const events =
      api === "anthropic"
        ? anthropicToolEvents(answer.toolCall, request.model, usage, `msg_${id}`)
        : api === "openai-responses"
          ? responsesToolEvents(answer.toolCall, request.model, usage, id)
          : api === "openai-chat"
            ? chatToolEvents(answer.toolCall, request.model, usage, id)
            : [{ data: geminiToolResponse(answer.toolCall, request.model, usage) }];
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(serializeSse(events));
    return;
  }
  const text = typeof answer === "string" ? answer : answer.text;
  const usage = typeof answer === "string" ? defaultUsage : (answer.usage ?? defaultUsage);
  if (api === "openai-chat" && ollama && (body as { stream?: unknown }).stream === false) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(ollamaCompletion(text, request.model, usage, id)));
    return;
  }
  if (api === "gemini") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(geminiResponse(text, request.model, usage, true)));
    return;
  }
  const events =
    api === "anthropic"
      ? anthropicEvents(text, request.model, usage, `msg_${id}`)
      : api === "openai-responses"
        ? responsesEvents(text, request.model, usage, id)
        : api === "openai-chat"
          ? chatEvents(text, request.model, usage, id)
          : geminiEvents(text, request.model, usage);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(serializeSse(events));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function classify(method: string, path: string): ModelApi | undefined {
  if (method !== "POST") return undefined;
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith(":streamGenerateContent")) return "gemini-stream";
  if (path.endsWith(":generateContent")) return "gemini";
  return undefined;
}

function modelOf(api: ModelApi, path: string, body: unknown): string {
  if (api === "gemini" || api === "gemini-stream") {
    return /models\/([^:/]+):/.exec(path)?.[1] ?? "gemini-unknown";
  }
  const model = (body as { model?: unknown })?.model;
  return typeof model === "string" ? model : "unknown-model";
}

function sendError(
  res: ServerResponse,
  api: ModelApi,
  status: number,
  message: string,
  retryAfterMs?: number,
): void {
  const body =
    api === "anthropic"
      ? {
          type: "error",
          error: {
            type:
              status === 401
                ? "authentication_error"
                : status === 429
                  ? "rate_limit_error"
                  : status >= 500
                    ? "api_error"
                    : "invalid_request_error",
            message,
          },
        }
      : api === "gemini" || api === "gemini-stream"
        ? {
            error: {
              code: status,
              message,
              status:
                status === 401
                  ? "UNAUTHENTICATED"
                  : status === 429
                    ? "RESOURCE_EXHAUSTED"
                    : status >= 500
                      ? "INTERNAL"
                      : "INVALID_ARGUMENT",
            },
          }
        : {
            error: {
              message,
              type:
                status === 401
                  ? "invalid_api_key"
                  : status === 429
                    ? "rate_limit_exceeded"
                    : "invalid_request_error",
              code: status === 401 ? "invalid_api_key" : null,
            },
          };
  res.writeHead(status, {
    "content-type": "application/json",
    ...(retryAfterMs === undefined
      ? {}
      : { "retry-after-ms": String(retryAfterMs), "retry-after": String(Math.ceil(retryAfterMs / 1000)) }),
  });
  res.end(JSON.stringify(body));
}

/** Every string under a `text`/`content`/`input`/`system` key, depth first. */
function collectText(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") return out;
  if (Array.isArray(value)) {
    for (const v of value) collectText(v, out);
    return out;
  }
  if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === "string" && ["text", "content", "input", "system", "instructions"].includes(key))
        out.push(v);
      else collectText(v, out);
    }
  }
  return out;
}

function lastUserText(api: ModelApi, body: unknown): string {
  const b = body as Record<string, unknown>;
  let turns: unknown[] = [];
  if (api === "anthropic" || api === "openai-chat") turns = Array.isArray(b.messages) ? b.messages : [];
  else if (api === "openai-responses")
    turns = Array.isArray(b.input)
      ? b.input
      : typeof b.input === "string"
        ? [{ role: "user", content: b.input }]
        : [];
  else turns = Array.isArray(b.contents) ? b.contents : [];
  const users = turns.filter((t) => (t as { role?: string }).role === "user");
  const last = users[users.length - 1];
  if (!last) return "";
  const t = last as { content?: unknown; parts?: unknown };
  if (typeof t.content === "string") return t.content;
  return collectText(t.content ?? t.parts ?? []).join("\n");
}

/** The tool names a request offers: function names, or the type of a built-in tool (web_search...). */
function toolsOffered(api: ModelApi, body: unknown): string[] {
  const tools = (body as { tools?: unknown })?.tools;
  if (!Array.isArray(tools)) return [];
  const names: string[] = [];
  for (const tool of tools as Array<Record<string, unknown>>) {
    if (api === "gemini" || api === "gemini-stream") {
      const declarations = tool.functionDeclarations ?? tool.function_declarations;
      if (Array.isArray(declarations))
        for (const d of declarations as Array<{ name?: unknown }>)
          if (typeof d.name === "string") names.push(d.name);
      for (const key of Object.keys(tool))
        if (key !== "functionDeclarations" && key !== "function_declarations") names.push(key);
      continue;
    }
    // Chat completions: `{type: "function", function: {name}}` or a freeform `{type: "custom", custom: {name}}`.
    const fn = (tool.function ?? tool.custom) as { name?: unknown } | undefined;
    const name =
      typeof tool.name === "string" ? tool.name : typeof fn?.name === "string" ? fn.name : undefined;
    names.push(name ?? String(tool.type ?? "unknown"));
  }
  return names;
}

/** Whether a request carries a tool's result back to the model. */
function hasToolResult(api: ModelApi, body: unknown): boolean {
  const text = JSON.stringify(body ?? {});
  if (api === "anthropic") return text.includes('"type":"tool_result"');
  if (api === "openai-responses")
    return /"type":"(function_call_output|custom_tool_call_output|local_shell_call_output)"/.test(text);
  if (api === "openai-chat") return text.includes('"role":"tool"');
  return text.includes('"functionResponse"');
}
