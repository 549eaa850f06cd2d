import type { AwaitedDecision } from "../format.js";
import { DECISION_LABELS } from "./decision.js";
import { type ReviewState, roundsOf } from "./state.js";

/** The decision a manual review waits for: the choices, and the judge's recommendation and reasons. */
export function awaitedReviewDecision(state: ReviewState): AwaitedDecision | undefined {
  const fm = state.frontmatter;
  if (fm.current_phase !== "awaiting_decision") return undefined;
  const judgment = roundsOf(state).find((r) => r.round === fm.current_exchange)?.judgment;
  return {
    key: "decision",
    choices: Object.entries(DECISION_LABELS).map(([key, label]) => ({ key, label })),
    ...(judgment ? { recommended: judgment.recommendation } : {}),
    reasons: judgment?.reasons ?? [],
  };
}
