import type { Judgment } from "@debatekit/schema";
import { fail, ok, quote, ruleError } from "../../errors.js";
import type { ArgumentRecord, DebaterRole, DebateState, NextAction, Result, RuleError } from "../../types.js";
import { blockedBeforeSeats } from "../steps.js";
import { expectedIds } from "./ids.js";
import { checkJudgment } from "./rules/judgment.js";
import { cumulativeScores, recordJudgment } from "./scoring.js";
import { sideCode } from "./sides.js";

const SEATS_EXAMPLE =
  "seats:\n  proposition: { adapter: claude }\n  opposition: { adapter: gemini }\n  judge: { adapter: codex }";

/** What must happen next, from the state alone (docs/architecture.md#the-format-seam): arguments, a judgment, done, or blocked. */
export function nextAction(state: DebateState): NextAction {
  const fm = state.frontmatter;
  if (fm.exchanges === undefined) return { kind: "done", reason: "no_exchanges" };
  // A judgment already due is still given when `exchanges` was lowered below the current exchange.
  // A folder written before `complete` existed is complete awaiting arguments at its last exchange.
  if (fm.current_phase !== "awaiting_judgment" && fm.current_exchange >= fm.exchanges) {
    return { kind: "done", reason: "complete" };
  }
  const blocked = blockedBeforeSeats(fm, SEATS_EXAMPLE, "argue");
  if (blocked) return blocked;
  // `exchanges` was raised in a complete debate: it awaits arguments again (a commit of its own).
  if (fm.current_phase === "complete") return { kind: "reopen", exchange: fm.current_exchange };
  if (fm.current_phase === "awaiting_judgment") return { kind: "judgment", exchange: fm.current_exchange };
  return {
    kind: "arguments",
    exchange: fm.current_exchange,
    task: fm.current_exchange === 0 ? "opening" : "rebuttal",
  };
}

/** Checks that the state is at `phase` of `exchange`; the one guard against applying a step twice. */
export function checkPhase(
  state: DebateState,
  phase: "awaiting_arguments" | "awaiting_judgment",
  exchange: number,
): RuleError[] {
  const fm = state.frontmatter;
  if (fm.current_phase !== phase || fm.current_exchange !== exchange) {
    return [
      ruleError(
        "DEBATE_PHASE_MISMATCH",
        "current_phase",
        `expected ${phase} at exchange ${exchange}, found ${fm.current_phase} at exchange ${fm.current_exchange} (was this step already applied?)`,
      ),
    ];
  }
  const action = nextAction(state);
  if (action.kind === "done" || action.kind === "blocked") {
    return [
      ruleError(
        "DEBATE_NOT_RUNNABLE",
        "",
        action.kind === "done"
          ? `expected a debate with work to do, found it done (${action.reason})`
          : action.message,
      ),
    ];
  }
  return [];
}

function sortArguments(list: ArgumentRecord[]): ArgumentRecord[] {
  return [...list].sort(
    (a, b) =>
      a.frontmatter.exchange - b.frontmatter.exchange ||
      (a.frontmatter.id < b.frontmatter.id ? -1 : a.frontmatter.id > b.frontmatter.id ? 1 : 0),
  );
}

function checkRecords(
  state: DebateState,
  role: DebaterRole,
  exchange: number,
  records: ArgumentRecord[],
): RuleError[] {
  const side = sideCode(role);
  const wanted = expectedIds(side, exchange);
  const got = records.map((r) => r.frontmatter.id);
  const existing = new Set(state.arguments.map((a) => a.frontmatter.id));
  const errors: RuleError[] = [];
  const same = got.length === wanted.length && [...got].sort().every((id, i) => id === wanted[i]);
  if (!same) {
    errors.push(
      ruleError(
        "ARGUMENT_IDS_UNEXPECTED",
        role,
        `expected the ${role}'s arguments ${wanted.join(", ")} for exchange ${exchange}, found ${got.map((id) => quote(id)).join(", ") || "none"}`,
      ),
    );
  }
  records.forEach((record, i) => {
    const fm = record.frontmatter;
    if (fm.side !== side || fm.exchange !== exchange) {
      errors.push(
        ruleError(
          "ARGUMENT_PLACEMENT",
          `${role}[${i}]`,
          `expected side ${side} and exchange ${exchange}, found side ${quote(fm.side)} and exchange ${quote(fm.exchange)}`,
        ),
      );
    }
    if (existing.has(fm.id)) {
      errors.push(
        ruleError(
          "ARGUMENT_EXISTS",
          `${role}[${i}].id`,
          `expected a new argument, found ${quote(fm.id)} already in the debate`,
        ),
      );
    }
  });
  return errors;
}

/**
 * Adds both sides' arguments of `exchange` (from parseSideAnswer) and moves to awaiting_judgment.
 * Refuses unless the state is awaiting_arguments at `exchange`; the input state is not changed.
 */
export function applyArguments(
  state: DebateState,
  exchange: number,
  args: { proposition: ArgumentRecord[]; opposition: ArgumentRecord[] },
): Result<DebateState> {
  const phaseErrors = checkPhase(state, "awaiting_arguments", exchange);
  if (phaseErrors.length > 0) return fail(...phaseErrors);
  const errors = [
    ...checkRecords(state, "proposition", exchange, args.proposition),
    ...checkRecords(state, "opposition", exchange, args.opposition),
  ];
  if (errors.length > 0) return fail(...errors);
  return ok({
    ...state,
    frontmatter: { ...state.frontmatter, current_phase: "awaiting_judgment" },
    arguments: sortArguments([...state.arguments, ...args.proposition, ...args.opposition]),
  });
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Records the judgment of `exchange` (scores, rescores, cumulative scores mirrored into the
 * frontmatter) and moves to exchange + 1: awaiting_arguments, or complete after the last exchange. Refuses unless the state is
 * awaiting_judgment at `exchange`; `now` is the ISO time written into the score history.
 */
export function applyJudgment(
  state: DebateState,
  exchange: number,
  judgment: Judgment,
  now: string,
): Result<DebateState> {
  const phaseErrors = checkPhase(state, "awaiting_judgment", exchange);
  if (phaseErrors.length > 0) return fail(...phaseErrors);
  if (!ISO_TIME.test(now)) {
    return fail(
      ruleError(
        "TIMESTAMP_INVALID",
        "now",
        `expected an ISO 8601 date-time like 2026-01-31T12:00:00Z, found ${quote(now)}`,
      ),
    );
  }
  const errors = checkJudgment(judgment, exchange, state.arguments, state.scores);
  if (errors.length > 0) return fail(...errors);
  const scores = recordJudgment(state.scores, exchange, judgment, now);
  return ok({
    ...state,
    frontmatter: {
      ...state.frontmatter,
      current_exchange: exchange + 1,
      current_phase:
        state.frontmatter.exchanges !== undefined && exchange + 1 >= state.frontmatter.exchanges
          ? "complete"
          : "awaiting_arguments",
      cumulative_scores: cumulativeScores(scores),
    },
    scores,
  });
}

/** A complete debate whose `exchanges` was raised awaits arguments again at its current exchange. */
export function reopenFormal(state: DebateState, _now: string): Result<DebateState> {
  const fm = state.frontmatter;
  const action = nextAction(state);
  if (action.kind !== "reopen") {
    return fail(
      ruleError(
        "DEBATE_PHASE_MISMATCH",
        "current_phase",
        `expected a complete debate whose exchanges was raised, found ${fm.current_phase} at exchange ${fm.current_exchange} of ${fm.exchanges ?? "none"}`,
      ),
    );
  }
  return ok({ ...state, frontmatter: { ...fm, current_phase: "awaiting_arguments" } });
}
