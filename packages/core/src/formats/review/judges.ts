import type {
  Degradation,
  PanelResult,
  Reliability,
  ReviewChoice,
  ReviewFinding,
  ReviewJudgment,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { FALLBACK_ROLE, type JudgingConfig, judgingOf } from "../../judging/panel.js";
import {
  panelBallots,
  panelDegradations,
  panelRecord,
  panelResultOf,
  voteFigures,
} from "../../judging/votes.js";
import type { Result } from "../../types.js";
import type { FormatRecord, SeatFailure } from "../format.js";
import { type ClassifiedFinding, checkRecommendation, classify } from "./judgment.js";
import type { ReviewState } from "./state.js";

type Verdict = ClassifiedFinding["verdict"];
/** A checked judge's answer (parseAnswer's value for a judge role). */
export interface JudgeAnswer {
  judgment: ReviewJudgment;
  classified: ClassifiedFinding[];
}

const pad = (n: number) => String(n).padStart(2, "0");
/** The judge panel's record of round `n`: `judges/r01.md`. */
export const panelFile = (round: number) => `judges/r${pad(round)}.md`;
export const PANEL_NAME = /^r(0[1-9]|10)\.md$/;
const PANEL_PATH = /^judges\/r([0-9]{2})\.md$/;
/** The round a judges/ record belongs to, or undefined. */
export function panelRound(file: string): number | undefined {
  const m = PANEL_PATH.exec(file);
  return m ? Number(m[1]) : undefined;
}

/**
 * When the panel has no majority (a tie, or no recommendation given by more than half of the
 * judges that answered), the less final recommendation wins: D (another round: the critic and the
 * judges look again) when the rubric allows it, else the first of B (accept the critique), C
 * (compromise), E (stop), A (keep the original) that a judge recommended and the rubric allows. A
 * split panel never keeps the original over a critique some judge upheld.
 */
export const TIE_ORDER: readonly ReviewChoice[] = ["D", "B", "C", "E", "A"];

/** The panel's verdict on one finding: a strict majority of the judges, else `needs_evidence` (not settled). */
function findingVerdict(verdicts: readonly Verdict[]): Verdict {
  for (const v of ["valid", "invalid", "needs_evidence"] as const)
    if (verdicts.filter((x) => x === v).length * 2 > verdicts.length) return v;
  return "needs_evidence";
}

/** The panel's results committed in judges/, in round order. */
export function reviewPanels(state: ReviewState): PanelResult[] {
  return (state.records ?? [])
    .filter((r) => panelRound(r.file) !== undefined)
    .sort((a, b) => (a.file < b.file ? -1 : 1))
    .map(panelResultOf);
}

/** The review's reliability: every judged round's votes pooled. */
export function reviewReliability(config: JudgingConfig, results: readonly PanelResult[]): Reliability {
  return {
    judges: config.panel.length,
    judged_steps: results.length,
    degraded_steps: results.filter((r) => r.degraded).length,
    figures: voteFigures(results),
  };
}

/**
 * Combines a panel's checked judgments of round `round` (by role; failed roles in `failures`):
 * each finding of the critique gets the verdict a strict majority of the judges gave it (else
 * `needs_evidence`); the recommendation is the one a strict majority gave, else the tie rule
 * (`TIE_ORDER`); a recommendation the rubric refuses against the combined verdicts goes the same
 * way. The findings a judge added come from the first judge of the decision (its ids, its evidence).
 */
export function combineJudgments(
  state: ReviewState,
  round: number,
  findings: readonly ReviewFinding[],
  answers: Readonly<Record<string, unknown>>,
  failures: Readonly<Record<string, SeatFailure>>,
): Result<{ answer: JudgeAnswer; record: FormatRecord; result: PanelResult; config: JudgingConfig }> {
  const config = judgingOf(state.frontmatter);
  if (!config?.blind) return fail(ruleError("JUDGES_MISSING", "judges", "expected a `judges:` panel"));
  const { ballots, byJudge } = panelBallots<ReviewChoice, JudgeAnswer>(
    config,
    answers,
    failures,
    (a) => a.judgment.recommendation,
  );
  if (byJudge.size === 0)
    return fail(
      ruleError("PANEL_NO_ANSWER", "judges", `expected at least one judge's judgment of round ${round}`),
    );
  // A review judge is asked once (no sides to swap): one answer per judge.
  const judges = [...byJudge.entries()].map(([judge, list]) => ({ judge, answer: list[0]! }));
  const classifications = findings.map((f) => {
    const given = judges.map((j) => j.answer.judgment.classifications.find((c) => c.finding_id === f.id));
    const verdict = findingVerdict(given.map((c) => c?.verdict ?? "needs_evidence"));
    const why = judges.map((j, i) => `${j.judge}: ${given[i]?.verdict ?? "-"}`).join(", ");
    return {
      finding_id: f.id!,
      verdict,
      reasoning: clipText(
        `Panel (${why}). ${given.find((c) => c?.verdict === verdict)?.reasoning ?? ""}`.trim(),
        2000,
      ),
    };
  });
  const recs = judges.map((j) => j.answer.judgment.recommendation);
  const majority = (["A", "B", "C", "D", "E"] as const).find(
    (c) => recs.filter((r) => r === c).length * 2 > recs.length,
  );
  const withAdded = (speaker: (typeof judges)[number]) => {
    const added = speaker.answer.judgment.added_findings ?? [];
    const judgment: ReviewJudgment = {
      classifications: [
        ...classifications,
        ...speaker.answer.judgment.classifications.filter((c) => added.some((f) => f.id === c.finding_id)),
      ],
      ...(added.length > 0 ? { added_findings: added } : {}),
      recommendation: "E",
      reasons: [],
    };
    return { judgment, all: [...findings, ...added] };
  };
  const allowed = (choice: ReviewChoice, speaker: (typeof judges)[number]) => {
    const { judgment, all } = withAdded(speaker);
    return checkRecommendation(choice, classify(judgment, all)).length === 0;
  };
  const speakerOf = (choice: ReviewChoice) =>
    judges.find((j) => j.answer.judgment.recommendation === choice) ?? judges[0]!;
  const byMajority = majority && allowed(majority, speakerOf(majority)) ? majority : undefined;
  const decision: ReviewChoice =
    byMajority ?? TIE_ORDER.find((c) => (c === "D" || recs.includes(c)) && allowed(c, speakerOf(c))) ?? "E";
  const rule = byMajority
    ? `${decision} by majority`
    : `${majority ? `${majority} (the majority's) is refused by the rubric on the panel's combined verdicts` : "no majority"}; the tie rule (the less final recommendation) gives ${decision}`;
  const speaker = speakerOf(decision);
  const { judgment: combined, all } = withAdded(speaker);
  const tally = judges.map((j) => `${j.judge}: ${j.answer.judgment.recommendation}`).join(", ");
  const judgment: ReviewJudgment = {
    ...combined,
    recommendation: decision,
    reasons: [
      clipText(`Judge panel (${tally}): ${rule}.`, 1000),
      ...speaker.answer.judgment.reasons.slice(0, 9),
    ],
  };
  const votes = Object.fromEntries(judges.map((j) => [j.judge, j.answer.judgment.recommendation]));
  const fallbackUsed = byJudge.has(FALLBACK_ROLE);
  const base: Omit<PanelResult, "figures"> = {
    step: `r${pad(round)}`,
    configured: config.panel.length,
    answered: byJudge.size,
    quorum: config.quorum,
    degraded: fallbackUsed || byJudge.size < config.panel.length,
    ...(fallbackUsed ? { fallback_used: true } : {}),
    judges: ballots,
    winner: decision,
    votes,
  };
  const made = panelRecord(panelFile(round), base, voteFigures);
  if (!made.ok) return made;
  return ok({
    answer: { judgment, classified: classify(judgment, all) },
    record: made.value.record,
    result: made.value.result,
    config,
  });
}

/**
 * What a review's judged rounds rest on less than configured: a judge that failed while the quorum
 * held (`seat_failed`), or one the fallback judge stood in for (`fallback_judge`, as a replaced
 * `seats.judge` is reported), each with its sanitized error.
 */
export function reviewPanelDegradations(state: ReviewState): Degradation[] {
  return reviewPanels(state).flatMap((r) => {
    const round = Number(r.step.slice(1));
    if (!r.fallback_used) return panelDegradations([r], () => ({ text: `round ${round}`, round }));
    const fallback = r.judges.find((b) => b.role === FALLBACK_ROLE);
    return r.judges
      .filter((b) => b.status === "failed" && b.role !== FALLBACK_ROLE)
      .map((b) => ({
        cause: "fallback_judge" as const,
        message: `the ${b.role} (${b.adapter}) failed in round ${round}; the fallback judge (${fallback?.adapter ?? "?"}) answered instead`,
        role: b.role,
        adapter: b.adapter,
        round,
        ...(b.error ? { code: b.error.code, error: b.error.message } : {}),
        configured: r.configured,
        used: r.answered,
      }));
  });
}
