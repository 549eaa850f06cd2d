import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadRecordedFixtures, missingScenarios, recordedFields } from "./testing.js";

let dir: string;
const recorded = {
  timeoutMs: 1000,
  exitCode: 0,
  timedOut: false,
  stdout: "out",
  stderr: "err",
  expected: { status: "ok", text: "out" },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "adapter-kit-fixtures-"));
  await mkdir(join(dir, "1.0.0"));
  await writeFile(join(dir, "1.0.0", "plain.json"), JSON.stringify(recorded));
  await writeFile(join(dir, "1.0.0", "notes.txt"), "not a fixture");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("recorded fixtures", () => {
  test("load as process outcomes with their expected envelope; other files are skipped", () => {
    const fixtures = loadRecordedFixtures(dir);
    expect(fixtures).toEqual([
      {
        label: "1.0.0/plain.json",
        version: "1.0.0",
        scenario: "plain",
        timeoutMs: 1000,
        outcome: {
          stdout: "out",
          stderr: "err",
          exitCode: 0,
          signal: null,
          timedOut: false,
          cancelled: false,
          truncated: false,
          durationMs: 5,
        },
        expected: { status: "ok", text: "out" },
      },
    ]);
    expect(missingScenarios(fixtures)).toEqual(["resume-second", "error-400", "error-401", "hang"]);
  });

  test("recordedFields keeps only what a fixture pins down", () => {
    const fields = recordedFields({ status: "ok", text: "t", durationMs: 9, transport: "cli", exitCode: 0 });
    expect(fields).toEqual({ status: "ok", text: "t" });
    expect(Object.keys(fields)).not.toContain("durationMs");
  });
});
