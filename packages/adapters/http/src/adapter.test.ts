import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bodyFieldsFromArgs, createAdapter, retryAfterHeaderMs } from "./adapter.js";

// A stand-in for the model's answers (Ollama-shaped); the adapter under test is real.
type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: { url: string; auth?: string; body: string }[];

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      seen.push({
        url: req.url ?? "",
        body,
        ...(req.headers.authorization ? { auth: req.headers.authorization } : {}),
      });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A loopback port nothing listens on (port 1 is on fetch's blocked list, so it cannot be used). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const secret = "sk-test-abcdefghijklmnopqrstuvwxyz";
const env = { LOCAL_KEY: secret, PATH: "/usr/bin" };
const request = { prompt: "Argue.", timeoutMs: 5000, cwd: "/tmp" };

function json(res: ServerResponse, status: number, data: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(data));
}

function adapter(extra: Record<string, unknown> = {}) {
  return createAdapter(
    { adapter: "http", base_url: baseUrl, model: "qwen3:8b", api_key_env: "LOCAL_KEY", ...extra },
    { debateDir: "/tmp", env },
  );
}

describe("http adapter call", () => {
  it("posts the prompt with the key and returns the answer with usage", async () => {
    handler = (_req, _body, res) =>
      json(res, 200, {
        model: "qwen3:8b",
        choices: [{ message: { role: "assistant", content: "An answer." }, finish_reason: "stop" }],
        usage: { prompt_tokens: 7, completion_tokens: 3 },
      });
    const result = await adapter().call(request);
    expect(result).toMatchObject({
      status: "ok",
      text: "An answer.",
      model: "qwen3:8b",
      usage: { inputTokens: 7, outputTokens: 3 },
      transport: "http",
    });
    expect(result.sessionId).toBeUndefined();
    expect(seen[0]!.url).toBe("/v1/chat/completions");
    expect(seen[0]!.auth).toBe(`Bearer ${secret}`);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "Argue." }],
      stream: false,
    });
  });

  it("reads a streamed answer too", async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        'data: {"choices":[{"delta":{"content":"str"}}]}\n\ndata: {"choices":[{"delta":{"content":"eam"}}]}\n\ndata: [DONE]\n\n',
      );
    };
    expect(await adapter().call(request)).toMatchObject({ status: "ok", text: "stream" });
  });

  it("maps 400 to exit and 401 to unavailable, never showing the key", async () => {
    handler = (_req, _body, res) =>
      json(res, 400, {
        error: { message: `context too long for key ${secret}`, type: "invalid_request_error" },
      });
    const bad = await adapter().call(request);
    expect(bad.status).toBe("exit");
    expect(bad.error).toContain("HTTP 400");
    expect(JSON.stringify(bad)).not.toContain(secret);

    handler = (_req, _body, res) => json(res, 401, { error: { message: "Incorrect API key provided" } });
    const denied = await adapter().call(request);
    expect(denied.status).toBe("unavailable");
    expect(denied.error).toBe("HTTP 401 (not authorized; check $LOCAL_KEY): Incorrect API key provided");
  });

  it("maps 404, 429 and 500", async () => {
    const statuses: Record<number, string> = {};
    for (const code of [404, 429, 500]) {
      handler = (_req, _body, res) => json(res, code, { error: { message: `status ${code}` } });
      statuses[code] = (await adapter().call(request)).status;
    }
    expect(statuses).toEqual({ 404: "unavailable", 429: "exit", 500: "exit" });
  });

  it("puts the wait a 429's Retry-After asks for into the error (ms, seconds or a date)", async () => {
    const asked: Record<string, string>[] = [
      { "retry-after-ms": "1500", "retry-after": "2" },
      { "retry-after": "2" },
      { "retry-after": "0.25" },
    ];
    const errors: (string | undefined)[] = [];
    for (const headers of [...asked, {}]) {
      handler = (_req, _body, res) => {
        res.writeHead(429, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify({ error: { message: "slow down" } }));
      };
      errors.push((await adapter().call(request)).error);
    }
    expect(errors).toEqual([
      "HTTP 429 (rate limited or out of quota; retry after 1500 ms): slow down",
      "HTTP 429 (rate limited or out of quota; retry after 2000 ms): slow down",
      "HTTP 429 (rate limited or out of quota; retry after 250 ms): slow down",
      "HTTP 429 (rate limited or out of quota): slow down",
    ]);
    const now = Date.parse("2026-11-24T12:00:00Z");
    expect(retryAfterHeaderMs(new Headers({ "retry-after": "Tue, 24 Nov 2026 12:00:03 GMT" }), now)).toBe(
      3000,
    );
    expect(retryAfterHeaderMs(new Headers({ "retry-after": "Tue, 24 Nov 2026 11:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterHeaderMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterHeaderMs(new Headers({ "retry-after-ms": "-5", "retry-after": "1" }), now)).toBe(1000);
  });

  it("maps a non-JSON body to parse_error and empty choices to empty", async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>proxy page</html>");
    };
    const html = await adapter().call(request);
    expect(html.status).toBe("parse_error");
    expect(html.raw?.stdout).toBe("<html>proxy page</html>");
    handler = (_req, _body, res) => json(res, 200, { choices: [] });
    expect(await adapter().call(request)).toMatchObject({
      status: "empty",
      error: "the endpoint answered no choices",
    });
  });

  it("times out a hanging server", async () => {
    handler = () => {};
    const result = await adapter().call({ ...request, timeoutMs: 300 });
    expect(result.status).toBe("timeout");
    expect(result.error).toBe("no answer within 300 ms; request aborted");
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("is cancelled by the caller's signal", async () => {
    handler = () => {};
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await adapter().call({ ...request, signal: controller.signal })).status).toBe("cancelled");
  });

  it("reports a refused connection as unavailable", async () => {
    const a = createAdapter(
      { adapter: "http", base_url: `http://127.0.0.1:${await closedPort()}/v1`, model: "m" },
      { debateDir: "/tmp", env },
    );
    const result = await a.call(request);
    expect(result.status).toBe("unavailable");
    expect(result.error).toContain("ECONNREFUSED");
  });

  it("needs the key variable to be set, and a model", async () => {
    const noKey = createAdapter(
      { adapter: "http", base_url: baseUrl, model: "m", api_key_env: "MISSING_KEY" },
      { debateDir: "/tmp", env },
    );
    expect(await noKey.call(request)).toMatchObject({
      status: "unavailable",
      error: expect.stringContaining("$MISSING_KEY"),
    });
    const noModel = createAdapter({ adapter: "http", base_url: baseUrl }, { debateDir: "/tmp", env });
    expect((await noModel.call(request)).status).toBe("unavailable");
    expect(seen).toHaveLength(0);
  });

  it("sends the effort level's body fields", async () => {
    handler = (_req, _body, res) => json(res, 200, { choices: [{ message: { content: "ok" } }] });
    const a = createAdapter(
      { adapter: "http", base_url: baseUrl, model: "m", effort: "high" },
      {
        debateDir: "/tmp",
        env,
        effortMap: {
          adapters: { http: { levels: { high: { args: ["reasoning_effort=high", "temperature=0.2"] } } } },
        },
      },
    );
    await a.call(request);
    expect(JSON.parse(seen[0]!.body)).toMatchObject({
      reasoning_effort: "high",
      temperature: 0.2,
      model: "m",
    });
    expect(bodyFieldsFromArgs(["x", "=y", "n=1", "s=a=b"])).toEqual({ n: 1, s: "a=b" });
  });
});

describe("http adapter effort overrides", () => {
  it("takes the model from the debate folder's effort.json when the seat names none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "http-effort-"));
    try {
      await writeFile(
        join(dir, "effort.json"),
        JSON.stringify({
          adapters: { http: { levels: { medium: { model: "from-folder", args: ["seed=7"] } } } },
        }),
      );
      handler = (_req, _body, res) => json(res, 200, { choices: [{ message: { content: "ok" } }] });
      const a = createAdapter({ adapter: "http", base_url: baseUrl }, { debateDir: dir, env });
      expect((await a.call(request)).status).toBe("ok");
      expect(JSON.parse(seen[0]!.body)).toMatchObject({ model: "from-folder", seed: 7 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("http adapter detect", () => {
  it("is usable when /models answers and lists the model", async () => {
    handler = (_req, _body, res) =>
      json(res, 200, { object: "list", data: [{ id: "qwen3:8b" }, { id: "llama3.2" }] });
    expect(await adapter().detect()).toEqual({
      adapter: "http",
      path: baseUrl,
      installed: true,
      usable: true,
    });
    expect(seen[0]!.url).toBe("/v1/models");
  });

  it("says when the model is not served", async () => {
    handler = (_req, _body, res) => json(res, 200, { data: [{ id: "llama3.2" }] });
    const d = await adapter({ model: "qwen3:32b" }).detect();
    expect(d).toMatchObject({
      installed: true,
      usable: false,
      hint: "model qwen3:32b is not served here (listed: llama3.2)",
    });
  });

  it("says how to fix a refused connection and a 401", async () => {
    const down = createAdapter(
      { adapter: "http", base_url: `http://127.0.0.1:${await closedPort()}/v1` },
      { debateDir: "/tmp", env },
    );
    const d = await down.detect();
    expect(d).toMatchObject({ installed: false, usable: false });
    expect(d.hint).toContain("ECONNREFUSED");
    handler = (_req, _body, res) => json(res, 401, { error: { message: `bad key ${secret}` } });
    const denied = await adapter().detect();
    expect(denied.usable).toBe(false);
    expect(denied.hint).toContain("check $LOCAL_KEY");
    expect(denied.hint).not.toContain(secret);
  });
});
