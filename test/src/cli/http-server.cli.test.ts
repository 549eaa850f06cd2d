// The http adapter against the loopback model server in two shapes: an OpenAI-style proxy whose
// chat completions stream SSE even when asked not to, and Ollama's OpenAI-compatible `/v1` API
// (one `chat.completion` JSON object for `stream: false`, `GET /v1/models`). Per shape: a plain
// answer, an empty answer, each HTTP error, a hang the per-seat timeout ends; then a server that
// is not running and detect(). DEBATEKIT_RECORD_FIXTURES=1 saves each answer as a fixture of the
// http package (packages/adapters/http/fixtures/<shape>/).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdapter } from "@debatekit/adapter-http";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { recordHttpFixture } from "./harness.js";

const key = "sk-loopback-0123456789abcdefghij";
const env = { PATH: process.env.PATH ?? "", LOOPBACK_KEY: key };
const request = { prompt: "Argue for the motion. MARK-HTTP", timeoutMs: 10_000, cwd: "." };

function adapterFor(baseUrl: string) {
  return createAdapter(
    { adapter: "http", base_url: baseUrl, model: "qwen3:8b", api_key_env: "LOOPBACK_KEY" },
    { debateDir: ".", env },
  );
}

const shapes = [
  { name: "openai-sse", flavor: "openai", contentType: "text/event-stream" },
  { name: "ollama", flavor: "ollama", contentType: "application/json" },
] as const;

for (const shape of shapes) {
  describe(`http adapter against the loopback server, ${shape.name} shape`, () => {
    let server: ModelServer;
    beforeAll(async () => {
      server = await startModelServer(() => "pong", { flavor: shape.flavor, models: ["qwen3:8b"] });
    });
    afterAll(async () => {
      await server.close();
    });
    const adapter = () => adapterFor(`${server.url}/v1`);

    test("a hostile model's tool call is not acted on: the seat has no tools, the call reads no answer", async () => {
      server.setReply(() => ({ toolCall: { name: "run_shell", arguments: { command: "touch /tmp/x" } } }));
      const before = server.requests.length;
      const call = await adapter().call(request);
      expect(call.status).not.toBe("ok");
      expect(server.requests.slice(before)).toHaveLength(1);
    });

    test("a plain answer: text, model, usage; the key went in the Authorization header", async () => {
      server.setReply(() => ({
        text: "plain answer over http",
        usage: { inputTokens: 21, cachedInputTokens: 16, outputTokens: 5 },
      }));
      const before = server.requests.length;
      const call = await adapter().call(request);
      recordHttpFixture(shape.name, "plain", call);
      expect(call.error).toBeUndefined();
      expect(call).toMatchObject({
        status: "ok",
        text: "plain answer over http",
        model: "qwen3:8b",
        // Ollama reports no cached tokens; an OpenAI server nests them in prompt_tokens_details.
        usage:
          shape.flavor === "ollama"
            ? { inputTokens: 21, outputTokens: 5 }
            : { inputTokens: 21, cachedInputTokens: 16, outputTokens: 5 },
        transport: "http",
      });
      expect(call.raw?.stderr).toBe(`HTTP 200 OK\ncontent-type: ${shape.contentType}`);
      const seen = server.requests.slice(before);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ api: "openai-chat", path: "/v1/chat/completions", model: "qwen3:8b" });
      // An http seat sends no tools: nothing in the request a model could call.
      expect(seen[0]!.toolsOffered).toEqual([]);
      expect(Object.keys(seen[0]!.body as object)).not.toContain("tools");
      expect(seen[0]!.lastUserText).toContain("MARK-HTTP");
      expect(seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
      expect(JSON.stringify(call)).not.toContain(key);
    });

    test("an empty answer is status empty, not ok with no text", async () => {
      server.setReply(() => "");
      const call = await adapter().call(request);
      recordHttpFixture(shape.name, "empty", call);
      expect(call).toMatchObject({
        status: "empty",
        text: "",
        error: "the endpoint answered an empty message (finish_reason stop)",
      });
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
        recordHttpFixture(shape.name, `error-${status}`, call);
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
  });
}

describe("http adapter: reachability and detect()", () => {
  let server: ModelServer;
  let ollama: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
    ollama = await startModelServer(() => "pong", { flavor: "ollama", models: ["qwen3:8b", "llama3.2:3b"] });
  });
  afterAll(async () => {
    await Promise.all([server.close(), ollama.close()]);
  });

  test("a server that is not running is unavailable, with a hint from detect()", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const down = adapterFor(`http://127.0.0.1:${port}/v1`);
    const call = await down.call(request);
    expect(call).toMatchObject({ status: "unavailable", error: expect.stringContaining("ECONNREFUSED") });
    const detection = await down.detect();
    expect(detection).toMatchObject({ adapter: "http", installed: false, usable: false });
    expect(detection.hint).toContain("ollama serve");
  });

  test("detect() on a server without GET /models says so", async () => {
    // The openai-shaped loopback server implements only the model calls, like some minimal proxies.
    const detection = await createAdapter(
      { adapter: "http", base_url: `${server.url}/v1`, model: "qwen3:8b" },
      { debateDir: ".", env },
    ).detect();
    expect(detection).toMatchObject({ installed: true, usable: false, path: `${server.url}/v1` });
    expect(detection.hint).toContain("HTTP 404");
  });

  test("detect() against the Ollama shape: usable when the model is listed, a hint naming the list when not", async () => {
    const listed = await adapterFor(`${ollama.url}/v1`).detect();
    expect(listed).toEqual({ adapter: "http", path: `${ollama.url}/v1`, installed: true, usable: true });
    const missing = await createAdapter(
      { adapter: "http", base_url: `${ollama.url}/v1`, model: "mistral:7b" },
      { debateDir: ".", env },
    ).detect();
    expect(missing).toMatchObject({ installed: true, usable: false });
    expect(missing.hint).toBe("model mistral:7b is not served here (listed: qwen3:8b, llama3.2:3b)");
  });
});
