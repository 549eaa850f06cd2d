import type { ReviewArtifact, ReviewChoice, ReviewFrontmatter, SeatConfig } from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { isJudgeRole, judgeAsks, judgingOf, seatWords, selfJudging } from "../../judging/panel.js";
import { seatConfigs } from "../../seats.js";
import { removeSecrets } from "../../secrets.js";
import type { Result, RuleError } from "../../types.js";
import type { FormatRecord, FormatStep, SeatFailure, StepMeta } from "../format.js";
import {
  blockedBeforeSeats,
  missingAnswer,
  newRecord,
  recordExists,
  withRecords,
  wrongSeat,
} from "../steps.js";
import { labelDecision } from "./decision.js";
import { budgetForCall } from "./guards.js";
import { combineJudgments, type JudgeAnswer, reviewPanels, reviewReliability } from "./judges.js";
import { reviewTask } from "./prompt.js";
import { acceptCritique, acceptJudgment, endRound, type ReviewRound, type RoundEnd } from "./round.js";
import {
  artifactFile,
  type CritiqueRecord,
  critiqueFile,
  evidenceSources,
  judgmentFile,
  manualDecision,
  type ReviewState,
  rebuttalFile,
  roundsOf,
} from "./state.js";

// Review's state machine (pure): what runs next, the answers it takes, and the moves they make.

type Phase = ReviewFrontmatter["current_phase"];

const ROLE_OF_PHASE: Partial<Record<Phase, string>> = {
  awaiting_critic: "critic",
  awaiting_judge: "judge",
  awaiting_author: "author",
};

/** The runner's timeout of a seat without `timeout_ms` (ask-seat's default). */
const DEFAULT_SEAT_TIMEOUT_MS = 600_000;

const SEATS_EXAMPLE =
  "seats:\n  author: { adapter: claude }\n  critic: { adapter: codex }\n  judge: { adapter: claude }";

function phaseError(fm: ReviewFrontmatter, role: string): RuleError | undefined {
  const wanted = ROLE_OF_PHASE[fm.current_phase];
  if (wanted === role || (wanted === "judge" && isJudgeRole(role))) return undefined;
  return wrongSeat(fm, wanted, role, "round");
}

function budgetLeft(fm: ReviewFrontmatter) {
  return budgetForCall(fm.budget_minutes, fm.spent_ms ?? 0, Number.MAX_SAFE_INTEGER);
}

/** The frontmatter once the loop has stopped (the decision and why); the derived files follow from it. */
function stopped(
  fm: ReviewFrontmatter,
  reason: NonNullable<ReviewFrontmatter["stop_reason"]>,
  choice: ReviewChoice,
  by?: "auto" | "manual",
): ReviewFrontmatter {
  const { pending: _p, decision: _d, ...rest } = fm;
  return {
    ...rest,
    current_phase: "complete",
    stop_reason: reason,
    final_decision: choice,
    ...(by ? { decided_by: by } : {}),
  };
}

/** The frontmatter after a round's end is known: the author's task, a stop, or a wait for a person. */
function afterRoundEnd(fm: ReviewFrontmatter, end: RoundEnd): ReviewFrontmatter {
  const round = fm.current_exchange;
  const history = (fm.history ?? []).map((h) =>
    h.round === round && end.kind !== "wait" ? { ...h, applied: end.choice } : h,
  );
  const base = { ...fm, history };
  if (end.kind === "wait") return { ...base, current_phase: "awaiting_decision" };
  if (end.kind === "stop") return stopped(base, end.reason, end.choice, end.by);
  const { decision: _d, ...rest } = base;
  return {
    ...rest,
    current_phase: "awaiting_author",
    pending: {
      choice: end.choice as "B" | "C" | "D",
      task: end.task,
      by: end.by,
      afterwards: end.afterwards,
    },
  };
}

function endOf(
  fm: ReviewFrontmatter,
  rounds: ReviewRound[],
  manual: ReviewFrontmatter["decision"],
): RoundEnd {
  return endRound({
    rounds,
    mode: fm.mode,
    ...(manual ? { manual } : {}),
    maxRounds: fm.max_rounds,
    budgetMinutes: fm.budget_minutes,
    spentMs: fm.spent_ms ?? 0,
    ...(fm.skip_materialize ? { skipMaterialize: true } : {}),
  });
}

/** What must happen next: the seat of the phase, the judge panel, a person's decision, or a stop. */
export function nextReviewStep(state: ReviewState): FormatStep {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  if (fm.current_phase === "complete") {
    return {
      kind: "done",
      reason: "complete",
      message: `decision ${fm.final_decision ? labelDecision(fm.final_decision) : "?"} (${fm.stop_reason ?? "?"}) after ${round} round(s)`,
    };
  }
  const blocked = blockedBeforeSeats(fm, SEATS_EXAMPLE, "review");
  if (blocked) return blocked;
  if (!(state.records ?? []).some((r) => r.file === artifactFile(1))) {
    return {
      kind: "blocked",
      reason: "no_artifact",
      message:
        "artifact/v1.md is missing: create a review with `debate review <path | --scope ... | --text ->`",
    };
  }
  const budget = budgetLeft(fm);
  if (fm.current_phase === "awaiting_decision") {
    if (!manualDecision(state) && !budget.exhausted) {
      return {
        kind: "blocked",
        reason: "decision",
        waiting: true,
        message: `round ${round}: the judge recommends ${fm.history?.find((h) => h.round === round)?.recommendation ?? "?"}; set \`decision: A|B|C|D|E\` in debate.md, or write it as the frontmatter of inbox/decision-r${String(round).padStart(2, "0")}.md, to go on`,
      };
    }
    return {
      kind: "advance",
      reason: "decision",
      message: `applying decision ${manualDecision(state) ?? "E"}`,
    };
  }
  // The budget is checked before every call: once spent, the loop stops without calling anyone.
  if (budget.exhausted) return { kind: "advance", reason: "budget", message: "the budget is spent" };
  const role = ROLE_OF_PHASE[fm.current_phase]!;
  if (role === "judge") {
    const problem = judgesProblem(fm);
    if (problem) return { kind: "blocked", reason: problem.reason, message: problem.message };
    const config = judgingOf(fm);
    if (fm.judges && config)
      return {
        kind: "ask",
        exchange: round,
        phase: fm.current_phase,
        mode: "parallel",
        ...judgeAsks(config, reviewTask(state, "judge")),
        opens: false,
        completed: round - 1,
        timeoutMs: budget.timeoutMs,
      };
  }
  return {
    kind: "ask",
    exchange: round,
    phase: fm.current_phase,
    mode: "sequential",
    asks: [{ role, task: reviewTask(state, role) }],
    opens: fm.current_phase === "awaiting_critic",
    completed: round - 1,
    timeoutMs: budget.timeoutMs,
  };
}

/** The state after a move that asks nobody: a person's decision applied, or the spent budget's stop. */
export function advanceReview(state: ReviewState, _now: string): Result<ReviewState> {
  const fm = state.frontmatter;
  if (fm.current_phase === "complete")
    return fail(
      ruleError("DEBATE_PHASE_MISMATCH", "current_phase", "expected a review in progress, found it complete"),
    );
  let next: ReviewFrontmatter;
  if (budgetLeft(fm).exhausted) {
    next = stopped(fm, "budget", fm.pending?.choice ?? fm.decision ?? "E", fm.pending?.by);
  } else if (fm.current_phase === "awaiting_decision" && manualDecision(state)) {
    next = afterRoundEnd(fm, endOf(fm, roundsOf(state), manualDecision(state)));
  } else {
    return fail(
      ruleError(
        "DEBATE_PHASE_MISMATCH",
        "current_phase",
        `expected a decision or a spent budget to advance, found ${fm.current_phase}`,
      ),
    );
  }
  return ok({ ...state, frontmatter: next });
}

/** Parses and checks one seat's answer at the current step: a critique, a judgment or the author's work. */
export function parseReviewAnswer(state: ReviewState, role: string, text: string): Result<unknown> {
  const fm = state.frontmatter;
  const wrong = phaseError(fm, role);
  if (wrong) return fail(wrong);
  const round = fm.current_exchange;
  const rounds = roundsOf(state);
  if (role === "critic") {
    const critique = acceptCritique(
      text,
      round,
      rounds.filter((r) => r.round < round),
      evidenceSources(state),
    );
    if (!critique.ok) return critique;
    return ok({
      ...critique.value.critique,
      round,
      form: critique.value.form,
      verified: critique.value.verified,
    } satisfies CritiqueRecord);
  }
  if (isJudgeRole(role)) {
    const current = rounds.find((r) => r.round === round);
    if (!current) return fail(noCritique(round));
    return acceptJudgment(text, current, evidenceSources(state));
  }
  // Secrets never reach a file (docs/architecture.md#crash-safe-and-exactly-once): the author's text is redacted before it is kept.
  const body = removeSecrets(text).trim();
  if (!body)
    return fail(
      ruleError(
        "REVIEW_AUTHOR_EMPTY",
        "(answer)",
        `expected the author's ${reviewTask(state, role)} as markdown, found nothing`,
      ),
    );
  return ok({ kind: fm.pending?.task ?? "rebuttal", text: `${body}\n` });
}

/** The state after the step's checked answer (a judge panel: every judge's), with its records added. */
export function applyReviewStep(
  state: ReviewState,
  given: Readonly<Record<string, unknown>>,
  _now: string,
  meta: StepMeta = {},
): Result<ReviewState> {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  const role = ROLE_OF_PHASE[fm.current_phase];
  let answers = given;
  const panel: FormatRecord[] = [];
  let reliability: ReviewFrontmatter["reliability"];
  if (role === "judge" && fm.judges) {
    // A judge panel: the judges' judgments combined into the round's one judgment, and its record.
    const current = roundsOf(state).find((r) => r.round === round);
    if (!current) return fail(noCritique(round));
    const combined = combineJudgments(state, round, current.critique.findings, given, meta.failures ?? {});
    if (!combined.ok) return combined;
    answers = { judge: combined.value.answer };
    panel.push(combined.value.record);
    reliability = reviewReliability(combined.value.config, [...reviewPanels(state), combined.value.result]);
  }
  if (!role || !(role in answers)) return fail(missingAnswer(fm, role, "round"));
  const spent = { ...fm, spent_ms: (fm.spent_ms ?? 0) + Math.max(0, Math.round(meta.spentMs ?? 0)) };
  const added: FormatRecord[] = [];
  let next: ReviewFrontmatter;
  if (role === "critic") {
    const critique = answers.critic as CritiqueRecord;
    if (critique.round !== round)
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "round",
          `expected the critique of round ${round}, found round ${critique.round}`,
        ),
      );
    added.push(newRecord(critiqueFile(round), critique, renderCritiqueBody(critique)));
    next = { ...spent, current_phase: "awaiting_judge" };
  } else if (role === "judge") {
    const { judgment } = answers.judge as JudgeAnswer;
    const stored = { ...judgment, round };
    added.push(
      newRecord(
        judgmentFile(round),
        stored,
        `# Judgment, round ${round}\n\nRecommendation: ${judgment.recommendation}\n\n${judgment.reasons.map((r) => `- ${r}`).join("\n")}\n`,
      ),
    );
    const withJudgment: ReviewState = { ...state, records: withRecords(state, added) };
    const history = [
      ...(spent.history ?? []).filter((h) => h.round !== round),
      { round, recommendation: judgment.recommendation },
    ];
    const base = { ...spent, history, ...(reliability ? { reliability } : {}) };
    added.push(...panel);
    next = afterRoundEnd(
      base,
      endOf(base, roundsOf({ ...withJudgment, frontmatter: base }), manualDecision(state)),
    );
  } else {
    const work = answers.author as { kind: "accepted" | "compromise" | "rebuttal"; text: string };
    const pending = fm.pending;
    if (!pending || pending.task !== work.kind)
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "pending",
          `expected the author's ${pending?.task ?? "nothing"}, found ${work.kind}`,
        ),
      );
    let version = fm.artifact_version ?? 1;
    if (work.kind === "rebuttal") {
      added.push(
        newRecord(rebuttalFile(round), { kind: "rebuttal", round } satisfies ReviewArtifact, work.text),
      );
    } else {
      version++;
      added.push(
        newRecord(
          artifactFile(version),
          { kind: work.kind, version, round } satisfies ReviewArtifact,
          work.text,
        ),
      );
    }
    const { pending: _p, ...rest } = { ...spent, artifact_version: version };
    next =
      pending.afterwards === "continue"
        ? { ...rest, current_exchange: round + 1, current_phase: "awaiting_critic" }
        : stopped(rest, pending.afterwards, pending.choice, pending.by);
  }
  for (const r of added) {
    if ((state.records ?? []).some((x) => x.file === r.file)) return fail(recordExists(r.file));
  }
  return ok({ ...state, frontmatter: next, records: withRecords(state, added) });
}

/** A seat failed for good: the budget's cap stops the loop; a failed judge is replaced once by seats.fallback_judge. */
export function failReviewSeat(
  state: ReviewState,
  role: string,
  failure: SeatFailure,
  _now: string,
): Result<ReviewState> | undefined {
  // The one failure policy of a review: a judge that failed for good is replaced, once, by
  // seats.fallback_judge; the failure is kept (the result says it is degraded). Anything else fails the run.
  const fm = state.frontmatter;
  const failed = seatConfigs(fm)[role];
  const budget = budgetLeft(fm);
  // A call cut short by the budget's cap (what was left, below the seat's own timeout) spent the
  // budget: the loop stops on it, as it would before the next call, and keeps the seat's error.
  if (
    failure.code === "SEAT_TIMEOUT" &&
    failed &&
    !budget.exhausted &&
    budget.timeoutMs < (failed.timeout_ms ?? DEFAULT_SEAT_TIMEOUT_MS)
  ) {
    const failures: NonNullable<ReviewFrontmatter["failures"]> = [
      ...(fm.failures ?? []),
      {
        role: role as "critic",
        round: fm.current_exchange,
        adapter: failed.adapter,
        code: clipText(failure.code, 100),
        message: clipText(failure.message, 300),
      },
    ];
    const spent = { ...fm, failures, spent_ms: Math.ceil(fm.budget_minutes * 60_000) };
    return ok({
      ...state,
      frontmatter: stopped(spent, "budget", fm.pending?.choice ?? "E", fm.pending?.by),
    });
  }
  const fallback = fm.seats?.fallback_judge;
  // With `judges:`, the panel's quorum and `judges.fallback` are the runner's (settled before this).
  if (role !== "judge" || !fm.seats?.judge || !fallback || fm.judges) return undefined;
  if ((fm.failures ?? []).some((f) => f.role === "judge")) return undefined;
  const failures: NonNullable<ReviewFrontmatter["failures"]> = [
    ...(fm.failures ?? []),
    {
      role: "judge",
      round: fm.current_exchange,
      adapter: fm.seats.judge.adapter,
      code: clipText(failure.code, 100),
      message: clipText(failure.message, 300),
      replaced_by: fallback.adapter,
    },
  ];
  const next: ReviewFrontmatter = { ...fm, seats: { ...fm.seats, judge: fallback }, failures };
  return ok({ ...state, frontmatter: next });
}

function renderCritiqueBody(c: CritiqueRecord): string {
  const lines = c.findings.map((f) => `- ${f.id} [${f.severity}] ${f.title} (evidence ${f.evidence_status})`);
  return `# Critique, round ${c.round}\n\nRead as ${c.form}; ${c.verified} of ${c.findings.length} finding(s) verified. Agree: ${c.agree ? "yes" : "no"}.\n\n${lines.join("\n") || "- (no findings)"}\n`;
}

/**
 * Why a review's judges cannot be asked as configured: `seats.judge` and `judges:` both given; the
 * old `seats.fallback_judge` beside `judges:` (one fallback: `judges.fallback`); `swap` (a review
 * judge classifies one critique of one artifact: there are no two sides to reorder); a panel judge
 * that is the critic's own adapter and model (unless `judges.allow_self_judging`); no judge.
 */
function judgesProblem(fm: ReviewFrontmatter): { reason: string; message: string } | undefined {
  if (fm.judges && fm.seats?.judge)
    return {
      reason: "judges_twice",
      message:
        "debate.md has both `seats.judge` and `judges:`; keep one (a panel in `judges.panel`, or the one judge in `seats.judge`)",
    };
  if (fm.judges && fm.seats?.fallback_judge)
    return {
      reason: "fallback_twice",
      message:
        "debate.md has both `seats.fallback_judge` and `judges:`; move the fallback judge to `judges.fallback` (the same role)",
    };
  if (fm.judges?.swap)
    return {
      reason: "swap_not_applicable",
      message:
        "debate.md: `judges.swap` does not apply to a review (its judge classifies one critique: there are no two sides to swap); remove it",
    };
  const config = fm.judges ? judgingOf(fm) : undefined;
  if (config && !config.allowSelfJudging) {
    const critic = fm.seats?.critic as SeatConfig | undefined;
    const own = selfJudging(config, { critic })[0];
    if (own)
      return {
        reason: "self_judging",
        message: `debate.md: the judge \`${own.judge}\` (${seatWords(own.seat)}) is the critic's own adapter, model and endpoint, and models favour their own findings; choose another judge, or set \`judges.allow_self_judging: true\``,
      };
  }
  if (!fm.judges && !fm.seats?.judge)
    return {
      reason: "no_seats",
      message:
        "debate.md names no judge: add `seats.judge`, or a panel in `judges:` (e.g. judges: { panel: [{ adapter: codex }, { adapter: gemini }] })",
    };
  return undefined;
}

/** A judgment asked or applied before its round's critique. */
function noCritique(round: number): RuleError {
  return ruleError(
    "REVIEW_NO_CRITIQUE",
    critiqueFile(round),
    "expected the round's critique before its judgment",
  );
}
