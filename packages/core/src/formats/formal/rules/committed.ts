import { ruleError } from "../../../errors.js";
import { roundScore } from "../../../judging/round.js";
import { SCORE_EPSILON } from "../../../limits.js";
import type { ArgumentRecord, DebateState, RuleError } from "../../../types.js";
import { expectedIds, parseArgumentId } from "../ids.js";
import { cumulativeScores } from "../scoring.js";
import { roleOfSide } from "../sides.js";
import { checkTarget } from "./argument.js";

const MAX_LISTED = 10;

function listed(items: readonly string[]): string {
  return items.length > MAX_LISTED
    ? `${items.slice(0, MAX_LISTED).join(", ")}, ... (${items.length} in all)`
    : items.join(", ");
}

/** A rule error about one file of the folder: path `file:field`, message starting with the file. */
function inFile(file: string, error: RuleError): RuleError {
  return { code: error.code, path: `${file}:${error.path}`, message: `${file}: ${error.message}` };
}

/** The links of committed arguments, checked by the very rule a model answer passes (checkTarget). */
function checkLinks(state: DebateState, known: ReadonlyMap<string, ArgumentRecord>): RuleError[] {
  const errors: RuleError[] = [];
  for (const argument of state.arguments) {
    const { id, side, exchange } = argument.frontmatter;
    const file = `arguments/${id}.md`;
    const role = roleOfSide(side);
    const attacks = argument.frontmatter.attacks ?? [];
    const defends = argument.frontmatter.defends ?? [];
    if (exchange === 0 && (attacks.length > 0 || defends.length > 0)) {
      errors.push(
        inFile(
          file,
          ruleError(
            attacks.length > 0 ? "ARGUMENT_ATTACK_IN_OPENING" : "ARGUMENT_DEFENSE_IN_OPENING",
            attacks.length > 0 ? "attacks" : "defends",
            "expected no attacks or defends in an opening (nothing earlier exists to link to)",
          ),
        ),
      );
      continue;
    }
    attacks.forEach((attack, i) => {
      const rule = { kind: "attack" as const, path: `attacks[${i}].target_id`, role, exchange, known };
      errors.push(...checkTarget({ ...rule, targetId: attack.target_id }).map((e) => inFile(file, e)));
    });
    defends.forEach((defense, i) => {
      const rule = { kind: "defense" as const, path: `defends[${i}].target_id`, role, exchange, known };
      errors.push(...checkTarget({ ...rule, targetId: defense.target_id }).map((e) => inFile(file, e)));
    });
  }
  return errors;
}

/** Every score agrees with its own history, and exactly the arguments of judged exchanges are scored. */
function checkScores(state: DebateState, known: ReadonlyMap<string, ArgumentRecord>): RuleError[] {
  const errors: RuleError[] = [];
  const judgedBefore = state.frontmatter.current_exchange;
  const scores = state.scores;
  const error = (code: string, field: string, message: string) =>
    errors.push(inFile("scores.json", ruleError(code, field, message)));
  for (const [id, record] of Object.entries(scores)) {
    const argument = known.get(id);
    if (!argument) continue; // an id that is not committed is the reader's SCORES_UNKNOWN_ID
    const exchange = argument.frontmatter.exchange;
    if (exchange >= judgedBefore) {
      error(
        "SCORES_NOT_JUDGED",
        id,
        `\`${id}\` has a score, but exchange ${exchange} has not been judged (debate.md is at exchange ${judgedBefore}, ${state.frontmatter.current_phase}); expected scores only for exchanges before ${judgedBefore}`,
      );
    }
    const history = record.history;
    const last = history.at(-1);
    if (last && Math.abs(record.current_score - last.score) > SCORE_EPSILON) {
      error(
        "SCORES_HISTORY_MISMATCH",
        `${id}.current_score`,
        `expected \`current_score\` to be the last score of its history, ${last.score}, found ${record.current_score}`,
      );
    }
    history.forEach((entry, i) => {
      if (i === 0 || entry.previous_score === undefined) return;
      const before = history[i - 1]!.score;
      if (Math.abs(entry.previous_score - before) > SCORE_EPSILON) {
        error(
          "SCORES_HISTORY_MISMATCH",
          `${id}.history[${i}].previous_score`,
          `expected \`previous_score\` to be the score before it in the history, ${before}, found ${entry.previous_score}`,
        );
      } else if (
        entry.diff !== undefined &&
        Math.abs(entry.diff - (entry.score - entry.previous_score)) > SCORE_EPSILON
      ) {
        error(
          "SCORES_HISTORY_MISMATCH",
          `${id}.history[${i}].diff`,
          `expected \`diff\` to be score - previous_score, ${roundScore(entry.score - entry.previous_score)}, found ${entry.diff}`,
        );
      }
    });
  }
  for (const argument of state.arguments) {
    const { id, exchange } = argument.frontmatter;
    if (exchange < judgedBefore && scores[id] === undefined) {
      error(
        "SCORES_MISSING",
        id,
        `expected a score for \`${id}\` (exchange ${exchange} was judged: debate.md is at exchange ${judgedBefore}), found none`,
      );
    }
  }
  return errors;
}

/** debate.md's exchange and phase say which arguments are committed; they must all be there. */
function checkExchange(state: DebateState, known: ReadonlyMap<string, ArgumentRecord>): RuleError[] {
  const fm = state.frontmatter;
  const last = fm.current_phase === "awaiting_judgment" ? fm.current_exchange : fm.current_exchange - 1;
  const missing: string[] = [];
  for (let exchange = 0; exchange <= last; exchange++) {
    for (const side of ["prop", "opp"] as const) {
      missing.push(...expectedIds(side, exchange).filter((id) => !known.has(id)));
    }
  }
  if (missing.length === 0) return [];
  return [
    inFile(
      "debate.md",
      ruleError(
        "ARGUMENTS_MISSING",
        "current_exchange",
        `\`current_exchange: ${fm.current_exchange}\` in ${fm.current_phase} says the arguments of exchanges 0 to ${last} are committed, but arguments/ lacks ${listed(missing.map((id) => `${id}.md`))}`,
      ),
    ),
  ];
}

/** The frontmatter's `cumulative_scores` mirror scores.json (the runner writes both in one step). */
function checkCumulative(state: DebateState): RuleError[] {
  const shown = state.frontmatter.cumulative_scores;
  if (!shown) return [];
  const actual = cumulativeScores(state.scores);
  const errors: RuleError[] = [];
  for (const role of ["proposition", "opposition"] as const) {
    const a = actual[role];
    const s = shown[role];
    if (Math.abs(a.total - s.total) > SCORE_EPSILON || a.count !== s.count) {
      errors.push(
        inFile(
          "debate.md",
          ruleError(
            "CUMULATIVE_SCORES_MISMATCH",
            `cumulative_scores.${role}`,
            `expected the ${role}'s total and count from scores.json, { total: ${a.total}, count: ${a.count} }, found { total: ${s.total}, count: ${s.count} }`,
          ),
        ),
      );
    }
  }
  return errors;
}

/**
 * Re-checks a committed formal-format state as read from disk, with the rules a model answer had to
 * pass, so a hand edit cannot smuggle in what an answer could not (docs/architecture.md#crash-safe-and-exactly-once): every attack targets
 * an earlier argument of the other side and every defense one of the side's own (checkTarget), every
 * score agrees with its history, exactly the arguments of judged exchanges are scored, the cumulative
 * scores mirror them, and the arguments debate.md's exchange says exist do. Paths are `file:field`.
 * It is formal's own check (formalFormat.checkCommitted): the registry picked the format, so it
 * does not look at debate.md's `format` again.
 */
export function checkCommittedState(state: DebateState): RuleError[] {
  const known = new Map(
    state.arguments
      .filter((a) => parseArgumentId(a.frontmatter.id) !== undefined)
      .map((a) => [a.frontmatter.id, a]),
  );
  return [
    ...checkExchange(state, known),
    ...checkLinks(state, known),
    ...checkScores(state, known),
    ...checkCumulative(state),
  ];
}
