import type { CumulativeScores, Judgment, ScoresFile } from "@debatekit/schema";
import { roundScore } from "../../judging/round.js";
import { parseArgumentId } from "./ids.js";

/** The side of each well-formed argument id seen so far (there are at most 8,000 such ids). */
const sideOfId = new Map<string, "prop" | "opp">();

function sideOf(id: string): "prop" | "opp" | null {
  let side: "prop" | "opp" | null | undefined = sideOfId.get(id);
  if (side === undefined) {
    side = parseArgumentId(id)?.side ?? null;
    // Only well-formed ids are kept, so the map stays bounded whatever keys a file holds.
    if (side !== null) sideOfId.set(id, side);
  }
  return side;
}

/**
 * The sums of each scores object, worked out once: a step reads them several times (the judgment,
 * each commit's event, the summary), and enumerating a new 1,000-key object is what costs. A scores
 * object is never changed in place (recordJudgment and every reader make new ones).
 */
const cumulativeOf = new WeakMap<ScoresFile, CumulativeScores>();

/** Per side, the sum of current scores and the count of scored arguments, derived from scores.json. */
export function cumulativeScores(scores: ScoresFile): CumulativeScores {
  let known = cumulativeOf.get(scores);
  if (known === undefined) {
    known = sumScores(scores);
    cumulativeOf.set(scores, known);
  }
  // A copy: callers may keep or change what they are given.
  return { proposition: { ...known.proposition }, opposition: { ...known.opposition } };
}

function sumScores(scores: ScoresFile): CumulativeScores {
  let propTotal = 0;
  let propCount = 0;
  let oppTotal = 0;
  let oppCount = 0;
  for (const id in scores) {
    if (!Object.hasOwn(scores, id)) continue;
    const side = sideOf(id);
    if (side === "prop") {
      propTotal += scores[id]!.current_score;
      propCount++;
    } else if (side === "opp") {
      oppTotal += scores[id]!.current_score;
      oppCount++;
    }
  }
  return {
    proposition: { total: roundScore(propTotal), count: propCount },
    opposition: { total: roundScore(oppTotal), count: oppCount },
  };
}

/**
 * Records a checked judgment of `exchange` into a new scores file: a first history entry per score,
 * and per rescore an entry with triggered_by `exchange_N`, previous_score and diff. The input is not changed.
 */
export function recordJudgment(
  scores: ScoresFile,
  exchange: number,
  judgment: Judgment,
  now: string,
): ScoresFile {
  // Copy on write: records the judgment does not touch stay the same objects, so what is derived from
  // them (scores.json's text, the graph's nodes) can be reused; a changed record is a new object.
  const next: ScoresFile = { ...scores };
  for (const entry of judgment.scores) {
    next[entry.argument_id] = {
      current_score: entry.score,
      history: [{ score: entry.score, reasoning: entry.reasoning, scored_at: now }],
    };
  }
  for (const entry of judgment.rescores ?? []) {
    const record = next[entry.argument_id];
    if (!record) continue; // checkJudgment refuses rescores of unscored arguments before we get here
    const previous = record.current_score;
    next[entry.argument_id] = {
      current_score: entry.new_score,
      history: [
        ...record.history,
        {
          score: entry.new_score,
          reasoning: entry.reasoning,
          scored_at: now,
          triggered_by: `exchange_${exchange}`,
          previous_score: previous,
          diff: roundScore(entry.new_score - previous),
        },
      ],
    };
  }
  return next;
}
