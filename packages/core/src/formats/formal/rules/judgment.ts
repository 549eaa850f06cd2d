import type { Judgment, ScoresFile } from "@debatekit/schema";
import { quote, ruleError } from "../../../errors.js";
import { roundScore } from "../../../judging/round.js";
import { MAX_RESCORE_DELTA, SCORE_EPSILON, ZERO_SUM_TOLERANCE } from "../../../limits.js";
import type { ArgumentRecord, RuleError } from "../../../types.js";
import { parseArgumentId } from "../ids.js";

function inRange(value: number): boolean {
  return Number.isFinite(value) && value >= -1 && value <= 1;
}

function checkScores(
  judgment: Judgment,
  exchange: number,
  known: ReadonlyMap<string, ArgumentRecord>,
): RuleError[] {
  const errors: RuleError[] = [];
  const expected = [...known.values()]
    .filter((a) => a.frontmatter.exchange === exchange)
    .map((a) => a.frontmatter.id);
  const seen = new Set<string>();
  let sum = 0;
  let finite = true;
  judgment.scores.forEach((entry, i) => {
    const path = `scores[${i}]`;
    const id = entry.argument_id;
    if (!parseArgumentId(id)) {
      errors.push(
        ruleError(
          "JUDGMENT_ID_INVALID",
          `${path}.argument_id`,
          `expected one of ${expected.join(", ")}, found ${quote(id)}`,
        ),
      );
    } else if (seen.has(id)) {
      errors.push(
        ruleError(
          "JUDGMENT_SCORE_DUPLICATE",
          `${path}.argument_id`,
          `expected each argument scored once, found ${quote(id)} again`,
        ),
      );
    } else if (!known.has(id)) {
      errors.push(
        ruleError(
          "JUDGMENT_SCORE_UNKNOWN_ID",
          `${path}.argument_id`,
          `expected one of this exchange's arguments (${expected.join(", ")}), found ${quote(id)}, which does not exist`,
        ),
      );
    } else if (known.get(id)!.frontmatter.exchange !== exchange) {
      errors.push(
        ruleError(
          "JUDGMENT_SCORE_NOT_CURRENT",
          `${path}.argument_id`,
          `expected only exchange ${exchange}'s arguments (${expected.join(", ")}) in scores, found ${quote(id)} from exchange ${known.get(id)!.frontmatter.exchange}; change an earlier score through \`rescores\``,
        ),
      );
    }
    seen.add(id);
    if (typeof entry.score === "number" && Number.isFinite(entry.score)) sum += entry.score;
    else finite = false;
    if (!inRange(entry.score)) {
      errors.push(
        ruleError(
          "JUDGMENT_SCORE_RANGE",
          `${path}.score`,
          `expected a number in [-1, 1], found ${quote(entry.score)}`,
        ),
      );
    }
  });
  const missing = expected.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    errors.push(
      ruleError(
        "JUDGMENT_SCORE_MISSING",
        "scores",
        `expected a score for every argument of exchange ${exchange} (${expected.join(", ")}), missing ${missing.join(", ")}`,
      ),
    );
  }
  // The sum is told with every other problem (a score out of range, too: its fix must keep the sum
  // at 0), unless an id is wrong or missing or a score is no number: then there is no sum to check.
  const idsRight = errors.every((e) => e.code === "JUDGMENT_SCORE_RANGE");
  if (idsRight && finite && Math.abs(sum) > ZERO_SUM_TOLERANCE) {
    const parts = judgment.scores.map((s) => `${s.argument_id} ${s.score}`).join(", ");
    errors.push(
      ruleError(
        "JUDGMENT_NOT_ZERO_SUM",
        "scores",
        `expected the scores of one exchange to sum to 0 (within ${ZERO_SUM_TOLERANCE}), found ${roundScore(sum)} (${parts})`,
      ),
    );
  }
  return errors;
}

function checkRescores(
  judgment: Judgment,
  exchange: number,
  known: ReadonlyMap<string, ArgumentRecord>,
  scores: ScoresFile,
): RuleError[] {
  const errors: RuleError[] = [];
  const seen = new Set<string>();
  (judgment.rescores ?? []).forEach((entry, i) => {
    const path = `rescores[${i}]`;
    const id = entry.argument_id;
    const target = known.get(id);
    if (!parseArgumentId(id)) {
      errors.push(
        ruleError(
          "JUDGMENT_ID_INVALID",
          `${path}.argument_id`,
          `expected the id of an earlier argument of the debate, found ${quote(id)}`,
        ),
      );
      return;
    }
    if (seen.has(id)) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_DUPLICATE",
          `${path}.argument_id`,
          `expected each argument rescored at most once, found ${quote(id)} again`,
        ),
      );
      return;
    }
    seen.add(id);
    if (!target) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_UNKNOWN_ID",
          `${path}.argument_id`,
          `expected an earlier argument's id, found ${quote(id)}, which does not exist`,
        ),
      );
      return;
    }
    if (target.frontmatter.exchange >= exchange) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_CURRENT",
          `${path}.argument_id`,
          `expected an argument from an exchange before ${exchange}, found ${quote(id)} from exchange ${target.frontmatter.exchange}; score it in \`scores\``,
        ),
      );
      return;
    }
    const record = scores[id];
    if (!record) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_UNSCORED",
          `${path}.argument_id`,
          `expected an argument that has a score, found ${quote(id)}, which was never scored`,
        ),
      );
      return;
    }
    if (
      !Number.isFinite(entry.old_score) ||
      Math.abs(entry.old_score - record.current_score) > SCORE_EPSILON
    ) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_OLD_SCORE",
          `${path}.old_score`,
          `expected the recorded current score of ${id}, ${record.current_score}, found ${quote(entry.old_score)}`,
        ),
      );
    }
    if (!inRange(entry.new_score)) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_RANGE",
          `${path}.new_score`,
          `expected a number in [-1, 1], found ${quote(entry.new_score)}`,
        ),
      );
    } else if (Math.abs(entry.new_score - record.current_score) > MAX_RESCORE_DELTA + SCORE_EPSILON) {
      errors.push(
        ruleError(
          "JUDGMENT_RESCORE_DELTA",
          `${path}.new_score`,
          `expected a change of at most ${MAX_RESCORE_DELTA} from ${record.current_score}, found ${entry.new_score} (a change of ${roundScore(entry.new_score - record.current_score)})`,
        ),
      );
    }
  });
  return errors;
}

/**
 * Checks a schema-valid judgment for `exchange`: exactly that exchange's arguments, each in [-1, 1],
 * summing to 0, and rescores only of earlier, scored arguments with the recorded old score and a
 * change of at most 0.5.
 */
export function checkJudgment(
  judgment: Judgment,
  exchange: number,
  existing: readonly ArgumentRecord[],
  scores: ScoresFile,
): RuleError[] {
  const known = new Map(existing.map((a) => [a.frontmatter.id, a]));
  return [...checkScores(judgment, exchange, known), ...checkRescores(judgment, exchange, known, scores)];
}
