import {
  type ReviewFrontmatter,
  type SeatConfig,
  validatePanelResult,
  validateReviewArtifact,
  validateReviewCritique,
  validateReviewFrontmatter,
  validateReviewJudgment,
} from "@debatekit/schema";
import { fail, ok, ruleError } from "../../errors.js";
import { ballotOf, isJudgeRole, isSelfJudging, judgingOf, seatWords } from "../../judging/panel.js";
import { seatConfigs } from "../../seats.js";
import type { Result, RuleError } from "../../types.js";
import { defineFormat, type NewDebateInit, type Standing } from "../format.js";
import { awaitedReviewDecision } from "./choices.js";
import { labelDecision, parseDecision } from "./decision.js";
import { reviewDeclaration } from "./declaration.js";
import { reviewDegraded } from "./degraded.js";
import { INTENSITY_PRESETS } from "./guards.js";
import { PANEL_NAME, panelRound } from "./judges.js";
import { checkReviewJudgment } from "./judgment.js";
import {
  advanceReview,
  applyReviewStep,
  failReviewSeat,
  nextReviewStep,
  parseReviewAnswer,
} from "./machine.js";
import { buildReviewPrompt, reviewTask } from "./prompt.js";
import { reviewReport } from "./report.js";
import { reviewReset } from "./reset.js";
import { buildDecision, renderReviewSummary } from "./round.js";
import {
  ARTIFACT_NAME,
  DECISION_FILE,
  INBOX_NAME,
  isCommitted,
  judgmentFile,
  type ReviewState,
  ROUND_NAME,
  roundsOf,
  SUMMARY_FILE,
} from "./state.js";

/** summary.md and decision.json of a finished review (derived: rewritten with the commit that finishes it). */
function finalFiles(state: ReviewState): Array<{ file: string; content: string }> {
  const fm = state.frontmatter;
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
): Result<{ frontmatter: ReviewFrontmatter; warnings: string[] }> {
  type Adapter = SeatConfig["adapter"];
  const seat = (adapter: string, role = ""): SeatConfig => ({
    adapter: adapter as Adapter,
    ...init.seatDefaults,
    ...init.seatSettings?.[role],
  });
  // The critic is "the other model": codex against a claude author, claude against a codex one.
  const author = init.seats.author ?? (init.seats.critic === "claude" ? "codex" : "claude");
  const critic = init.seats.critic ?? (author === "codex" ? "claude" : "codex");
  if (init.judges && init.judges.length > 5)
    return fail(ruleError("JUDGES_TOO_MANY", "judges", `expected 1-5 judges, found ${init.judges.length}`));
  const judge = init.seats.judge ?? author;
  const criticSeat = seat(critic, "critic");
  const panel = init.judges?.map((j) => seat(j));
  const judgeSeat = seat(judge, "judge");
  const preset = INTENSITY_PRESETS.standard;
  // A panel judge that is the critic's own model (isSelfJudging) would classify its own findings:
  // refused unless allowed, as formal refuses a judge that is a debater.
  const own = panel?.find((j) => isSelfJudging(j, criticSeat));
  if (own && !init.allowSelfJudging)
    return fail(
      ruleError(
        "SELF_JUDGING",
        "judges",
        `the judge ${seatWords(own)} is also the critic; models favour their own findings, so name another judge, or pass --allow-self-judging`,
      ),
    );
  const warnings =
    !panel && isSelfJudging(judgeSeat, criticSeat)
      ? [
          `the judge (${seatWords(judgeSeat)}) is the critic's own adapter, model and endpoint: it may favour its own findings; pass --judge with another CLI or model`,
        ]
      : [];
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
    seats: { author: seat(author, "author"), critic: criticSeat, ...(panel ? {} : { judge: judgeSeat }) },
    // `--judges`: a panel asked in parallel, decided by majority (the tie rule in judges.ts).
    ...(init.judges
      ? {
          judges: {
            panel: panel!,
            ...(init.allowSelfJudging ? { allow_self_judging: true } : {}),
          },
        }
      : {}),
    created_at: init.now,
  };
  return ok({ frontmatter, warnings });
}

/** The review format (docs/architecture.md#formats, fancive `debate`): a critic reviews an artifact, a judge classifies and recommends, the author answers. */
export const reviewFormat = defineFormat<ReviewFrontmatter>({
  ...reviewDeclaration,
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
  isRecordCommitted: (fm, file) => {
    // A panel's record is committed with its round's judgment.
    const round = panelRound(file);
    return isCommitted(fm, round === undefined ? file : judgmentFile(round));
  },
  seat(state, role) {
    const fm = state.frontmatter;
    if (isJudgeRole(role) && fm.judges) {
      const config = judgingOf(fm);
      return config ? ballotOf(config, role)?.seat : undefined;
    }
    return seatConfigs(fm)[role];
  },
  next: nextReviewStep,
  awaitingDecision: awaitedReviewDecision,
  advance: advanceReview,
  // Every judge of a panel gets the judge's prompt: a review has no two debaters to hide or reorder.
  prompt: (state, role, options = {}) =>
    buildReviewPrompt(state, isJudgeRole(role) ? "judge" : role, options),
  skillTask: (state, role) => reviewTask(state, isJudgeRole(role) ? "judge" : role),
  parseAnswer: parseReviewAnswer,
  apply: applyReviewStep,
  onSeatFailure: failReviewSeat,
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
    const fm = state.frontmatter;
    const complete = fm.current_phase === "complete";
    const rounds = roundsOf(state);
    const judged = rounds.filter((r) => r.judgment).length;
    return {
      started: rounds.length > 0,
      phase: fm.current_phase,
      progress: { done: judged, total: fm.max_rounds, unit: "round" },
      ...(complete && fm.final_decision
        ? {
            headline: `decision ${labelDecision(fm.final_decision)} (${fm.stop_reason})`,
            result: labelDecision(fm.final_decision),
          }
        : fm.current_phase === "awaiting_decision"
          ? { headline: "waiting for a decision" }
          : {}),
      complete,
      ...(fm.stop_reason === "budget" ? { outcome: "stopped: budget spent" } : {}),
      ...(reviewDegraded(state).length > 0 ? { degraded: reviewDegraded(state) } : {}),
    };
  },
  newDebate: (init) => newReviewDebate(init),
});
