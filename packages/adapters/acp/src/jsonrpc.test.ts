import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { classifyLine, createLineSplitter, encodeMessage, JsonRpcConnection, RpcError } from "./jsonrpc.js";

describe("createLineSplitter", () => {
  it("yields whole lines across chunk boundaries, CRLF included, skipping blank lines", () => {
    const lines: string[] = [];
    const feed = createLineSplitter((l) => lines.push(l));
    feed('{"a":');
    feed('1}\n\n{"b"');
    feed(":2}\r\n");
    feed('{"c":3}');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    feed("\n");
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("keeps a multi-byte character split between two chunks", () => {
    const lines: string[] = [];
    const feed = createLineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('{"t":"é✓"}\n');
    feed(bytes.subarray(0, 7));
    feed(bytes.subarray(7));
    expect(lines).toEqual(['{"t":"é✓"}']);
  });
});

describe("classifyLine", () => {
  it("sorts requests, notifications, responses and errors", () => {
    expect(
      classifyLine('{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{}}'),
    ).toEqual({
      kind: "request",
      id: 3,
      method: "session/request_permission",
      params: {},
    });
    expect(classifyLine('{"jsonrpc":"2.0","method":"session/update","params":{"x":1}}')).toEqual({
      kind: "notification",
      method: "session/update",
      params: { x: 1 },
    });
    expect(classifyLine('{"jsonrpc":"2.0","id":"a","result":null}')).toEqual({
      kind: "response",
      id: "a",
      result: null,
    });
    expect(
      classifyLine('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom","data":{"k":1}}}'),
    ).toEqual({
      kind: "error",
      id: 1,
      error: { code: -32603, message: "boom", data: { k: 1 } },
    });
  });

  it("marks what is not JSON-RPC, quoting it", () => {
    expect(classifyLine("Loading model...")).toMatchObject({
      kind: "invalid",
      reason: "not JSON",
      line: "Loading model...",
    });
    expect(classifyLine('{"id":1,"result":2}')).toMatchObject({
      kind: "invalid",
      reason: 'jsonrpc is not "2.0"',
    });
    expect(classifyLine("[1,2]").kind).toBe("invalid");
    expect(classifyLine('{"jsonrpc":"2.0","id":1}').kind).toBe("invalid");
  });

  it("round-trips what encodeMessage writes", () => {
    const line = encodeMessage({ id: 7, method: "session/prompt", params: { text: "a\nb" } });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
    expect(classifyLine(line.trim())).toEqual({
      kind: "request",
      id: 7,
      method: "session/prompt",
      params: { text: "a\nb" },
    });
  });
});

/** A connection whose "agent" side is driven by the test through two PassThrough streams. */
function pair(hooks: ConstructorParameters<typeof JsonRpcConnection>[2] = {}) {
  const fromAgent = new PassThrough();
  const toAgent = new PassThrough();
  const written: unknown[] = [];
  const feed = createLineSplitter((l) => written.push(JSON.parse(l)));
  toAgent.on("data", feed);
  const connection = new JsonRpcConnection(fromAgent, toAgent, hooks);
  const agentSays = (message: Record<string, unknown>) => fromAgent.write(encodeMessage(message));
  return { connection, written, agentSays };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("JsonRpcConnection", () => {
  it("matches responses to requests by id, in any order", async () => {
    const { connection, written, agentSays } = pair();
    const a = connection.request("initialize", { protocolVersion: 1 });
    const b = connection.request("session/new", { cwd: "/" });
    await tick();
    expect(written).toEqual([
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } },
      { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/" } },
    ]);
    agentSays({ id: 1, result: { sessionId: "s" } });
    agentSays({ id: 0, result: { protocolVersion: 1 } });
    expect(await b).toEqual({ sessionId: "s" });
    expect(await a).toEqual({ protocolVersion: 1 });
  });

  it("rejects with an RpcError carrying the agent's error", async () => {
    const { connection, agentSays } = pair();
    const p = connection.request("session/prompt", {});
    agentSays({ id: 0, error: { code: -32000, message: "Authentication required" } });
    const error = await p.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).rpc.code).toBe(-32000);
    expect((error as RpcError).message).toBe("session/prompt failed: Authentication required (code -32000)");
  });

  it("answers the agent's requests with the handler's result, or method-not-found", async () => {
    const { written, agentSays } = pair({
      onRequest: (method) => {
        if (method === "session/request_permission") return { outcome: { outcome: "cancelled" } };
        throw Object.assign(new Error(`no ${method}`), { code: -32601 });
      },
    });
    agentSays({ id: 9, method: "session/request_permission", params: {} });
    agentSays({ id: 10, method: "terminal/create", params: {} });
    await tick();
    await tick();
    // Answers go out as each handler finishes: compare without order.
    expect(written).toHaveLength(2);
    expect(written).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 9, result: { outcome: { outcome: "cancelled" } } },
        { jsonrpc: "2.0", id: 10, error: { code: -32601, message: "no terminal/create" } },
      ]),
    );
  });

  it("passes notifications and invalid lines to their hooks", async () => {
    const notes: unknown[] = [];
    const invalid: string[] = [];
    const { agentSays } = pair({
      onNotification: (method, params) => notes.push([method, params]),
      onInvalid: (m) => invalid.push(m.line),
    });
    agentSays({ method: "session/update", params: { n: 1 } });
    await tick();
    expect(notes).toEqual([["session/update", { n: 1 }]]);
    expect(invalid).toEqual([]);
  });

  it("fails pending and later requests once closed", async () => {
    const { connection } = pair();
    const p = connection.request("session/prompt", {});
    connection.close(new Error("the agent exited"));
    await expect(p).rejects.toThrow("the agent exited");
    await expect(connection.request("x", {})).rejects.toThrow("the agent exited");
  });
});
