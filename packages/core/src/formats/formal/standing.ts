import type { DebateFrontmatter } from "@debatekit/schema";
import type { DebateState } from "../../types.js";
import type { Standing } from "../format.js";
import { panelDegradations } from "./judges.js";
import { cumulativeScores } from "./scoring.js";

const signed = (n: number) => {
  const v = Math.round(n * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
};

/** Who leads by a score difference: a lead under half a hundredth (scores have two decimals) is a tie. */
function leader(lead: number): string {
  return Math.abs(lead) < 0.005 ? "tie" : lead > 0 ? "proposition" : "opposition";
}

/** Where a formal debate stands: the sides' score totals, and the side ahead (or a tie) once complete. */
export function formalStanding(state: DebateState<DebateFrontmatter>): Standing {
  const fm = state.frontmatter;
  const cumulative = cumulativeScores(state.scores);
  // Complete: judged to the end (`complete`, or awaiting arguments there in a folder written before
  // `complete` existed), or a dialectic-plugin folder without `exchanges`.
  const complete =
    fm.exchanges === undefined ||
    (fm.current_phase !== "awaiting_judgment" && fm.current_exchange >= fm.exchanges);
  const degraded = panelDegradations(state);
  return {
    started:
      state.arguments.length > 0 || fm.current_exchange > 0 || fm.current_phase !== "awaiting_arguments",
    // A complete debate whose `exchanges` was raised awaits arguments (its next run commits that).
    phase:
      fm.exchanges !== undefined && complete
        ? "complete"
        : fm.current_phase === "complete"
          ? "awaiting_arguments"
          : fm.current_phase,
    progress: {
      done: fm.current_exchange,
      ...(fm.exchanges !== undefined ? { total: fm.exchanges } : {}),
      unit: "exchange",
    },
    scores: { proposition: cumulative.proposition.total, opposition: cumulative.opposition.total },
    sides: {
      proposition: signed(cumulative.proposition.total),
      opposition: signed(cumulative.opposition.total),
    },
    columns: [
      { name: "PROP", value: signed(cumulative.proposition.total) },
      { name: "OPP", value: signed(cumulative.opposition.total) },
    ],
    ...(complete ? { winner: leader(cumulative.proposition.total - cumulative.opposition.total) } : {}),
    complete,
    ...(degraded.length > 0 ? { degraded } : {}),
  };
}
