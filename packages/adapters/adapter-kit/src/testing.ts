// Exported as "@debatekit/adapter-kit/testing" only: adapter packages' tests use it, the
// runtime entry point does not (it imports no test framework either).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProcessOutcome } from "./process.js";
import type { SeatCall } from "./types.js";

/** The envelope fields a recorded fixture pins down (`durationMs` and `raw` vary per run). */
export type RecordedEnvelope = Pick<SeatCall, "status" | "text" | "sessionId" | "usage" | "error">;

/** One real CLI run recorded by the conformance suite, read back for a unit test. */
export interface RecordedFixture {
  /** `<cli version>/<scenario>.json`, for test names. */
  label: string;
  version: string;
  scenario: string;
  timeoutMs: number;
  outcome: ProcessOutcome;
  expected: RecordedEnvelope;
}

/** The scenarios `pnpm test:cli` records for every CLI (with DEBATEKIT_RECORD_FIXTURES=1). */
export const recordedScenarios: readonly string[] = [
  "plain",
  "resume-second",
  "error-400",
  "error-401",
  "hang",
];

/** Reads `<dir>/<version>/<scenario>.json` fixtures into process outcomes and expected envelopes. */
export function loadRecordedFixtures(dir: string | URL): RecordedFixture[] {
  const root = typeof dir === "string" ? dir : fileURLToPath(dir);
  return readdirSync(root).flatMap((version) =>
    readdirSync(join(root, version))
      .filter((file) => file.endsWith(".json"))
      .map((file) => {
        const fx = JSON.parse(readFileSync(join(root, version, file), "utf8"));
        return {
          label: `${version}/${file}`,
          version,
          scenario: file.replace(/\.json$/, ""),
          timeoutMs: fx.timeoutMs,
          // Only what the recording keeps; the rest is what any finished run has.
          outcome: {
            stdout: fx.stdout,
            stderr: fx.stderr,
            exitCode: fx.exitCode,
            signal: null,
            timedOut: fx.timedOut,
            cancelled: false,
            truncated: false,
            durationMs: 5,
          },
          expected: fx.expected,
        };
      }),
  );
}

/** The scenarios of {@link recordedScenarios} that have no fixture in `fixtures` (for any version). */
export function missingScenarios(fixtures: readonly RecordedFixture[]): string[] {
  const present = new Set(fixtures.map((f) => f.scenario));
  return recordedScenarios.filter((s) => !present.has(s));
}

/** The fields of `call` that {@link RecordedFixture.expected} holds, for a `toEqual`. */
export function recordedFields(call: SeatCall): RecordedEnvelope {
  return {
    status: call.status,
    text: call.text,
    sessionId: call.sessionId,
    usage: call.usage,
    error: call.error,
  };
}
