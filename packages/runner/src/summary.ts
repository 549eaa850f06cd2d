import type { DebateState } from "@debatekit/core";
import { cumulativeScores, formatOfState } from "@debatekit/core";
import type { RunSummary } from "./types.js";

/** Why a run stopped, as the loop or a step decides it; `summarize` adds where the debate stands. */
export type RunStop = Pick<RunSummary, "status"> & Partial<RunSummary>;

/** The summary of a run that stopped at `state` after committing `committed` steps. */
export function summarize(state: DebateState, committed: number, rest: RunStop): RunSummary {
  const format = formatOfState(state);
  const standing = format.standing(state);
  // A seat that failed for good leaves the result short of a seat (docs/architecture.md#honest-degradation): say which, with its error.
  const e = rest.status === "failed" ? rest.error : undefined;
  const degraded = [
    ...(standing.degraded ?? []),
    ...(e?.role
      ? [
          {
            cause: "seat_failed" as const,
            message: `the ${e.role}${e.adapter ? ` (${e.adapter})` : ""} failed for good`,
            role: e.role,
            ...(e.adapter ? { adapter: e.adapter } : {}),
            round: state.frontmatter.current_exchange,
            code: e.code,
            error: e.message,
          },
        ]
      : []),
  ];
  return {
    exchange: state.frontmatter.current_exchange,
    phase: state.frontmatter.current_phase,
    cumulative: cumulativeScores(state.scores),
    committed,
    format: format.name,
    standing,
    ...(standing.outcome ? { outcome: standing.outcome } : {}),
    ...(degraded.length > 0 ? { degraded } : {}),
    ...rest,
  };
}
