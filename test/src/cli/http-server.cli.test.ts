// The http adapter against the loopback model server's OpenAI chat-completions endpoint (which
// streams SSE even when asked not to, as some proxies do): a plain answer, each HTTP error, a
// hang that the per-seat timeout ends, a server that is not running, and detect().
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdapter } from "@debatekit/adapter-http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ModelServer, startModelServer } from "../model-server/server.js";

const key = "sk-loopback-0123456789abcdefghij";
const env = { PATH: process.env.PATH ?? "", LOOPBACK_KEY: key };

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

function adapter(baseUrl = `${server.url}/v1`) {
  return createAdapter(
    { adapter: "http", base_url: baseUrl, model: "qwen3:8b", api_key_env: "LOOPBACK_KEY" },
    { debateDir: ".", env },
  );
}

const request = { prompt: "Argue for the motion. MARK-HTTP", timeoutMs: 10_000, cwd: "." };

describe("http adapter against the loopback chat-completions server", () => {
  test("a plain answer: text, model, usage; the key went in the Authorization header", async () => {
    server.setReply(() => ({ text: "plain answer over http", usage: { inputTokens: 21, outputTokens: 5 } }));
    const before = server.requests.length;
    const call = await adapter().call(request);
    expect(call.error).toBeUndefined();
    expect(call).toMatchObject({
      status: "ok",
      text: "plain answer over http",
      model: "qwen3:8b",
      usage: { inputTokens: 21, outputTokens: 5 },
      transport: "http",
    });
    const seen = server.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ api: "openai-chat", path: "/v1/chat/completions", model: "qwen3:8b" });
    expect(seen[0]!.lastUserText).toContain("MARK-HTTP");
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.stringify(call)).not.toContain(key);
  });

  const expected = {
    400: "exit",
    401: "unavailable",
    403: "unavailable",
    404: "unavailable",
    429: "exit",
    500: "exit",
    503: "exit",
  } as const;
  for (const [status, envelopeStatus] of Object.entries(expected)) {
    test(`HTTP ${status} is status ${envelopeStatus}, quoting the server's message`, async () => {
      server.setReply(() => ({ error: Number(status) as 400, message: `scripted failure ${status}` }));
      const call = await adapter().call(request);
      expect(call.status).toBe(envelopeStatus);
      expect(call.text).toBe("");
      expect(call.error).toContain(`HTTP ${status}`);
      expect(call.error).toContain(`scripted failure ${status}`);
    });
  }

  test("a hanging model ends in status timeout at the seat's limit", async () => {
    server.setReply(() => ({ hang: true }));
    const call = await adapter().call({ ...request, timeoutMs: 2000 });
    expect(call.status).toBe("timeout");
    expect(call.durationMs).toBeGreaterThanOrEqual(1990);
    expect(call.durationMs).toBeLessThan(6000);
  });

  test("a server that is not running is unavailable, with a hint from detect()", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = adapter(`http://127.0.0.1:${port}/v1`);
    const call = await down.call(request);
    expect(call).toMatchObject({ status: "unavailable", error: expect.stringContaining("ECONNREFUSED") });
    const detection = await down.detect();
    expect(detection).toMatchObject({ adapter: "http", installed: false, usable: false });
    expect(detection.hint).toContain("ollama serve");
  });

  test("detect() on a server without GET /models says so", async () => {
    // The loopback server implements only the model calls, like some minimal proxies.
    const detection = await createAdapter(
      { adapter: "http", base_url: `${server.url}/v1`, model: "qwen3:8b" },
      { debateDir: ".", env },
    ).detect();
    expect(detection).toMatchObject({ installed: true, usable: false, path: `${server.url}/v1` });
    expect(detection.hint).toContain("HTTP 404");
  });
});
