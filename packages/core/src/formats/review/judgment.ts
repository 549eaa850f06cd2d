import type { ReviewChoice, ReviewFinding, ReviewJudgment } from "@debatekit/schema";
import { quote, ruleError } from "../../errors.js";
import type { RuleError } from "../../types.js";

/** A finding with the judge's classification. */
export type ClassifiedFinding = ReviewFinding & {
  id: string;
  verdict: "valid" | "invalid" | "needs_evidence";
};

/**
 * Checks the judge's answer (docs/architecture.md#formats): every finding of the round classified exactly once, no
 * unknown ids, added findings with evidence, and the recommendation following the rubric's hard rules.
 */
export function checkReviewJudgment(
  judgment: ReviewJudgment,
  findings: readonly ReviewFinding[],
): RuleError[] {
  const errors: RuleError[] = [];
  const ids = new Set(findings.map((f) => f.id));
  const count = new Map<string, number>();
  judgment.classifications.forEach((c, i) => {
    if (!ids.has(c.finding_id))
      errors.push(
        ruleError(
          "JUDGE_FINDING_UNKNOWN",
          `classifications[${i}].finding_id`,
          `no finding ${quote(c.finding_id)} in this round (expected one of ${[...ids].join(", ") || "none"})`,
        ),
      );
    count.set(c.finding_id, (count.get(c.finding_id) ?? 0) + 1);
  });
  for (const f of findings) {
    const n = count.get(f.id!) ?? 0;
    if (n === 0)
      errors.push(
        ruleError(
          "JUDGE_FINDING_UNCLASSIFIED",
          "classifications",
          `expected ${f.id} (${f.title}) to be classified valid, invalid or needs_evidence`,
        ),
      );
    if (n > 1)
      errors.push(
        ruleError(
          "JUDGE_FINDING_TWICE",
          "classifications",
          `expected ${f.id} to be classified once, found ${n} times`,
        ),
      );
  }
  if (errors.length > 0) return errors;
  errors.push(...checkRecommendation(judgment.recommendation, classify(judgment, findings)));
  return errors;
}

/** The round's findings with the judge's verdicts, and the judge's added findings (valid). */
export function classify(judgment: ReviewJudgment, findings: readonly ReviewFinding[]): ClassifiedFinding[] {
  const verdicts = new Map(judgment.classifications.map((c) => [c.finding_id, c.verdict]));
  return findings.map((f) => {
    let verdict = verdicts.get(f.id!) ?? "needs_evidence";
    // Evidence the engine could not find cannot be made valid by the judge's say-so.
    if (f.evidence_status === "needs_evidence" && verdict === "valid") verdict = "needs_evidence";
    return { ...f, id: f.id!, verdict };
  });
}

/**
 * The rubric's hard rules: B (accept the critique) needs a valid P1/P2; A (keep the original) is
 * refused while a valid P1 stands; C (compromise) needs a valid finding; D (rebuttal) needs a finding
 * judged invalid or needing evidence, something to rebut. E (stop) is always allowed.
 */
export function checkRecommendation(
  choice: ReviewChoice,
  classified: readonly ClassifiedFinding[],
): RuleError[] {
  const valid = classified.filter((f) => f.verdict === "valid");
  const severe = valid.filter((f) => f.severity === "P1" || f.severity === "P2");
  const broken = (why: string) => [
    ruleError("JUDGE_RECOMMENDATION_RULE", "recommendation", `${choice}: ${why}`),
  ];
  if (choice === "B" && severe.length === 0)
    return broken("accepting the critique needs at least one valid P1 or P2 finding; none is");
  if (choice === "A" && valid.some((f) => f.severity === "P1"))
    return broken(
      `keeping the original is refused while a valid P1 stands (${valid.find((f) => f.severity === "P1")!.id})`,
    );
  if (choice === "C" && valid.length === 0) return broken("a compromise needs at least one valid finding");
  if (choice === "D" && !classified.some((f) => f.verdict !== "valid"))
    return broken("a rebuttal needs a finding judged invalid or needing evidence; every finding is valid");
  return [];
}
