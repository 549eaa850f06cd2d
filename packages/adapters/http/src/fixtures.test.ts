import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readHttpAnswer } from "./adapter.js";

// HTTP answers the adapter read from the loopback model server in the real-endpoint suite
// (`pnpm test:cli` with DEBATEKIT_RECORD_FIXTURES=1), one folder per server shape: `openai-sse`
// (chat completions streamed even for stream:false) and `ollama` (Ollama's /v1 JSON answers).
const root = new URL("../fixtures/", import.meta.url).pathname;
const fixtures = readdirSync(root).flatMap((shape) =>
  readdirSync(join(root, shape)).map((file) => ({ shape, file, path: join(root, shape, file) })),
);

describe("recorded http answers", () => {
  test("each server shape has plain, empty, 400, 401, 404, 429 and 500", () => {
    for (const shape of ["openai-sse", "ollama"]) {
      const names = fixtures.filter((f) => f.shape === shape).map((f) => f.file);
      for (const n of ["plain", "empty", "error-400", "error-401", "error-404", "error-429", "error-500"])
        expect(names).toContain(`${n}.json`);
    }
  });

  for (const { shape, file, path } of fixtures) {
    test(`${shape}/${file} reads to the envelope the real call produced`, () => {
      const fx = JSON.parse(readFileSync(path, "utf8"));
      const call = readHttpAnswer(
        {
          status: fx.httpStatus,
          statusText: fx.statusText,
          contentType: fx.contentType,
          body: fx.body,
          truncated: false,
        },
        { secrets: [], durationMs: 5, keyEnv: "LOOPBACK_KEY" },
      );
      const { status, text, model, usage, error } = call;
      expect({
        status,
        text,
        ...(model ? { model } : {}),
        ...(usage ? { usage } : {}),
        ...(error ? { error } : {}),
      }).toEqual(fx.expected);
      expect(call.raw?.stdout).toBe(fx.body);
    });
  }
});
