import type { ReviewFinding } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import {
  agreed,
  converged,
  findingTerms,
  fingerprintFindings,
  newSevereFindings,
  sameFinding,
} from "./fingerprint.js";

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

describe("fingerprints within a round and in any script", () => {
  it("within a round every finding is distinct, however near their lines", () => {
    const round = fingerprintFindings(
      [
        f("P1", "Off-by-one drops the last element", { file: "sum.ts", line: 3 }),
        f("P3", "Name the accumulator sum", { file: "sum.ts", line: 4 }),
        f("P2", "Off-by-one drops the last element", { file: "sum.ts", line: 3 }),
      ],
      [],
    );
    expect(new Set(round.map((x) => x.fingerprint)).size).toBe(3);
  });

  it("across rounds a nearby line alone is not the same finding: the claim must be the same", () => {
    const r1 = fingerprintFindings(
      [f("P1", "Off-by-one drops the last element", { file: "sum.ts", line: 3 })],
      [],
    );
    const r2 = fingerprintFindings([f("P3", "Name the accumulator sum", { file: "sum.ts", line: 4 })], r1);
    expect(r2[0]!.fingerprint).not.toBe(r1[0]!.fingerprint);
    expect(
      sameFinding(
        f("P1", "Bug here", { file: "a.ts", line: 10 }),
        f("P2", "Wrong bound", { file: "a.ts", line: 12 }),
      ),
    ).toBe(false);
    // The same claim in another file is another finding.
    expect(
      sameFinding(
        f("P1", "Off-by-one drops the last element", { file: "a.ts", line: 3 }),
        f("P1", "Off-by-one drops the last element", { file: "b.ts", line: 3 }),
      ),
    ).toBe(false);
  });

  it("titles with no ASCII word are told apart, and a reworded repeat still matches (Japanese, Russian)", () => {
    const ja = fingerprintFindings(
      [f("P1", "ループが最後の要素を落とす"), f("P3", "変数名が分かりにくい"), f("P2", "エラー処理がない")],
      [],
    );
    expect(new Set(ja.map((x) => x.fingerprint)).size).toBe(3);
    const ru = fingerprintFindings(
      [f("P1", "Цикл теряет последний элемент"), f("P3", "Неясное имя переменной")],
      [],
    );
    expect(new Set([...ja, ...ru].map((x) => x.fingerprint)).size).toBe(5);
    const again = fingerprintFindings(
      [f("P1", "ループが最後の要素を落としている"), f("P1", "Цикл теряет последний элемент массива")],
      [...ja, ...ru],
    );
    expect(again[0]!.fingerprint).toBe(ja[0]!.fingerprint);
    expect(again[1]!.fingerprint).toBe(ru[0]!.fingerprint);
    expect(findingTerms(f("P3", "変数名"))).toEqual(new Set(["変数", "数名"]));
  });

  it("another severity or another anchored line never takes an earlier fingerprint, however alike the words", () => {
    const r1 = fingerprintFindings([f("P1", "Loop drops last element", { file: "sum.ts", line: 3 })], []);
    const [p3] = fingerprintFindings(
      [f("P3", "Loop comment: last element wording", { file: "sum.ts", line: 3 })],
      r1,
    );
    expect(p3!.fingerprint).not.toBe(r1[0]!.fingerprint);
    const [moved] = fingerprintFindings(
      [f("P1", "Loop drops the last element", { file: "sum.ts", line: 1 })],
      r1,
    );
    expect(moved!.fingerprint).not.toBe(r1[0]!.fingerprint);
    const [same] = fingerprintFindings(
      [f("P1", "The loop drops the last element", { file: "sum.ts", line: 3 })],
      r1,
    );
    expect(same!.fingerprint).toBe(r1[0]!.fingerprint);
    // A P1 whose evidence was not found is kept as P2 (needs_evidence): the same claim as the P1.
    const [demoted] = fingerprintFindings(
      [
        {
          ...f("P2", "The loop drops the last element", { file: "sum.ts", line: 3 }),
          evidence_status: "needs_evidence",
        },
      ],
      r1,
    );
    expect(demoted!.fingerprint).toBe(r1[0]!.fingerprint);
  });
});
