import type { ReviewChoice } from "@debatekit/schema";
import type { AwaitedDecision } from "../format.js";
import { type ReviewState, roundsOf } from "./state.js";

/** What each choice means to the person making it (docs/architecture.md#formats). */
export const CHOICE_LABELS: Readonly<Record<ReviewChoice, string>> = {
  A: "keep the original",
  B: "accept the critique (the author writes the accepted version)",
  C: "compromise (the author writes a new version, the review goes on)",
  D: "continue with a rebuttal (the author answers, the review goes on)",
  E: "stop",
};

/** The decision a manual review waits for: the choices, and the judge's recommendation and reasons. */
export function awaitedReviewDecision(state: ReviewState): AwaitedDecision | undefined {
  const fm = state.frontmatter;
  if (fm.current_phase !== "awaiting_decision") return undefined;
  const judgment = roundsOf(state).find((r) => r.round === fm.current_exchange)?.judgment;
  return {
    key: "decision",
    choices: Object.entries(CHOICE_LABELS).map(([key, label]) => ({ key, label })),
    ...(judgment ? { recommended: judgment.recommendation } : {}),
    reasons: judgment?.reasons ?? [],
  };
}
