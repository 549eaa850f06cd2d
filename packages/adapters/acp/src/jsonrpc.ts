import type { Readable, Writable } from "node:stream";
import { sanitizeError } from "@debatekit/adapter-kit";

/** A JSON-RPC 2.0 message as read from the wire, sorted by what it is. */
export type IncomingMessage =
  | { kind: "request"; id: number | string; method: string; params: unknown }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "response"; id: number | string; result: unknown }
  | { kind: "error"; id: number | string | null; error: RpcErrorObject }
  | { kind: "invalid"; reason: string; line: string };

/** The `error` member of a JSON-RPC response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC error answer to one of our requests; `rpc` keeps the agent's error object. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly method: string,
    readonly rpc: RpcErrorObject,
  ) {
    super(`${method} failed: ${rpc.message} (code ${rpc.code})`);
  }
}

/** A line quoted in a message: secrets removed first, then cut (never the other way round). */
function cut(text: string, max = 200): string {
  return sanitizeError(text, [], max);
}

function isId(value: unknown): value is number | string {
  return typeof value === "number" || typeof value === "string";
}

/** Sorts one line of the stream into request / notification / response / error / invalid. */
export function classifyLine(line: string): IncomingMessage {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return { kind: "invalid", reason: "not JSON", line: cut(line) };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { kind: "invalid", reason: "not a JSON-RPC object", line: cut(line) };
  }
  const m = data as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", reason: 'jsonrpc is not "2.0"', line: cut(line) };
  if (typeof m.method === "string") {
    return isId(m.id)
      ? { kind: "request", id: m.id, method: m.method, params: m.params }
      : { kind: "notification", method: m.method, params: m.params };
  }
  if (isId(m.id) && "result" in m) return { kind: "response", id: m.id, result: m.result };
  if ("error" in m && typeof m.error === "object" && m.error !== null) {
    const e = m.error as Record<string, unknown>;
    return {
      kind: "error",
      id: isId(m.id) ? m.id : null,
      error: {
        code: typeof e.code === "number" ? e.code : -32603,
        message: typeof e.message === "string" ? e.message : "unknown error",
        ...(e.data !== undefined ? { data: e.data } : {}),
      },
    };
  }
  return { kind: "invalid", reason: "neither a request, a notification nor a response", line: cut(line) };
}

/**
 * Splits a byte stream into lines (ACP frames one JSON message per line, `\n`-terminated).
 * Returns a function to feed chunks; it calls `onLine` for each complete, non-blank line.
 */
export function createLineSplitter(onLine: (line: string) => void): (chunk: Buffer | string) => void {
  let pending = "";
  const decoder = new TextDecoder();
  return (chunk) => {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let index = pending.indexOf("\n");
    while (index >= 0) {
      const line = pending.slice(0, index).replace(/\r$/, "");
      pending = pending.slice(index + 1);
      if (line.trim() !== "") onLine(line);
      index = pending.indexOf("\n");
    }
  };
}

/** One line on the wire: the message as JSON, newline-terminated (JSON.stringify never emits raw newlines). */
export function encodeMessage(message: Record<string, unknown>): string {
  return `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
}

/** How the connection answers requests the agent sends us. */
export type RequestHandler = (method: string, params: unknown) => Promise<unknown> | unknown;

/** What the connection reports besides answers to our requests. */
export interface ConnectionHooks {
  onNotification?: (method: string, params: unknown) => void;
  onRequest?: RequestHandler;
  /** Every line received, as is (the journal keeps the raw exchange). */
  onLine?: (line: string) => void;
  /** A line that is not JSON-RPC (agents sometimes log to stdout). */
  onInvalid?: (message: Extract<IncomingMessage, { kind: "invalid" }>) => void;
}

/** Error code for a method we do not implement (JSON-RPC 2.0). */
export const methodNotFound = -32601;

/** A JSON-RPC 2.0 client+server over a pair of streams (the agent's stdout and stdin). */
export class JsonRpcConnection {
  private nextId = 0;
  private readonly pending = new Map<
    number | string,
    { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private closedWith: Error | undefined;

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly hooks: ConnectionHooks = {},
  ) {
    const feed = createLineSplitter((line) => this.receive(line));
    input.on("data", feed);
    // A write to an agent that already died fails with EPIPE: the exit is reported elsewhere.
    output.on("error", () => {});
  }

  /** Sends a request and resolves with its result; rejects with RpcError or when the connection closes. */
  request(method: string, params: unknown): Promise<unknown> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.output.write(encodeMessage({ id, method, params }));
    });
  }

  /** Sends a notification (no answer expected). */
  notify(method: string, params: unknown): void {
    if (!this.closedWith) this.output.write(encodeMessage({ method, params }));
  }

  /** Fails every pending request with `reason`; later requests fail at once. */
  close(reason: Error): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    for (const entry of this.pending.values()) entry.reject(reason);
    this.pending.clear();
  }

  private receive(line: string): void {
    this.hooks.onLine?.(line);
    const message = classifyLine(line);
    switch (message.kind) {
      case "response": {
        const entry = this.pending.get(message.id);
        this.pending.delete(message.id);
        entry?.resolve(message.result);
        return;
      }
      case "error": {
        if (message.id === null) return;
        const entry = this.pending.get(message.id);
        this.pending.delete(message.id);
        entry?.reject(new RpcError(entry.method, message.error));
        return;
      }
      case "notification":
        this.hooks.onNotification?.(message.method, message.params);
        return;
      case "request":
        void this.answer(message.id, message.method, message.params);
        return;
      case "invalid":
        this.hooks.onInvalid?.(message);
        return;
    }
  }

  private async answer(id: number | string, method: string, params: unknown): Promise<void> {
    const handler = this.hooks.onRequest;
    try {
      if (!handler)
        throw Object.assign(new Error(`method ${method} is not supported`), { code: methodNotFound });
      const result = await handler(method, params);
      if (!this.closedWith) this.output.write(encodeMessage({ id, result: result ?? null }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const rpc = { code: typeof code === "number" ? code : -32603, message: (error as Error).message };
      if (!this.closedWith) this.output.write(encodeMessage({ id, error: rpc }));
    }
  }
}
