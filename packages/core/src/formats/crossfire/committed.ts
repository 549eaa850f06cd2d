import { quote, ruleError } from "../../errors.js";
import type { RuleError } from "../../types.js";
import { verdictTurns } from "./prompt.js";
import { assignIds, checkTurn } from "./rules.js";
import {
  type CrossfireState,
  summariesOf,
  summaryFile,
  type Turn,
  turnFile,
  turnsOf,
  VERDICT_FILE,
  verdictOf,
} from "./state.js";
import { checkSummary } from "./summary.js";
import { checkVerdict } from "./verdict.js";

const at = (file: string, errors: RuleError[]) =>
  errors.map((e) => ({ ...e, path: `${file}:${e.path || "(root)"}` }));

/**
 * Re-checks a committed crossfire state as read from disk (docs/architecture.md#crash-safe-and-exactly-once): every turn passes the rules it
 * had to pass against the turns before it and carries the engine's ids, round, side and kind; every
 * summary keeps the concessions of the rounds it covers; the verdict cites what exists. A hand edit
 * cannot smuggle in what a model answer could not. Paths are `file:field`.
 */
export function checkCommittedCrossfire(state: CrossfireState): RuleError[] {
  const errors: RuleError[] = [];
  const turns = turnsOf(state);
  const earlier: Turn[] = [];
  for (const turn of turns) {
    const file = turnFile(turn.round, turn.role);
    const data = turn.data;
    errors.push(...at(file, checkTurn(data, turn.role, turn.round, earlier)));
    const expected = assignIds(data, turn.role, turn.round);
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (
      data.round !== turn.round ||
      data.role !== turn.role ||
      data.kind !== expected.kind ||
      !same(
        data.points.map((p) => p.id),
        expected.points.map((p) => p.id),
      ) ||
      !same(
        (data.concessions ?? []).map((c) => c.id),
        (expected.concessions ?? []).map((c) => c.id),
      )
    ) {
      errors.push(
        ruleError(
          "RECORD_IDS_MISMATCH",
          `${file}:points`,
          `${file}: expected round ${turn.round}, role ${turn.role}, kind ${expected.kind} and the ids ${expected.points.map((p) => p.id).join(", ")} the engine assigned, found ${quote({ round: data.round, role: data.role, kind: data.kind, ids: data.points.map((p) => p.id) })}`,
        ),
      );
    }
    earlier.push(turn);
  }
  for (const { round, data: summary } of summariesOf(state)) {
    if (summary.round !== round || summary.covers !== round - 2) {
      errors.push(
        ruleError(
          "RECORD_IDS_MISMATCH",
          `${summaryFile(round)}:round`,
          `${summaryFile(round)}: expected round ${round} covering rounds 1-${round - 2}, found ${quote({ round: summary.round, covers: summary.covers })}`,
        ),
      );
    }
    errors.push(
      ...at(
        summaryFile(round),
        checkSummary(
          summary,
          turns.filter((t) => t.round <= round - 2),
        ),
      ),
    );
  }
  const verdict = verdictOf(state);
  if (verdict) errors.push(...at(VERDICT_FILE, checkVerdict(verdict, verdictTurns(state))));
  // The marker and the verdict agree on the winner (debate.md mirrors verdict.md).
  const fm = state.frontmatter;
  const winner = verdict?.winner;
  if (winner !== undefined && fm.winner !== undefined && fm.winner !== winner) {
    errors.push(
      ruleError(
        "RECORD_IDS_MISMATCH",
        "debate.md:winner",
        `debate.md: \`winner\` must mirror verdict.md (${winner}), found ${quote(fm.winner)}`,
      ),
    );
  }
  return errors;
}
