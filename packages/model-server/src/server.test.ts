import { afterEach, describe, expect, test } from "vitest";
import { type ModelServer, startModelServer } from "./server.js";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function dataLines(body: string): unknown[] {
  return body
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)));
}

describe("startModelServer", () => {
  test("streams an Anthropic message whose deltas join to the scripted text and logs the request", async () => {
    server = await startModelServer((req) => `echo:${req.lastUserText}`);
    const res = await fetch(`${server.url}/v1/messages?beta=true`, {
      method: "POST",
      body: JSON.stringify({
        model: "m1",
        stream: true,
        messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = dataLines(await res.text()) as { type: string; delta?: { text?: string } }[];
    expect(events[0]?.type).toBe("message_start");
    expect(events.at(-1)?.type).toBe("message_stop");
    const text = events
      .filter((e) => e.type === "content_block_delta")
      .map((e) => e.delta?.text)
      .join("");
    expect(text).toBe("echo:hi");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ api: "anthropic", model: "m1", lastUserText: "hi" });
  });

  test("answers responses, chat and gemini APIs with the same text", async () => {
    server = await startModelServer(() => "same");
    const post = (path: string, body: unknown) =>
      fetch(`${server!.url}${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.text());
    const responses = dataLines(await post("/v1/responses", { model: "g", input: [] })) as {
      type: string;
      response?: { usage?: unknown };
    }[];
    expect(responses.at(-1)?.type).toBe("response.completed");
    expect(responses.at(-1)?.response?.usage).toBeDefined();
    const chat = await post("/v1/chat/completions", { model: "g", messages: [] });
    expect(chat.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const gem = dataLines(
      await post("/v1beta/models/gm:streamGenerateContent?alt=sse", { contents: [] }),
    ) as {
      candidates: { content: { parts: { text: string }[] } }[];
    }[];
    expect(gem.map((c) => c.candidates[0]?.content.parts[0]?.text).join("")).toBe("same");
    const whole = JSON.parse(await post("/v1beta/models/gm:generateContent", { contents: [] }));
    expect(whole.candidates[0].content.parts[0].text).toBe("same");
    expect(server.requests.map((r) => r.api)).toEqual([
      "openai-responses",
      "openai-chat",
      "gemini-stream",
      "gemini",
    ]);
    expect(server.requests[2]?.model).toBe("gm");
  });

  test("fails with the scripted status in each API's error shape", async () => {
    server = await startModelServer((req) => ({
      error: req.api === "anthropic" ? 401 : 400,
      message: "nope",
    }));
    const a = await fetch(`${server.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(a.status).toBe(401);
    expect(await a.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "nope" },
    });
    const g = await fetch(`${server.url}/v1beta/models/x:generateContent`, { method: "POST", body: "{}" });
    expect(g.status).toBe(400);
    expect(((await g.json()) as { error: unknown }).error).toMatchObject({
      code: 400,
      status: "INVALID_ARGUMENT",
    });
  });

  test("a hang keeps the request open until close() drops it; unknown paths get 404", async () => {
    server = await startModelServer(() => ({ hang: true }));
    const hello = await fetch(`${server.url}/api/hello`, { method: "HEAD" });
    expect(hello.status).toBe(404);
    const pending = fetch(`${server.url}/v1/responses`, { method: "POST", body: "{}" }).then(
      () => "answered",
      () => "dropped",
    );
    const raced = await Promise.race([pending, new Promise((r) => setTimeout(() => r("still open"), 200))]);
    expect(raced).toBe("still open");
    await server.close();
    server = undefined;
    expect(await pending).toBe("dropped");
  });

  test("an error reply with retryAfterMs carries retry-after-ms and retry-after headers", async () => {
    server = await startModelServer(() => ({ error: 429, message: "slow down", retryAfterMs: 1500 }));
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after-ms")).toBe("1500");
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toMatchObject({ error: { message: "slow down", type: "rate_limit_exceeded" } });
  });

  test("the ollama flavor answers stream:false with one chat.completion object and lists its models", async () => {
    server = await startModelServer(() => ({ text: "Yes.", usage: { inputTokens: 9, outputTokens: 2 } }), {
      flavor: "ollama",
      models: ["qwen3:8b"],
    });
    const ask = (stream: boolean) =>
      fetch(`${server!.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "qwen3:8b", stream, messages: [{ role: "user", content: "hi" }] }),
      });
    const json = await ask(false);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toMatchObject({
      object: "chat.completion",
      model: "qwen3:8b",
      system_fingerprint: "fp_ollama",
      choices: [{ message: { role: "assistant", content: "Yes." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 9, completion_tokens: 2 },
    });
    // Asked to stream, it streams.
    expect((await ask(true)).headers.get("content-type")).toBe("text/event-stream");
    const models = await fetch(`${server.url}/v1/models`);
    expect(await models.json()).toMatchObject({ object: "list", data: [{ id: "qwen3:8b" }] });
  });

  test("logs what became of each request: answered, error, or or abandoned by a client gone before the answer", async () => {
    let fail = false;
    server = await startModelServer(() => (fail ? { error: 500 } : "ok"), { delayMs: 300 });
    const ask = (signal?: AbortSignal) =>
      fetch(`${server!.url}/v1/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
        ...(signal ? { signal } : {}),
      }).then((r) => r.text());
    await Promise.all([ask(), ask()]);
    expect(server.requests.map((r) => r.outcome)).toEqual(["answered", "answered"]);
    fail = true;
    await ask();
    expect(server.requests[2]!.outcome).toBe("error");
    // The client hangs up while the server waits: nothing is written, the request is abandoned.
    const hangUp = new AbortController();
    const asked = ask(hangUp.signal).catch(() => "aborted");
    while (server.requests.length < 4) await new Promise((r) => setTimeout(r, 10));
    hangUp.abort();
    expect(await asked).toBe("aborted");
    while (server.requests[3]!.outcome === undefined) await new Promise((r) => setTimeout(r, 10));
    expect(server.requests[3]!.outcome).toBe("abandoned");
    expect(server.inFlight()).toBe(0);
    expect(server.requests[0]!.endedAt! - server.requests[0]!.startedAt).toBeGreaterThan(0);
  });
});
