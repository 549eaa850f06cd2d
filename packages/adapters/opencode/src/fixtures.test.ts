import { loadRecordedFixtures, missingScenarios, recordedFields } from "@debatekit/adapter-kit/testing";
import { describe, expect, test } from "vitest";
import { readOpencodeOutcome } from "./adapter.js";

// Raw outputs of the real opencode recorded by the conformance suite (`pnpm test:cli` with
// DEBATEKIT_RECORD_FIXTURES=1), one folder per CLI version.
const fixtures = loadRecordedFixtures(new URL("../fixtures/", import.meta.url));

describe("recorded opencode outputs", () => {
  test("there are fixtures for plain, resume, 400, 401 and hang", () => {
    expect(missingScenarios(fixtures)).toEqual([]);
  });

  test.each(fixtures)("$label reads to the envelope the real run produced", (fx) => {
    expect(recordedFields(readOpencodeOutcome(fx.outcome, { timeoutMs: fx.timeoutMs }))).toEqual(fx.expected);
  });
});
