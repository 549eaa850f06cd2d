import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProcessOutcome } from "@debatekit/adapter-kit";
import { describe, expect, test } from "vitest";
import { readCopilotOutcome } from "./adapter.js";

// Raw outputs of the real copilot recorded by the conformance suite (`pnpm test:cli` with
// DEBATEKIT_RECORD_FIXTURES=1), one folder per CLI version.
const root = new URL("../fixtures/", import.meta.url).pathname;
const fixtures = readdirSync(root).flatMap((version) =>
  readdirSync(join(root, version)).map((file) => ({ version, file, path: join(root, version, file) })),
);

describe("recorded copilot outputs", () => {
  test("there are fixtures for plain, resume, 400, 401 and hang", () => {
    const names = fixtures.map((f) => f.file);
    for (const n of ["plain", "resume-second", "error-400", "error-401", "hang"])
      expect(names).toContain(`${n}.json`);
  });

  for (const { version, file, path } of fixtures) {
    test(`${version}/${file} reads to the envelope the real run produced`, () => {
      const fx = JSON.parse(readFileSync(path, "utf8"));
      const outcome: ProcessOutcome = {
        stdout: fx.stdout,
        stderr: fx.stderr,
        exitCode: fx.exitCode,
        signal: null,
        timedOut: fx.timedOut,
        cancelled: false,
        truncated: false,
        durationMs: 5,
      };
      const call = readCopilotOutcome(outcome, { timeoutMs: fx.timeoutMs });
      expect(call.status).toBe(fx.expected.status);
      expect(call.text).toBe(fx.expected.text);
      expect(call.sessionId).toBe(fx.expected.sessionId);
      expect(call.usage).toEqual(fx.expected.usage);
      expect(call.error).toBe(fx.expected.error);
    });
  }
});
