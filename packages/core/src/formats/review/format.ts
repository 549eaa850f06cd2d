import {
  type DebateFrontmatter,
  type Degradation,
  type ReviewArtifact,
  type ReviewChoice,
  type ReviewFrontmatter,
  type SeatConfig,
  validatePanelResult,
  validateReviewArtifact,
  validateReviewCritique,
  validateReviewFrontmatter,
  validateReviewJudgment,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { ballotOf, FALLBACK_ROLE, isJudgeRole, judgingOf, selfJudging } from "../../judging/panel.js";
import { removeSecrets } from "../../secrets.js";
import type { DebateState, Result, RuleError } from "../../types.js";
import { judgeAsks } from "../formal/judges.js";
import {
  defineFormat,
  type FormatRecord,
  type FormatStep,
  type NewDebateInit,
  type Standing,
} from "../format.js";
import { parseDecision } from "./decision.js";
import { budgetForCall, INTENSITY_PRESETS } from "./guards.js";
import {
  combineJudgments,
  type JudgeAnswer,
  PANEL_NAME,
  panelRound,
  reviewPanelDegradations,
  reviewPanels,
  reviewReliability,
} from "./judges.js";
import { checkReviewJudgment } from "./judgment.js";
import { buildReviewPrompt, reviewTask } from "./prompt.js";
import { reviewReport } from "./report.js";
import { reviewReset } from "./reset.js";
import {
  acceptCritique,
  acceptJudgment,
  buildDecision,
  endRound,
  type ReviewRound,
  type RoundEnd,
  renderReviewSummary,
} from "./round.js";
import {
  ARTIFACT_NAME,
  artifactFile,
  asDebateFrontmatter,
  type CritiqueRecord,
  critiqueFile,
  DECISION_FILE,
  evidenceSources,
  INBOX_NAME,
  isCommitted,
  judgmentFile,
  manualDecision,
  ROUND_NAME,
  rebuttalFile,
  reviewFrontmatter,
  roundsOf,
  SUMMARY_FILE,
  withRecords,
} from "./state.js";

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
  return ruleError(
    "DEBATE_PHASE_MISMATCH",
    "current_phase",
    `expected the ${wanted ?? "nobody"} to answer in ${fm.current_phase} at round ${fm.current_exchange}, not the ${role} (was this step already applied?)`,
  );
}

function budgetLeft(fm: ReviewFrontmatter) {
  return budgetForCall(fm.budget_minutes, fm.spent_ms ?? 0, Number.MAX_SAFE_INTEGER);
}

function record(file: string, frontmatter: object, body: string): FormatRecord {
  return { file, frontmatter: frontmatter as Record<string, unknown>, body };
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

/** summary.md and decision.json of a finished review (derived: rewritten with the commit that finishes it). */
function finalFiles(state: DebateState): Array<{ file: string; content: string }> {
  const fm = reviewFrontmatter(state);
  if (fm.current_phase !== "complete" || !fm.stop_reason || !fm.final_decision) return [];
  const rounds = roundsOf(state);
  const decision = buildDecision({
    debateId: fm.debate_id,
    rounds,
    stop: fm.stop_reason,
    choice: fm.final_decision,
    ...(fm.decided_by ? { by: fm.decided_by } : {}),
    finalVersion: fm.artifact_version ?? 1,
  });
  if (!decision.ok) return [];
  return [
    { file: DECISION_FILE, content: `${JSON.stringify(decision.value, null, 2)}\n` },
    { file: SUMMARY_FILE, content: renderReviewSummary(decision.value, rounds) },
  ];
}

function newReviewDebate(
  init: NewDebateInit,
): Result<{ frontmatter: DebateFrontmatter; warnings: string[] }> {
  type Adapter = SeatConfig["adapter"];
  const seat = (adapter: string): SeatConfig => ({ adapter: adapter as Adapter, ...init.seatDefaults });
  // The critic is "the other model": codex against a claude author, claude against a codex one.
  const author = init.seats.author ?? (init.seats.critic === "claude" ? "codex" : "claude");
  const critic = init.seats.critic ?? (author === "codex" ? "claude" : "codex");
  if (init.judges && init.judges.length > 5)
    return fail(ruleError("JUDGES_TOO_MANY", "judges", `expected 1-5 judges, found ${init.judges.length}`));
  const judge = init.seats.judge ?? author;
  const judges = init.judges ?? [judge];
  const preset = INTENSITY_PRESETS.standard;
  // A panel judge that is the critic's own CLI would classify its own findings: refused unless
  // allowed, as formal and crossfire refuse a judge that is a debater. (A person or recorded
  // answers have no findings of their own to favour.)
  const own = init.judges?.find((j) => j === critic && j !== "manual" && j !== "replay");
  if (own && !init.allowSelfJudging)
    return fail(
      ruleError(
        "SELF_JUDGING",
        "judges",
        `the judge ${own} is also the critic; models favour their own findings, so name another judge, or pass --allow-self-judging`,
      ),
    );
  const warnings = judges
    .filter((j) => j === critic && !init.judges)
    .map(
      (j) =>
        `the judge (${j}) is the critic's adapter: it may favour its own findings; pass --judge with another CLI`,
    );
  const frontmatter: ReviewFrontmatter = {
    debate_id: init.slug,
    format: "review",
    target: "code",
    mode: "auto",
    intensity: "standard",
    max_rounds: init.length ?? preset.max_rounds,
    budget_minutes: preset.budget_minutes,
    current_exchange: 1,
    current_phase: "awaiting_critic",
    artifact_version: 1,
    seats: { author: seat(author), critic: seat(critic), ...(init.judges ? {} : { judge: seat(judge) }) },
    // `--judges`: a panel asked in parallel, decided by majority (the tie rule in judges.ts).
    ...(init.judges
      ? {
          judges: {
            panel: init.judges.map(seat),
            ...(init.allowSelfJudging ? { allow_self_judging: true } : {}),
          },
        }
      : {}),
    created_at: init.now,
  };
  return ok({ frontmatter: asDebateFrontmatter(frontmatter), warnings });
}

/** The review format (docs/architecture.md#formats, fancive `debate`): a critic reviews an artifact, a judge classifies and recommends, the author answers. */
export const reviewFormat = defineFormat<DebateFrontmatter>({
  name: "review",
  roles: [
    { role: "critic", kind: "critic", description: "critiques the artifact" },
    {
      role: "judge",
      kind: "judge",
      description: "classifies the findings and recommends (with a panel: judge_2 .. judge_5 too)",
    },
    {
      role: "fallback_judge",
      kind: "fallback",
      description: "judges when the judge fails (seats.fallback_judge)",
    },
    { role: FALLBACK_ROLE, kind: "fallback", description: "judges when too few of the panel answered" },
    { role: "author", kind: "author", description: "answers and revises" },
    { role: "reporter", kind: "reporter", description: "writes the report's narrative (optional)" },
  ],
  unit: { one: "round", many: "rounds" },
  reset: reviewReset,
  report: reviewReport,
  seats: ["critic", "judge", "author"],
  phases: {
    awaiting_critic: "1-critic",
    awaiting_judge: "2-judge",
    awaiting_author: "3-author",
  },
  folders: ["artifact", "rounds"],
  records: [
    {
      dir: "artifact",
      name: ARTIFACT_NAME,
      validate: (data: unknown) => validateReviewArtifact(data) as never,
    },
    {
      dir: "rounds",
      name: ROUND_NAME,
      // A critique, a judgment or a rebuttal: told apart by their keys.
      validate: (data: unknown) => {
        const d = data as Record<string, unknown> | null;
        if (d && typeof d === "object" && "findings" in d) return validateReviewCritique(data) as never;
        if (d && typeof d === "object" && "classifications" in d)
          return validateReviewJudgment(data) as never;
        return validateReviewArtifact(data) as never;
      },
    },
    {
      dir: "inbox",
      name: INBOX_NAME,
      // A person's `decision: B`; anything else names the field.
      validate: (data: unknown) => {
        const value = (data as { decision?: unknown } | null)?.decision;
        const checked = parseDecision(value, "decision");
        if (checked.ok) return { ok: true, value: { decision: checked.value } } as never;
        return {
          ok: false,
          errors: [{ path: "decision", keyword: "enum", message: checked.errors[0]!.message }],
        } as never;
      },
    },
    // A judge panel's record of each judged round (judges:): every judge's recommendation or error, figures.
    { dir: "judges", name: PANEL_NAME, validate: (data: unknown) => validatePanelResult(data) as never },
  ],
  derivedFiles: (state) => finalFiles(state),
  validateFrontmatter: (data: unknown) => validateReviewFrontmatter(data) as never,
  isRecordCommitted: (frontmatter, file) => {
    const fm = frontmatter as unknown as ReviewFrontmatter;
    // A panel's record is committed with its round's judgment.
    const round = panelRound(file);
    return isCommitted(fm, round === undefined ? file : judgmentFile(round));
  },
  seat(state, role) {
    const fm = reviewFrontmatter(state);
    if (isJudgeRole(role) && fm.judges) {
      const config = judgingOf(fm);
      return config ? ballotOf(config, role)?.seat : undefined;
    }
    const seats = fm.seats;
    return seats ? (seats as unknown as Record<string, SeatConfig | undefined>)[role] : undefined;
  },
  next(state): FormatStep {
    const fm = reviewFrontmatter(state);
    const round = fm.current_exchange;
    if (fm.current_phase === "complete") {
      return {
        kind: "done",
        reason: "complete",
        message: `decision ${fm.final_decision ?? "?"} (${fm.stop_reason ?? "?"}) after ${round} round(s)`,
      };
    }
    if (fm.paused)
      return {
        kind: "blocked",
        reason: "paused",
        message: "debate.md: `paused: true`; set it to false to continue",
      };
    if (!fm.seats) {
      return {
        kind: "blocked",
        reason: "no_seats",
        message: `debate.md has no \`seats\`, so nobody can review; add them to the frontmatter, e.g.\n${SEATS_EXAMPLE}`,
      };
    }
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
  },
  advance(state, _now) {
    const fm = reviewFrontmatter(state);
    if (fm.current_phase === "complete")
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "current_phase",
          "expected a review in progress, found it complete",
        ),
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
    return ok({ ...state, frontmatter: asDebateFrontmatter(next) });
  },
  // Every judge of a panel gets the judge's prompt: a review has no two debaters to hide or reorder.
  prompt: (state, role, options = {}) =>
    buildReviewPrompt(state, isJudgeRole(role) ? "judge" : role, options),
  skillTask: (state, role) => reviewTask(state, isJudgeRole(role) ? "judge" : role),
  parseAnswer(state, role, text): Result<unknown> {
    const fm = reviewFrontmatter(state);
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
  },
  apply(state, given, _now, meta = {}) {
    const fm = reviewFrontmatter(state);
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
    if (!role || !(role in answers)) {
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "current_phase",
          `expected an answer of the ${role ?? "nobody"} for ${fm.current_phase} at round ${round}`,
        ),
      );
    }
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
      added.push(record(critiqueFile(round), critique, renderCritiqueBody(critique)));
      next = { ...spent, current_phase: "awaiting_judge" };
    } else if (role === "judge") {
      const { judgment } = answers.judge as JudgeAnswer;
      const stored = { ...judgment, round };
      added.push(
        record(
          judgmentFile(round),
          stored,
          `# Judgment, round ${round}\n\nRecommendation: ${judgment.recommendation}\n\n${judgment.reasons.map((r) => `- ${r}`).join("\n")}\n`,
        ),
      );
      const withJudgment: DebateState = { ...state, records: withRecords(state, added) };
      const history = [
        ...(spent.history ?? []).filter((h) => h.round !== round),
        { round, recommendation: judgment.recommendation },
      ];
      const base = { ...spent, history, ...(reliability ? { reliability } : {}) };
      added.push(...panel);
      next = afterRoundEnd(
        base,
        endOf(
          base,
          roundsOf({ ...withJudgment, frontmatter: asDebateFrontmatter(base) }),
          manualDecision(state),
        ),
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
          record(rebuttalFile(round), { kind: "rebuttal", round } satisfies ReviewArtifact, work.text),
        );
      } else {
        version++;
        added.push(
          record(
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
      if ((state.records ?? []).some((x) => x.file === r.file))
        return fail(
          ruleError(
            "RECORD_EXISTS",
            r.file,
            `expected a new ${r.file}, found it already committed (was this step already applied?)`,
          ),
        );
    }
    return ok({ ...state, frontmatter: asDebateFrontmatter(next), records: withRecords(state, added) });
  },
  onSeatFailure(state, role, failure, _now) {
    // The one failure policy of a review: a judge that failed for good is replaced, once, by
    // seats.fallback_judge; the failure is kept (the result says it is degraded). Anything else fails the run.
    const fm = reviewFrontmatter(state);
    const seats = fm.seats as unknown as Record<string, SeatConfig | undefined> | undefined;
    const failed = seats?.[role];
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
        frontmatter: asDebateFrontmatter(stopped(spent, "budget", fm.pending?.choice ?? "E", fm.pending?.by)),
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
    return ok({ ...state, frontmatter: asDebateFrontmatter(next) });
  },
  checkCommitted(state) {
    const errors: RuleError[] = [];
    for (const r of roundsOf(state)) {
      if (!r.judgment) continue;
      const all = [...r.critique.findings, ...(r.judgment.added_findings ?? [])];
      for (const e of checkReviewJudgment(r.judgment, all))
        errors.push({ ...e, path: `${judgmentFile(r.round)}:${e.path}` });
    }
    return errors;
  },
  standing(state): Standing {
    const fm = reviewFrontmatter(state);
    const complete = fm.current_phase === "complete";
    const judged = roundsOf(state).filter((r) => r.judgment).length;
    return {
      phase: fm.current_phase,
      progress: { done: judged, total: fm.max_rounds, unit: "round" },
      ...(complete && fm.final_decision
        ? { headline: `decision ${fm.final_decision} (${fm.stop_reason})` }
        : fm.current_phase === "awaiting_decision"
          ? { headline: "waiting for a decision" }
          : {}),
      complete,
      ...(fm.stop_reason === "budget" ? { outcome: "stopped: budget spent" } : {}),
      ...(reviewDegraded(state).length > 0 ? { degraded: reviewDegraded(state) } : {}),
    };
  },
  newOptions: {
    seats: [
      {
        role: "critic",
        description: "who critiques (default: the other model: codex, or claude when codex authors)",
      },
      {
        role: "author",
        description: "who answers and revises (default: claude, or codex when claude critiques)",
      },
      { role: "judge", description: "who classifies the findings and recommends (default: the author)" },
    ],
    length: { flag: "max-rounds", description: "at most this many rounds", default: 3, min: 1, max: 10 },
    panel: true,
    artifact: true,
  },
  newDebate: (init) => newReviewDebate(init),
});

function renderCritiqueBody(c: CritiqueRecord): string {
  const lines = c.findings.map((f) => `- ${f.id} [${f.severity}] ${f.title} (evidence ${f.evidence_status})`);
  return `# Critique, round ${c.round}\n\nRead as ${c.form}; ${c.verified} of ${c.findings.length} finding(s) verified. Agree: ${c.agree ? "yes" : "no"}.\n\n${lines.join("\n") || "- (no findings)"}\n`;
}

/** Why a review's result rests on less than configured: a replaced judge (with its error), a spent budget. */
export function degradedReview(fm: ReviewFrontmatter, judged: number): Degradation[] {
  const out: Degradation[] = (fm.failures ?? []).map((f) => ({
    cause: f.replaced_by ? "fallback_judge" : "seat_failed",
    message: f.replaced_by
      ? `the ${f.role} (${f.adapter}) failed in round ${f.round}; the fallback ${f.role} (${f.replaced_by}) answered instead`
      : `the ${f.role} (${f.adapter}) failed in round ${f.round}`,
    role: f.role,
    adapter: f.adapter,
    round: f.round,
    code: f.code,
    error: f.message,
  }));
  if (fm.stop_reason === "budget")
    out.push({
      cause: "budget_spent",
      message: `the ${fm.budget_minutes}-minute budget ran out after ${judged} judged round(s) of at most ${fm.max_rounds}, before a decision`,
      configured: fm.max_rounds,
      used: judged,
    });
  return out;
}

/** Everything a review's result rests on less than configured: replaced or failed judges, panel judges, the budget. */
export function reviewDegraded(state: DebateState): Degradation[] {
  const fm = reviewFrontmatter(state);
  const judged = roundsOf(state).filter((r) => r.judgment).length;
  return [...reviewPanelDegradations(state), ...degradedReview(fm, judged)];
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
    const own = selfJudging(config, { critic }).find(
      (f) => f.seat.adapter !== "replay" && f.seat.adapter !== "manual",
    );
    if (own)
      return {
        reason: "self_judging",
        message: `debate.md: the judge \`${own.judge}\` (${own.seat.adapter}${own.seat.model ? ` ${own.seat.model}` : ""}) is the critic's own adapter and model, and models favour their own findings; choose another judge, or set \`judges.allow_self_judging: true\``,
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
