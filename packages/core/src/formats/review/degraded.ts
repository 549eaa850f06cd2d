import type { Degradation, ReviewFrontmatter } from "@debatekit/schema";
import { reviewPanelDegradations } from "./judges.js";
import { type ReviewState, roundsOf } from "./state.js";

/** Why a review's result rests on less than configured: a replaced judge (with its error), a spent budget. */
export function degradedReview(fm: ReviewFrontmatter, judged: number): Degradation[] {
  const out: Degradation[] = (fm.failures ?? []).map((f) => ({
    cause: f.replaced_by ? "fallback_judge" : "seat_failed",
    message: f.replaced_by
      ? `the ${f.role} (${f.adapter}) failed in round ${f.round}; the fallback ${f.role} (${f.replaced_by}) answered instead`
      : `the ${f.role} (${f.adapter}) failed in round ${f.round}`,
    role: f.role,
    adapter: f.adapter,
    round: f.round,
    code: f.code,
    error: f.message,
  }));
  if (fm.stop_reason === "budget")
    out.push({
      cause: "budget_spent",
      message: `the ${fm.budget_minutes}-minute budget ran out after ${judged} judged round(s) of at most ${fm.max_rounds}, before a decision`,
      configured: fm.max_rounds,
      used: judged,
    });
  return out;
}

/** Everything a review's result rests on less than configured: replaced or failed judges, panel judges, the budget. */
export function reviewDegraded(state: ReviewState): Degradation[] {
  const fm = state.frontmatter;
  const judged = roundsOf(state).filter((r) => r.judgment).length;
  return [...reviewPanelDegradations(state), ...degradedReview(fm, judged)];
}
