import {
  type ReviewChoice,
  type ReviewCritique,
  type ReviewDecision,
  type ReviewFinding,
  type ReviewJudgment,
  validateReviewDecision,
  validateReviewJudgment,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { DEFAULT_CONTEXT_WINDOW, fullFrom } from "../../prompt/template.js";
import { answerProblems, schemaRuleErrors } from "../../schema-errors.js";
import { removeSecrets } from "../../secrets.js";
import type { Result } from "../../types.js";
import { choiceEffect, decide } from "./decision.js";
import { type EvidenceSources, verifyFindings } from "./evidence.js";
import { agreed, converged, fingerprintFindings, latestFindings } from "./fingerprint.js";
import { budgetForCall } from "./guards.js";
import { type ClassifiedFinding, checkReviewJudgment, classify } from "./judgment.js";
import { type CritiqueForm, parseCritique } from "./parse.js";

/** What the author wrote after a decision: the accepted version (B), a compromise v-next (C), a rebuttal (D). */
export interface AuthorWork {
  kind: "accepted" | "compromise" | "rebuttal";
  text: string;
}

/** One round of a review: the checked critique, the judge's classification, the choice applied, the author's work. */
export interface ReviewRound {
  round: number;
  critique: ReviewCritique;
  form: CritiqueForm;
  verified: number;
  judgment?: ReviewJudgment;
  classified?: ClassifiedFinding[];
  applied?: ReviewChoice;
  author?: AuthorWork;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Checks a critic's answer for `round`: parsed from any form, ids `r01-f1..`, evidence checked,
 * fingerprints carried over from earlier rounds (a reworded repeat keeps its fingerprint).
 */
export function acceptCritique(
  text: string,
  round: number,
  earlier: readonly ReviewRound[],
  sources: EvidenceSources,
): Result<Omit<ReviewRound, "judgment" | "classified" | "applied" | "author">> {
  const parsed = parseCritique(text);
  if (!parsed.ok) return parsed;
  // Secrets never reach a file (docs/architecture.md#crash-safe-and-exactly-once): every text of a finding is redacted before it is kept.
  const clean = (t: string) => removeSecrets(t);
  const withIds = parsed.value.critique.findings.map((f, i) => ({
    ...f,
    title: clean(f.title),
    detail: clean(f.detail),
    ...(f.suggestion !== undefined ? { suggestion: clean(f.suggestion) } : {}),
    ...(f.evidence
      ? { evidence: { ...f.evidence, ...(f.evidence.quote ? { quote: clean(f.evidence.quote) } : {}) } }
      : {}),
    id: `r${pad(round)}-f${i + 1}`,
  }));
  const { findings, verified } = verifyFindings(withIds, sources);
  const fingerprinted = fingerprintFindings(
    findings,
    earlier.flatMap((r) => r.critique.findings),
  );
  return ok({
    round,
    critique: { ...parsed.value.critique, findings: fingerprinted },
    form: parsed.value.form,
    verified,
  });
}

/**
 * Checks the judge's answer for a round: the schema, every finding classified exactly once, the
 * recommendation's hard rules. Added findings get `r01-j1..` ids, are evidence-checked, count as valid.
 */
export function acceptJudgment(
  text: string,
  current: ReviewRound,
  sources: EvidenceSources,
): Result<{ judgment: ReviewJudgment; classified: ClassifiedFinding[] }> {
  const json = extractJson(text);
  if (!json.ok) return json;
  // Secrets never reach a file (docs/architecture.md#crash-safe-and-exactly-once): every string of the judgment is redacted first.
  const redacted: unknown = JSON.parse(
    JSON.stringify(json.value, (_key, v: unknown) => (typeof v === "string" ? removeSecrets(v) : v)),
  );
  const checked = validateReviewJudgment(redacted);
  if (!checked.ok)
    // Every problem at once: the classification rules run on the refused judgment too.
    return fail(
      ...answerProblems(
        schemaRuleErrors("ANSWER_SCHEMA", "the judgment does not match the expected shape", checked.errors),
        () => checkReviewJudgment(redacted as ReviewJudgment, current.critique.findings),
      ),
    );
  const added = verifyFindings(
    (checked.value.added_findings ?? []).map((f, i) => ({ ...f, id: `r${pad(current.round)}-j${i + 1}` })),
    sources,
  ).findings;
  const all: ReviewFinding[] = [...current.critique.findings, ...added];
  const judgment: ReviewJudgment = {
    ...checked.value,
    added_findings: added,
    // The judge's own findings are valid unless their evidence was not found.
    classifications: [
      ...checked.value.classifications,
      ...added.map((f) => ({
        finding_id: f.id!,
        verdict: f.evidence_status === "verified" ? ("valid" as const) : ("needs_evidence" as const),
        reasoning: "added by the judge",
      })),
    ],
  };
  const errors = checkReviewJudgment(judgment, all);
  if (errors.length > 0) return fail(...errors);
  return ok({ judgment, classified: classify(judgment, all) });
}

/** Why a review ended. */
export type StopReason = ReviewDecision["stop_reason"];

/** What follows a judged round. */
export type RoundEnd =
  | { kind: "wait" }
  | {
      kind: "author";
      choice: ReviewChoice;
      task: AuthorWork["kind"];
      by: "auto" | "manual";
      afterwards: "continue" | StopReason;
    }
  | { kind: "stop"; reason: StopReason; choice: ReviewChoice; by?: "auto" | "manual" };

/**
 * The end of a judged round (docs/architecture.md#formats). The budget first (no call is made once it is spent),
 * then agreement (the critic's flag with no P1/P2: keep, A), then the decision (auto: the judge's;
 * manual: the person's, or wait). A/B/E end the loop (B after the author materializes the accepted
 * version, unless skipped); C/D go on unless convergence or max_rounds stops them (C's v-next is
 * still written, as the final version).
 */
export function endRound(input: {
  rounds: readonly ReviewRound[];
  mode: "auto" | "manual";
  manual?: ReviewChoice;
  maxRounds: number;
  budgetMinutes: number;
  spentMs: number;
  skipMaterialize?: boolean;
}): RoundEnd {
  const current = input.rounds.at(-1)!;
  const recommendation = current.judgment!.recommendation;
  if (budgetForCall(input.budgetMinutes, input.spentMs, 1).exhausted)
    return { kind: "stop", reason: "budget", choice: "E" };
  if (agreed(current.critique)) return { kind: "stop", reason: "agreed", choice: "A" };
  const decision = decide(input.mode, recommendation, input.manual);
  if (decision.kind === "wait") return decision;
  const effect = choiceEffect(decision.choice, input.skipMaterialize);
  if (effect.ends) {
    return effect.author
      ? {
          kind: "author",
          choice: decision.choice,
          task: effect.author,
          by: decision.by,
          afterwards: "decision",
        }
      : { kind: "stop", reason: "decision", choice: decision.choice, by: decision.by };
  }
  const guard: StopReason | undefined = converged(input.rounds.map((r) => r.critique.findings))
    ? "converged"
    : current.round >= input.maxRounds
      ? "max_rounds"
      : undefined;
  if (guard && decision.choice === "D") return { kind: "stop", reason: guard, choice: "D", by: decision.by };
  return {
    kind: "author",
    choice: decision.choice,
    task: effect.author!,
    by: decision.by,
    afterwards: guard ?? "continue",
  };
}

/** What the critic sees of earlier rounds: its findings with the judge's classification, and the author's answer. */
export function critiqueContext(rounds: readonly ReviewRound[], window = DEFAULT_CONTEXT_WINDOW): string {
  if (rounds.length === 0) return "(first round: no earlier findings)";
  // Rounds before the current block of `window` rounds are compact: their findings (id, severity,
  // title, verdict) stay, the author's text is cut to its first line. The block only grows, so
  // consecutive prompts share their prefix; the latest round, which the critic answers, is in full.
  // (Rounds count from 1, blocks from round 1: rounds 1..window form the first block.)
  const from = fullFrom(rounds.at(-1)!.round - 1, window) + 1;
  return rounds
    .map((r) => {
      const verdicts = new Map((r.classified ?? []).map((f) => [f.id, f.verdict]));
      const lines = r.critique.findings.map(
        (f) =>
          `- ${f.id} [${f.severity}] ${f.title} — judge: ${verdicts.get(f.id!) ?? "not judged"}; evidence: ${f.evidence_status ?? "unchecked"}`,
      );
      const what = r.author && (r.author.kind === "rebuttal" ? "rebuttal" : `${r.author.kind} version`);
      const author = !r.author
        ? ""
        : r.round >= from
          ? `\n\nThe author's ${what}:\n\n${r.author.text.trim()}`
          : `\n\nThe author's ${what} (compact: round ${r.round} is before the last ${window} round(s) kept in full), its first line: ${clipText(r.author.text.trim().split("\n")[0] ?? "", 200)}`;
      return `### Round ${r.round} (decision: ${r.applied ?? "none"})\n\n${lines.join("\n") || "- (no findings)"}${author}`;
    })
    .join("\n\n");
}

type RoundFinding = ClassifiedFinding | ReviewFinding;

/**
 * Each distinct finding of the review once: its latest copy (the judge's classification when there
 * is one), with the ids it had in every round it came up (a repeat keeps its fingerprint).
 */
function followedFindings(rounds: readonly ReviewRound[]): Array<{ finding: RoundFinding; ids: string[] }> {
  const byRound = rounds.map((r): readonly RoundFinding[] => r.classified ?? r.critique.findings);
  const idsOf = new Map<string, string[]>();
  for (const f of byRound.flat())
    if (f.fingerprint && f.id) idsOf.set(f.fingerprint, [...(idsOf.get(f.fingerprint) ?? []), f.id]);
  return latestFindings(byRound).map((finding) => ({
    finding,
    ids: (finding.fingerprint && idsOf.get(finding.fingerprint)) || [finding.id ?? "?"],
  }));
}

const dismissed = (f: RoundFinding) => (f as ClassifiedFinding).verdict === "invalid";

function tally(rounds: readonly ReviewRound[]): ReviewDecision["findings"] {
  // The latest classification of each distinct finding (by fingerprint) counts once.
  const counts = { P1: 0, P2: 0, P3: 0, verified: 0 };
  for (const { finding: f } of followedFindings(rounds)) {
    if (dismissed(f)) continue;
    counts[f.severity]++;
    if (f.evidence_status === "verified") counts.verified++;
  }
  return counts;
}

/** decision.json: checked against its schema (an edge that builds a wrong one is a bug, named). */
export function buildDecision(input: {
  debateId: string;
  rounds: readonly ReviewRound[];
  stop: StopReason;
  choice: ReviewChoice;
  by?: "auto" | "manual";
  finalVersion: number;
}): Result<ReviewDecision> {
  const last = input.rounds.at(-1);
  const unresolved = (last?.classified ?? [])
    .filter((f) => f.verdict === "valid" && (f.severity === "P1" || f.severity === "P2"))
    .filter(() => input.choice !== "B" && input.choice !== "C")
    .map((f) => f.title);
  const decision: ReviewDecision = {
    debate_id: input.debateId,
    decision: input.choice,
    ...(input.by ? { decided_by: input.by } : {}),
    stop_reason: input.stop,
    rounds: input.rounds.length,
    final_artifact: `artifact/v${input.finalVersion}.md`,
    findings: tally(input.rounds),
    unresolved,
    history: input.rounds
      .filter((r) => r.judgment)
      .map((r) => ({
        round: r.round,
        recommendation: r.judgment!.recommendation,
        ...(r.applied ? { applied: r.applied } : {}),
      })),
  };
  const checked = validateReviewDecision(decision);
  if (!checked.ok)
    return fail(...schemaRuleErrors("REVIEW_DECISION_SCHEMA", "decision.json", checked.errors));
  return ok(checked.value);
}

const CHOICE_NAMES: Record<ReviewChoice, string> = {
  A: "Keep original",
  B: "Accept the critique",
  C: "Compromise",
  D: "Continue with a rebuttal",
  E: "Stopped",
};

/** summary.md: decision, final artifact, findings by severity, recommendation history, unresolved, next actions. */
export function renderReviewSummary(decision: ReviewDecision, rounds: readonly ReviewRound[]): string {
  // The same findings decision.json counts, each once: a standing one under its severity, one the
  // judge found invalid under "Dismissed"; every round's id of it is listed.
  const followed = followedFindings(rounds);
  const line = ({ finding: f, ids }: (typeof followed)[number], severity = "") =>
    `- ${ids.join(", ")} ${severity}${f.title} (${(f as ClassifiedFinding).verdict ?? "not judged"}; evidence ${f.evidence_status ?? "unchecked"})`;
  const listed = (found: typeof followed, severity?: boolean) =>
    found.length > 0
      ? found.map((x) => line(x, severity ? `[${x.finding.severity}] ` : "")).join("\n")
      : "- none";
  const bySeverity = (s: ReviewFinding["severity"]) =>
    listed(followed.filter((x) => !dismissed(x.finding) && x.finding.severity === s));
  const history = decision.history
    .map((h) => {
      const reasons = rounds.find((r) => r.round === h.round)?.judgment?.reasons.join(" ") ?? "";
      return `- Round ${h.round}: ${h.recommendation}${h.applied ? ` (applied ${h.applied})` : ""} — ${reasons}`;
    })
    .join("\n");
  const next =
    decision.unresolved && decision.unresolved.length > 0
      ? decision.unresolved.map((u) => `1. [ ] Fix: ${u}`).join("\n")
      : decision.decision === "B" || decision.decision === "C"
        ? `1. [ ] Apply ${decision.final_artifact}`
        : "1. [ ] Nothing required";
  return `# Review summary

Rounds: ${decision.rounds}
Stopped: ${decision.stop_reason}
Converged: ${decision.stop_reason === "converged" ? "yes" : "no"}

## Final decision

${decision.decision} — ${CHOICE_NAMES[decision.decision]}${decision.decided_by ? ` (${decision.decided_by})` : ""}

## Final artifact

${decision.final_artifact}

## Findings

Verified by evidence: ${decision.findings.verified ?? 0}

### P1

${bySeverity("P1")}

### P2

${bySeverity("P2")}

### P3

${bySeverity("P3")}

### Dismissed by the judge

${listed(
  followed.filter((x) => dismissed(x.finding)),
  true,
)}

## Recommendation history

${history || "- none"}

## Unresolved

${(decision.unresolved ?? []).map((u) => `- ${u}`).join("\n") || "- none"}

## Next actions

${next}
`;
}
