import type { DebateFrontmatter, ScoresFile } from "@debatekit/schema";
import { ok } from "../../errors.js";
import type { ResetSupport } from "../format.js";
import { panelExchange } from "./judges.js";
import { cumulativeScores } from "./scoring.js";

/**
 * The scores as they stood when exchange `to` began: the kept arguments' scores without the
 * rescores that later exchanges' judgments made (`triggered_by: exchange_<n>`, n >= to).
 */
function scoresBefore(scores: ScoresFile, keptIds: ReadonlySet<string>, to: number): ScoresFile {
  const result: ScoresFile = {};
  for (const [id, record] of Object.entries(scores)) {
    if (!keptIds.has(id)) continue;
    const history = record.history.filter((h) => {
      const by = /^exchange_(\d+)$/.exec(h.triggered_by ?? "");
      return !by || Number(by[1]) < to;
    });
    if (history.length === 0) continue;
    result[id] = { current_score: history.at(-1)!.score, history };
  }
  return result;
}

/**
 * formal starts again at exchange `to`, awaiting arguments: the arguments of earlier exchanges stay
 * with their scores as they stood then, the panel records and the judges' `reliability` of the
 * exchanges undone go, and the cumulative scores are counted again. scores.json is always written.
 */
export const formalReset: ResetSupport<DebateFrontmatter> = {
  supported: true,
  start: 0,
  plan(state, to) {
    const { reliability: _figures, ...kept } = state.frontmatter;
    const args = state.arguments.filter((a) => a.frontmatter.exchange < to);
    const scores = scoresBefore(state.scores, new Set(args.map((a) => a.frontmatter.id)), to);
    const frontmatter: DebateFrontmatter = {
      ...kept,
      current_exchange: to,
      current_phase: "awaiting_arguments",
      cumulative_scores: cumulativeScores(scores),
    };
    const records = state.records?.filter((r) => {
      const exchange = panelExchange(r.file);
      return exchange !== undefined && exchange < to;
    });
    return ok({
      state: { ...state, frontmatter, arguments: args, scores, ...(records ? { records } : {}) },
      writeScores: true,
    });
  },
};
