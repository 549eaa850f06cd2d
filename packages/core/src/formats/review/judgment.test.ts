import type { ReviewFinding, ReviewJudgment } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { checkRecommendation, checkReviewJudgment, classify } from "./judgment.js";

const findings: ReviewFinding[] = [
  { id: "r01-f1", severity: "P1", title: "Off-by-one", detail: "", evidence_status: "verified" },
  { id: "r01-f2", severity: "P3", title: "Naming", detail: "", evidence_status: "verified" },
  { id: "r01-f3", severity: "P2", title: "Unproven race", detail: "", evidence_status: "needs_evidence" },
];
const judgment = (
  verdicts: Array<[string, "valid" | "invalid" | "needs_evidence"]>,
  recommendation: ReviewJudgment["recommendation"],
): ReviewJudgment => ({
  classifications: verdicts.map(([finding_id, verdict]) => ({ finding_id, verdict, reasoning: "r" })),
  recommendation,
  reasons: ["because"],
});
const all = (v: "valid" | "invalid"): Array<[string, "valid" | "invalid" | "needs_evidence"]> => [
  ["r01-f1", v],
  ["r01-f2", v],
  ["r01-f3", "needs_evidence"],
];

describe("the judge's classification", () => {
  it("accepts every finding classified once with a recommendation that follows the rules", () => {
    expect(checkReviewJudgment(judgment(all("valid"), "B"), findings)).toEqual([]);
  });
  it("refuses a missing, a doubled and an unknown classification", () => {
    const codes = (j: ReviewJudgment) => checkReviewJudgment(j, findings).map((e) => e.code);
    expect(
      codes(
        judgment(
          [
            ["r01-f1", "valid"],
            ["r01-f2", "valid"],
          ],
          "B",
        ),
      ),
    ).toEqual(["JUDGE_FINDING_UNCLASSIFIED"]);
    expect(codes(judgment([...all("valid"), ["r01-f2", "invalid"]], "B"))).toEqual(["JUDGE_FINDING_TWICE"]);
    expect(codes(judgment([...all("valid"), ["r01-f9", "valid"]], "B"))).toEqual(["JUDGE_FINDING_UNKNOWN"]);
  });
  it("never B without a valid P1/P2", () => {
    const errors = checkReviewJudgment(judgment(all("invalid"), "B"), findings);
    expect(errors.map((e) => [e.code, e.path])).toEqual([["JUDGE_RECOMMENDATION_RULE", "recommendation"]]);
  });
  it("an unverified finding the judge calls valid does not count as valid (no B on it alone)", () => {
    const j = judgment(
      [
        ["r01-f1", "invalid"],
        ["r01-f2", "invalid"],
        ["r01-f3", "valid"],
      ],
      "B",
    );
    expect(classify(j, findings)[2]!.verdict).toBe("needs_evidence");
    expect(checkReviewJudgment(j, findings).map((e) => e.code)).toEqual(["JUDGE_RECOMMENDATION_RULE"]);
  });
  it("A refused while a valid P1 stands; C needs a valid finding; D needs something to rebut; E always", () => {
    const c = (v: "valid" | "invalid") => classify(judgment(all(v), "A"), findings);
    expect(checkRecommendation("A", c("valid"))).toHaveLength(1);
    expect(checkRecommendation("A", c("invalid"))).toEqual([]);
    expect(checkRecommendation("C", c("invalid"))).toHaveLength(1);
    expect(checkRecommendation("C", c("valid"))).toEqual([]);
    const allValid = classify(
      judgment(
        [
          ["r01-f1", "valid"],
          ["r01-f2", "valid"],
        ],
        "D",
      ),
      findings.slice(0, 2),
    );
    expect(checkRecommendation("D", allValid)).toHaveLength(1);
    expect(checkRecommendation("D", c("invalid"))).toEqual([]);
    expect(checkRecommendation("E", [])).toEqual([]);
  });
});
