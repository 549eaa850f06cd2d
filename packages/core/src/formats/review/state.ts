import type { ReviewArtifact, ReviewCritique, ReviewFrontmatter, ReviewJudgment } from "@debatekit/schema";
import type { AnyState, DebateState } from "../../types.js";
import type { FormatRecord } from "../format.js";
import { artifactShowsFiles, type EvidenceSources } from "./evidence.js";
import { classify } from "./judgment.js";
import type { CritiqueForm } from "./parse.js";
import type { ReviewRound } from "./round.js";

/** A review's state: debate.md's frontmatter typed as review's. */
export type ReviewState = DebateState<ReviewFrontmatter>;

/**
 * A state a face read from a review's folder (the registry picked review by its `format`), typed as
 * review's: files checked the frontmatter against review's schema. The one cast of the frontmatter.
 */
export function reviewStateOf(state: AnyState): ReviewState {
  return state as ReviewState;
}

/**
 * A record's frontmatter as its kind's type: files checked it against the kind's schema on read
 * (the format's `records`), and the format wrote it from a checked answer. The one cast of records.
 */
function recordData<T>(record: FormatRecord | undefined): T | undefined {
  return record?.frontmatter as unknown as T | undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");
export const artifactFile = (version: number) => `artifact/v${version}.md`;
export const critiqueFile = (round: number) => `rounds/r${pad(round)}-critique.md`;
export const judgmentFile = (round: number) => `rounds/r${pad(round)}-judgment.md`;
export const rebuttalFile = (round: number) => `rounds/r${pad(round)}-rebuttal.md`;
export const SUMMARY_FILE = "summary.md";
export const DECISION_FILE = "decision.json";

export const inboxDecisionFile = (round: number) => `inbox/decision-r${pad(round)}.md`;
/** A person's decision for a round, dropped in inbox/ (watch mode sees it): `decision: B` as frontmatter. */
export const INBOX_NAME = /^decision-r(0[1-9]|10)\.md$/;
const INBOX_PATH = /^inbox\/decision-r([0-9]{2})\.md$/;
export const ARTIFACT_NAME = /^v([1-9]|1[0-9])\.md$/;
export const ROUND_NAME = /^r(0[1-9]|10)-(critique|judgment|rebuttal)\.md$/;
const ARTIFACT_PATH = /^artifact\/v([0-9]+)\.md$/;
const ROUND_PATH = /^rounds\/r([0-9]{2})-(critique|judgment|rebuttal)\.md$/;

/** Where a step sits: rounds, and within a round critic < judge < decision/author. */
const PHASE_POSITION: Record<ReviewFrontmatter["current_phase"], number> = {
  awaiting_critic: 1,
  awaiting_judge: 2,
  awaiting_decision: 3,
  awaiting_author: 3,
  complete: 9,
};
const KIND_POSITION = { critique: 1, judgment: 2, rebuttal: 3 } as const;

/** Whether a record file is committed under debate.md's marker (a later step's file is a crash's leftover). */
export function isCommitted(fm: ReviewFrontmatter, file: string): boolean {
  const artifact = ARTIFACT_PATH.exec(file);
  if (artifact) return Number(artifact[1]) <= (fm.artifact_version ?? 1);
  // A person's decision counts from its round on (one for a later round waits until then).
  const inbox = INBOX_PATH.exec(file);
  if (inbox) return Number(inbox[1]) <= fm.current_exchange;
  const round = ROUND_PATH.exec(file);
  if (!round) return false;
  const marker = fm.current_exchange * 10 + PHASE_POSITION[fm.current_phase];
  return Number(round[1]) * 10 + KIND_POSITION[round[2] as keyof typeof KIND_POSITION] < marker;
}

function recordOf(state: ReviewState, file: string): FormatRecord | undefined {
  return (state.records ?? []).find((r) => r.file === file);
}

/** The latest artifact version's text (its body). */
export function currentArtifact(state: ReviewState): { version: number; text: string } {
  const version = state.frontmatter.artifact_version ?? 1;
  return { version, text: recordOf(state, artifactFile(version))?.body ?? "" };
}

// The repository's files at the scope's revision, as `debate review` snapshots them into artifact/v1.md.
const REPO_FILE = /^### File `([^`\n]+)` at \S+\n````[^\n]*\n([\s\S]*?)\n````$/gm;

/** Files the original artifact carries from the repository (path -> text), for evidence checks. */
export function repositoryFiles(original: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of original.matchAll(REPO_FILE)) files.set(m[1]!, `${m[2]!}\n`);
  return files;
}

/**
 * What evidence is checked against: the current artifact, the repository files snapshotted with v1,
 * and each version `artifact/vN.md` that shows no file (a proposal, a version the author wrote) as a
 * file of its own; a snapshot of files is cited by those files, never by its framing.
 */
export function evidenceSources(state: ReviewState): EvidenceSources {
  const original = recordOf(state, artifactFile(1))?.body ?? "";
  const files = repositoryFiles(original);
  const current = currentArtifact(state).text;
  const version = (path: string) => {
    const text = ARTIFACT_PATH.test(path) ? recordOf(state, path)?.body : undefined;
    return text !== undefined && !artifactShowsFiles(text) ? text : undefined;
  };
  return {
    artifact: current === original ? current : `${current}\n${original}`,
    file: (path) => files.get(path) ?? version(path),
  };
}

/**
 * What round `round`'s evidence was checked against: evidenceSources as the review stood when its
 * critic answered (the latest artifact version written before that round).
 */
export function sourcesAtRound(state: ReviewState, round: number): EvidenceSources {
  let version = 1;
  for (const rec of state.records ?? []) {
    const m = ARTIFACT_PATH.exec(rec.file);
    const written = recordData<ReviewArtifact>(rec)?.round;
    if (m && Number(m[1]) > version && written !== undefined && written < round) version = Number(m[1]);
  }
  return evidenceSources({ ...state, frontmatter: { ...state.frontmatter, artifact_version: version } });
}

/** A committed critique record's frontmatter. */
export type CritiqueRecord = ReviewCritique & { round: number; form: CritiqueForm; verified: number };

/** Every round as committed: critique, judgment (classified), the choice applied, the author's work. */
export function roundsOf(read: AnyState): ReviewRound[] {
  const state = reviewStateOf(read);
  const fm = state.frontmatter;
  const rounds: ReviewRound[] = [];
  for (let r = 1; r <= fm.current_exchange; r++) {
    const critique = recordData<CritiqueRecord>(recordOf(state, critiqueFile(r)));
    if (!critique) break;
    const round: ReviewRound = { round: r, critique, form: critique.form, verified: critique.verified };
    const judgment = recordData<ReviewJudgment & { round?: number }>(recordOf(state, judgmentFile(r)));
    if (judgment) {
      round.judgment = judgment;
      round.classified = classify(judgment, [...critique.findings, ...(judgment.added_findings ?? [])]);
    }
    const applied = fm.history?.find((h) => h.round === r)?.applied;
    if (applied) round.applied = applied;
    const rebuttal = recordOf(state, rebuttalFile(r));
    if (rebuttal) round.author = { kind: "rebuttal", text: rebuttal.body };
    for (const rec of state.records ?? []) {
      const a = recordData<ReviewArtifact>(rec);
      if (
        ARTIFACT_PATH.test(rec.file) &&
        a?.round === r &&
        (a.kind === "accepted" || a.kind === "compromise")
      )
        round.author = { kind: a.kind, text: rec.body };
    }
    rounds.push(round);
  }
  return rounds;
}

/** The person's decision for the current round: debate.md's `decision:` key, else inbox/decision-rNN.md. */
export function manualDecision(state: ReviewState): ReviewFrontmatter["decision"] {
  const fm = state.frontmatter;
  if (fm.decision) return fm.decision;
  // The inbox record's kind checked `decision` (parseDecision) when files read it.
  return recordData<{ decision?: ReviewFrontmatter["decision"] }>(
    recordOf(state, inboxDecisionFile(fm.current_exchange)),
  )?.decision;
}
