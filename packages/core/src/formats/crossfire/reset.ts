import type { CrossfireFrontmatter } from "@debatekit/schema";
import { ok } from "../../errors.js";
import type { ResetSupport } from "../format.js";
import { isCommitted } from "./state.js";

/**
 * crossfire starts again at round `to`, awaiting the proposer: the turns and summaries of earlier
 * rounds stay, the verdict goes, and so do the keys the engine wrote when it ended (outcome,
 * completed rounds, failures, winner, the panel's reliability). It keeps no scores.
 */
export const crossfireReset: ResetSupport<CrossfireFrontmatter> = {
  supported: true,
  start: 1,
  plan(state, to) {
    const {
      outcome: _outcome,
      completed_rounds: _completed,
      failures: _failures,
      winner: _winner,
      reliability: _figures,
      ...kept
    } = state.frontmatter;
    const frontmatter = { ...kept, current_exchange: to, current_phase: "awaiting_proposer" as const };
    const records = state.records?.filter((r) => isCommitted(frontmatter, r.file));
    return ok({
      state: {
        ...state,
        frontmatter,
        arguments: [],
        scores: {},
        ...(records ? { records } : {}),
      },
      writeScores: false,
    });
  },
};
