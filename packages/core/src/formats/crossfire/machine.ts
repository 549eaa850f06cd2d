import {
  type CrossfireFrontmatter,
  type CrossfireSummary,
  type CrossfireTurn,
  type CrossfireVerdict,
  type ValidationResult,
  validateCrossfireSummary,
  validateCrossfireTurn,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { isJudgeRole, judgeAsks, judgingOf, selfJudgingProblem } from "../../judging/panel.js";
import { answerProblems, schemaRuleErrors } from "../../schema-errors.js";
import type { Result, RuleError } from "../../types.js";
import type { FormatStep, SeatFailure, StepMeta } from "../format.js";
import {
  blockedBeforeSeats,
  missingAnswer,
  newRecord,
  recordExists,
  withRecords,
  wrongSeat,
} from "../steps.js";
import { combineVerdicts, PANEL_VERDICT_FILE, parseJudgeVerdict, verdictReliability } from "./judges.js";
import { summaryInput } from "./prompt.js";
import { renderSummary, renderTurn, renderVerdict } from "./render.js";
import { assignIds, checkTurn, turnKind } from "./rules.js";
import {
  type CrossfireSide,
  type CrossfireState,
  summaryFile,
  turnFile,
  turnsOf,
  VERDICT_FILE,
  verdictOf,
} from "./state.js";
import { checkSummary } from "./summary.js";

// Crossfire's state machine (pure): what runs next, the answers it takes, and the moves they make.

type Phase = CrossfireFrontmatter["current_phase"];

/** The seat that answers in each phase that asks one. */
const ROLE_OF_PHASE: Partial<Record<Phase, string>> = {
  awaiting_summary: "summarizer",
  awaiting_proposer: "proposer",
  awaiting_challenger: "challenger",
  awaiting_verdict: "judge",
};

const SEATS_EXAMPLE =
  "seats:\n  proposer: { adapter: codex }\n  challenger: { adapter: gemini }\n  judge: { adapter: claude }";

function phaseError(state: CrossfireState, role: string): RuleError | undefined {
  const fm = state.frontmatter;
  const wanted = ROLE_OF_PHASE[fm.current_phase];
  if (wanted === role || (wanted === "judge" && isJudgeRole(role))) return undefined;
  return wrongSeat(fm, wanted, role, "round");
}

/**
 * Extracts a seat's JSON, checks its shape and then its rules: every problem at once (the rules run
 * on a refused shape too, most basic first).
 */
function parseChecked<T>(
  text: string,
  validate: (data: unknown) => ValidationResult<T>,
  what: string,
  rules: (value: T) => RuleError[],
): Result<T> {
  const json = extractJson(text);
  if (!json.ok) return json;
  const checked = validate(json.value);
  const errors = answerProblems(
    checked.ok ? [] : schemaRuleErrors("ANSWER_SCHEMA", what, checked.errors),
    () => rules((checked.ok ? checked.value : json.value) as T),
  );
  if (!checked.ok || errors.length > 0) return fail(...errors);
  return ok(checked.value);
}

/** The frontmatter after a step: marker moved, other keys kept. */
function moved(
  fm: CrossfireFrontmatter,
  round: number,
  phase: Phase,
  extra: Partial<CrossfireFrontmatter> = {},
): CrossfireFrontmatter {
  return { ...fm, ...extra, current_exchange: round, current_phase: phase };
}

/** The step after the challenger's turn of `round`: the next round (its summary first from round 3), or the verdict. */
function afterChallenger(fm: CrossfireFrontmatter, round: number): { round: number; phase: Phase } {
  if (round >= fm.rounds) return { round, phase: "awaiting_verdict" };
  return { round: round + 1, phase: round + 1 >= 3 ? "awaiting_summary" : "awaiting_proposer" };
}

/** The outcome in words: `aborted`, `uncontested`, `partial (rounds 1-2 of 3)`. */
export function outcomeLabel(fm: CrossfireFrontmatter): string | undefined {
  if (!fm.outcome) return undefined;
  if (fm.outcome === "partial") return `partial (rounds 1-${fm.completed_rounds ?? 0} of ${fm.rounds})`;
  return fm.outcome;
}

/** What must happen next: the seat of the phase, the verdict panel, or why nothing can run. */
export function nextCrossfireStep(state: CrossfireState): FormatStep {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  if (fm.current_phase === "complete") {
    const verdict = verdictOf(state);
    const label = outcomeLabel(fm);
    const winner = verdict?.winner ?? fm.winner ?? "?";
    return {
      kind: "done",
      reason: "complete",
      message: `verdict: ${winner === "tie" ? "a tie (the judge panel is split)" : `the ${winner} wins`}${label ? `, ${label}` : ` after ${fm.rounds} round(s)`}`,
    };
  }
  if (fm.current_phase === "aborted") {
    const failure = fm.failures?.[0];
    return {
      kind: "done",
      reason: "aborted",
      message: `aborted: the proposer failed round 1${failure ? ` (${failure.code}: ${failure.message})` : ""}`,
    };
  }
  const blocked = blockedBeforeSeats(fm, SEATS_EXAMPLE, "argue");
  if (blocked) return blocked;
  const role = ROLE_OF_PHASE[fm.current_phase]!;
  if (role === "judge") {
    if (fm.judges && fm.seats?.judge)
      return {
        kind: "blocked",
        reason: "judges_twice",
        message:
          "debate.md has both `seats.judge` and `judges:`; keep one (a panel in `judges.panel`, or the one judge in `seats.judge`)",
      };
    const config = judgingOf(fm);
    if (!config)
      return {
        kind: "blocked",
        reason: "no_seats",
        message:
          "debate.md names no judge: add `seats.judge`, or a panel in `judges:` (e.g. judges: { panel: [{ adapter: codex }, { adapter: gemini }] })",
      };
    const self = config.blind ? selfJudgingProblem(state, config, ["proposer", "challenger"]) : undefined;
    if (self) return { kind: "blocked", reason: "self_judging", message: self };
    if (config.blind)
      return {
        kind: "ask",
        exchange: round,
        phase: fm.current_phase,
        mode: "parallel",
        ...judgeAsks(config, "verdict"),
        opens: false,
        completed: fm.outcome ? (fm.completed_rounds ?? 0) : round,
      };
  }
  const task =
    role === "summarizer" ? "summary" : role === "judge" ? "verdict" : turnKind(role as CrossfireSide, round);
  const done =
    fm.current_phase === "awaiting_verdict" ? (fm.outcome ? (fm.completed_rounds ?? 0) : round) : round - 1;
  return {
    kind: "ask",
    exchange: round,
    phase: fm.current_phase,
    mode: "sequential",
    asks: [{ role, task }],
    // A round opens with its summary (round 3+) or its proposer.
    opens: fm.current_phase === "awaiting_summary" || (fm.current_phase === "awaiting_proposer" && round < 3),
    completed: done,
  };
}

/** Parses and checks one seat's answer at the current step: a turn, a summary or a verdict. */
export function parseCrossfireAnswer(state: CrossfireState, role: string, text: string): Result<unknown> {
  const wrong = phaseError(state, role);
  if (wrong) return fail(wrong);
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  if (role === "proposer" || role === "challenger") {
    const turn = parseChecked<CrossfireTurn>(
      text,
      validateCrossfireTurn,
      "the turn does not match the expected shape",
      (value) => checkTurn(value, role, round, turnsOf(state)),
    );
    return turn.ok ? ok(assignIds(turn.value, role, round)) : turn;
  }
  if (role === "summarizer") {
    const summary = parseChecked<CrossfireSummary>(
      text,
      validateCrossfireSummary,
      "the summary does not match the expected shape",
      (value) => checkSummary(value, summaryInput(state, round).covered),
    );
    if (!summary.ok) return summary;
    const { round: _r, covers: _c, ...rest } = summary.value;
    return ok({ round, covers: round - 2, ...rest });
  }
  // The verdict: one judge's, or a panel judge's with its labels mapped back to the sides.
  return parseJudgeVerdict(state, role, text);
}

/** The state after the step's checked answer (a verdict panel: every judge's), with its record added. */
export function applyCrossfireStep(
  state: CrossfireState,
  answers: Readonly<Record<string, unknown>>,
  _now: string,
  meta: StepMeta = {},
): Result<CrossfireState> {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  const role = ROLE_OF_PHASE[fm.current_phase];
  if (role === "judge" && judgingOf(fm)?.blind) {
    // A verdict panel: the judges' votes combined; verdict.md and the panel's judges/verdict.md.
    const panel = combineVerdicts(state, answers, meta.failures ?? {});
    if (!panel.ok) return panel;
    const { verdict, record: panelRecord, result, config } = panel.value;
    const taken = [VERDICT_FILE, PANEL_VERDICT_FILE].find((f) =>
      (state.records ?? []).some((r) => r.file === f),
    );
    if (taken) return fail(recordExists(taken));
    const next = moved(fm, round, "complete", {
      winner: verdict.winner,
      reliability: verdictReliability(config, result),
    });
    return ok({
      ...state,
      frontmatter: next,
      records: withRecords(state, [newRecord(VERDICT_FILE, verdict, renderVerdict(verdict)), panelRecord]),
    });
  }
  if (!role || !(role in answers)) return fail(missingAnswer(fm, role, "round"));
  const answer = answers[role];
  let file: string;
  let body: string;
  let next: CrossfireFrontmatter;
  if (role === "proposer" || role === "challenger") {
    const turn = answer as CrossfireTurn;
    if (turn.round !== round || turn.role !== role) {
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "round",
          `expected the ${role}'s turn of round ${round}, found ${turn.role} of round ${turn.round}`,
        ),
      );
    }
    file = turnFile(round, role);
    body = renderTurn(turn);
    const after =
      role === "proposer" ? { round, phase: "awaiting_challenger" as Phase } : afterChallenger(fm, round);
    next = moved(fm, after.round, after.phase);
  } else if (role === "summarizer") {
    file = summaryFile(round);
    body = renderSummary(answer as CrossfireSummary);
    next = moved(fm, round, "awaiting_proposer");
  } else {
    const verdict = answer as CrossfireVerdict;
    file = VERDICT_FILE;
    body = renderVerdict(verdict);
    next = moved(fm, round, "complete", { winner: verdict.winner });
  }
  if ((state.records ?? []).some((r) => r.file === file)) return fail(recordExists(file));
  return ok({
    ...state,
    frontmatter: next,
    records: withRecords(state, [newRecord(file, answer as object, body)]),
  });
}

/** A debater or the summarizer failed: round 1 aborts or goes uncontested, later rounds stop and the verdict uses the rounds done. */
export function failCrossfireSeat(
  state: CrossfireState,
  role: string,
  failure: SeatFailure,
  _now: string,
): Result<CrossfireState> | undefined {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  if (role !== "proposer" && role !== "challenger" && role !== "summarizer") return undefined;
  const failures: NonNullable<CrossfireFrontmatter["failures"]> = [
    ...(fm.failures ?? []),
    {
      role: role as "proposer" | "challenger" | "summarizer",
      round,
      code: clipText(failure.code, 100),
      message: clipText(failure.message, 300),
    },
  ];
  let next: CrossfireFrontmatter;
  if (round === 1 && role === "proposer") {
    next = moved(fm, round, "aborted", { outcome: "aborted", completed_rounds: 0, failures });
  } else if (round === 1 && role === "challenger") {
    next = moved(fm, round, "awaiting_verdict", { outcome: "uncontested", completed_rounds: 0, failures });
  } else {
    // Round 2+: the rounds stop; the verdict uses the completed ones.
    next = moved(fm, round, "awaiting_verdict", {
      outcome: "partial",
      completed_rounds: round - 1,
      failures,
    });
  }
  return ok({ ...state, frontmatter: next });
}
