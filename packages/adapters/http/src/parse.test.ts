import { describe, expect, it } from "vitest";
import {
  describeHttpError,
  describeNetworkError,
  errorMessageOf,
  parseCompletionBody,
  parseCompletionJson,
  parseCompletionSse,
  sseDataPayloads,
  statusForHttpError,
} from "./parse.js";

// Shapes as sent by Ollama's /v1/chat/completions (non-streamed and streamed).
const ollamaJson = JSON.stringify({
  id: "chatcmpl-316",
  object: "chat.completion",
  created: 1760000000,
  model: "qwen3:8b",
  system_fingerprint: "fp_ollama",
  choices: [
    { index: 0, message: { role: "assistant", content: '{"arguments": []}' }, finish_reason: "stop" },
  ],
  usage: { prompt_tokens: 31, completion_tokens: 9, total_tokens: 40 },
});

const sse = [
  'data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3:8b","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}',
  'data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3:8b","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}',
  'data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3:8b","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}',
  "data: [DONE]",
  "",
].join("\n\n");

describe("parseCompletionJson", () => {
  it("reads cached input from prompt_tokens_details (OpenAI: already part of prompt_tokens)", () => {
    const body = JSON.stringify({
      model: "gpt-5",
      choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 31, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 24 } },
    });
    expect(parseCompletionJson(body).usage).toEqual({
      inputTokens: 31,
      cachedInputTokens: 24,
      outputTokens: 9,
    });
  });
  it("reads text, model and usage", () => {
    expect(parseCompletionJson(ollamaJson)).toEqual({
      text: '{"arguments": []}',
      model: "qwen3:8b",
      usage: { inputTokens: 31, outputTokens: 9 },
      finishReason: "stop",
    });
  });

  it("joins content given as text parts", () => {
    const body = JSON.stringify({
      choices: [
        {
          message: {
            content: [
              { type: "text", text: "a" },
              { type: "text", text: "b" },
            ],
          },
        },
      ],
    });
    expect(parseCompletionJson(body).text).toBe("ab");
  });

  it("flags a body that is not JSON, quoting it", () => {
    const r = parseCompletionJson("<html>Bad gateway</html>");
    expect(r.parseError).toContain("did not answer JSON");
    expect(r.parseError).toContain("<html>Bad gateway</html>");
  });

  it("flags an object without choices, and an error object", () => {
    expect(parseCompletionJson('{"id":"x"}').parseError).toContain("`choices` is missing");
    expect(parseCompletionJson('{"error":{"message":"model crashed"}}').parseError).toContain(
      "model crashed",
    );
  });

  it("marks empty choices", () => {
    expect(parseCompletionJson('{"choices":[],"model":"m"}')).toEqual({
      text: "",
      model: "m",
      noChoices: true,
    });
  });
});

describe("parseCompletionSse", () => {
  it("joins the deltas and keeps the usage chunk", () => {
    expect(parseCompletionSse(sse)).toEqual({
      text: "Hello",
      model: "qwen3:8b",
      usage: { inputTokens: 5, outputTokens: 2 },
      finishReason: "stop",
    });
  });

  it("accepts CRLF framing and multi-line data", () => {
    expect(sseDataPayloads('data: {"a":\r\ndata: 1}\r\n\r\ndata: [DONE]\r\n\r\n')).toEqual([
      '{"a":\n1}',
      "[DONE]",
    ]);
  });

  it("reports a broken event and an error event", () => {
    expect(parseCompletionSse("data: {nope\n\n").parseError).toContain("not JSON");
    expect(parseCompletionSse('data: {"error":{"message":"overloaded"}}\n\n').parseError).toContain(
      "overloaded",
    );
    expect(parseCompletionSse(": keep-alive\n\n").parseError).toContain("no completion chunk");
  });

  it("is chosen by content type or by the body's first line", () => {
    expect(parseCompletionBody(sse, "text/event-stream; charset=utf-8").text).toBe("Hello");
    expect(parseCompletionBody(sse, "application/json").text).toBe("Hello");
    expect(parseCompletionBody(ollamaJson, "application/json").text).toBe('{"arguments": []}');
  });
});

describe("error mapping", () => {
  it("maps HTTP statuses to envelope statuses", () => {
    expect([400, 401, 403, 404, 413, 429, 500, 503].map(statusForHttpError)).toEqual([
      "exit",
      "unavailable",
      "unavailable",
      "unavailable",
      "exit",
      "exit",
      "exit",
      "exit",
    ]);
  });

  it("reads the message of OpenAI, llama.cpp and vLLM error bodies", () => {
    expect(errorMessageOf('{"error":{"message":"bad key","type":"invalid_request_error"}}')).toBe("bad key");
    expect(errorMessageOf('{"error":"model not found"}')).toBe("model not found");
    expect(errorMessageOf('{"object":"error","message":"max_tokens too large","code":400}')).toBe(
      "max_tokens too large",
    );
    expect(errorMessageOf("upstream timeout")).toBeUndefined();
  });

  it("says what to do for 401 and 404", () => {
    expect(describeHttpError(401, '{"error":{"message":"invalid key"}}', { keyEnv: "OLLAMA_KEY" })).toBe(
      "HTTP 401 (not authorized; check $OLLAMA_KEY): invalid key",
    );
    expect(describeHttpError(404, "", {})).toBe("HTTP 404 (wrong base_url or unknown model)");
    expect(describeHttpError(502, "<html>bad gateway</html>", {})).toBe("HTTP 502: <html>bad gateway</html>");
  });

  it("tells a refused connection from a broken one", () => {
    const refused = Object.assign(new TypeError("fetch failed"), {
      cause: { code: "ECONNREFUSED", message: "x" },
    });
    expect(describeNetworkError(refused, "http://127.0.0.1:1/v1")).toEqual({
      status: "unavailable",
      message: "cannot reach http://127.0.0.1:1/v1 (ECONNREFUSED); is the server running?",
    });
    const reset = Object.assign(new TypeError("fetch failed"), {
      cause: { code: "ECONNRESET", message: "socket hang up" },
    });
    expect(describeNetworkError(reset, "http://h/v1")).toEqual({
      status: "exit",
      message: "request to http://h/v1 failed (ECONNRESET): socket hang up",
    });
  });
});

describe("error quotes of a body are redacted before they are cut", () => {
  it("a key cut at the quote's edge leaves no piece of itself", () => {
    const key = ["sk", "proj", "Q8wErTy1UiOp2AsDfGh3JkLzXcVbNm4"].join("-");
    for (let pad = 90; pad < 125; pad++) {
      const body = `${"x".repeat(pad)} ${key} trailing`;
      const message = parseCompletionJson(body).parseError ?? "";
      expect(message).toContain("did not answer JSON");
      for (let i = 0; i + 8 <= key.length; i++)
        expect(message, `pad ${pad}`).not.toContain(key.slice(i, i + 8));
    }
  });
});
