import type { ReviewChoice } from "@debatekit/schema";
import { fail, ok, quote, ruleError } from "../../errors.js";
import type { Result } from "../../types.js";

const CHOICES = ["A", "B", "C", "D", "E"] as const;

/** What each choice means, in words for people: every face shows a choice with these, never the letter alone. */
export const DECISION_LABELS: Readonly<Record<ReviewChoice, string>> = {
  A: "keep the original",
  B: "accept the critique",
  C: "compromise",
  D: "continue with a rebuttal",
  E: "stop",
};

/** A choice with its meaning: `B: accept the critique`. */
export function labelDecision(choice: ReviewChoice): string {
  return `${choice}: ${DECISION_LABELS[choice]}`;
}

/** A person's decision as written in debate.md's `decision:` key or an inbox file (`B`, `b`, `decision: C`). */
export function parseDecision(value: unknown, where: string): Result<ReviewChoice> {
  const text =
    typeof value === "string"
      ? value
          .trim()
          .replace(/^decision\s*:\s*/i, "")
          .trim()
          .toUpperCase()
      : value;
  if (
    typeof text === "string" &&
    (CHOICES as readonly string[]).includes(text.slice(0, 1)) &&
    /^[A-E]\b/.test(text)
  )
    return ok(text.slice(0, 1) as ReviewChoice);
  return fail(ruleError("REVIEW_DECISION_INVALID", where, `expected A, B, C, D or E, found ${quote(value)}`));
}

/** What a round's end does: apply a choice, or wait for a person (manual mode, nothing decided yet). */
export type DecisionOutcome =
  | { kind: "apply"; choice: ReviewChoice; by: "auto" | "manual" }
  | { kind: "wait" };

/** auto applies the judge's recommendation; manual applies the person's decision, or waits for one. */
export function decide(
  mode: "auto" | "manual",
  recommendation: ReviewChoice,
  manual?: ReviewChoice,
): DecisionOutcome {
  if (mode === "auto") return { kind: "apply", choice: recommendation, by: "auto" };
  return manual ? { kind: "apply", choice: manual, by: "manual" } : { kind: "wait" };
}

/**
 * What a choice does next (docs/architecture.md#formats): A keeps the current version and ends; B has the author
 * materialize the accepted version (unless skipped) and ends; C has the author write v-next and
 * continues; D has the author write a rebuttal and continues; E stops.
 */
export function choiceEffect(
  choice: ReviewChoice,
  skipMaterialize = false,
): { author?: "accepted" | "compromise" | "rebuttal"; ends: boolean } {
  switch (choice) {
    case "A":
      return { ends: true };
    case "B":
      return skipMaterialize ? { ends: true } : { author: "accepted", ends: true };
    case "C":
      return { author: "compromise", ends: false };
    case "D":
      return { author: "rebuttal", ends: false };
    default:
      return { ends: true };
  }
}
