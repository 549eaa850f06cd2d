import type { ReviewFinding } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { agreed, converged, fingerprintFindings, newSevereFindings, sameFinding } from "./fingerprint.js";

const f = (
  severity: ReviewFinding["severity"],
  title: string,
  evidence?: ReviewFinding["evidence"],
): ReviewFinding => ({
  severity,
  title,
  detail: "",
  ...(evidence ? { evidence } : {}),
});

describe("fingerprints across rounds", () => {
  it("a reworded repeat gets the earlier fingerprint; a new concern a new one", () => {
    const r1 = fingerprintFindings([f("P1", "Off-by-one drops the last item")], []);
    const r2 = fingerprintFindings(
      [
        f("P1", "The final element is skipped by an off-by-one"),
        f("P2", "SQL built by string concatenation"),
      ],
      r1,
    );
    expect(r2[0]!.fingerprint).toBe(r1[0]!.fingerprint);
    expect(r2[1]!.fingerprint).not.toBe(r1[0]!.fingerprint);
    expect(newSevereFindings(r2, r1).map((x) => x.title)).toEqual(["SQL built by string concatenation"]);
  });

  it("the same file and a nearby line is the same finding, whatever the words", () => {
    expect(
      sameFinding(
        f("P1", "Bug here", { file: "a.ts", line: 10 }),
        f("P2", "Wrong bound", { file: "a.ts", line: 12 }),
      ),
    ).toBe(true);
    expect(
      sameFinding(
        f("P1", "Bug here", { file: "a.ts", line: 10 }),
        f("P2", "Wrong bound", { file: "a.ts", line: 30 }),
      ),
    ).toBe(false);
  });

  it("converges after two rounds with no NEW P1/P2, not after 'no P1/P2' once", () => {
    const r1 = fingerprintFindings([f("P1", "Off-by-one drops the last item")], []);
    const r2 = fingerprintFindings([f("P1", "Last item dropped: off by one")], r1);
    const r3 = fingerprintFindings([f("P1", "off-by-one loses the final entry")], [...r1, ...r2]);
    expect(converged([r1])).toBe(false);
    expect(converged([r1, r2])).toBe(false); // round 1 brought a new P1
    expect(converged([r1, r2, r3])).toBe(true); // rounds 2 and 3 only repeat it, reworded
    const r3new = fingerprintFindings([f("P2", "Token logged in plain text")], [...r1, ...r2]);
    expect(converged([r1, r2, r3new])).toBe(false);
  });

  it("agreement only from the flag, and never with a P1/P2", () => {
    expect(agreed({ agree: true, findings: [f("P3", "nit")] })).toBe(true);
    expect(agreed({ agree: true, findings: [f("P2", "real")] })).toBe(false);
    expect(agreed({ agree: false, findings: [] })).toBe(false);
  });
});
