import type {
  CrossfireFrontmatter,
  CrossfireSummary,
  CrossfireTurn,
  CrossfireVerdict,
} from "@debatekit/schema";
import type { DebateState } from "../../types.js";
import type { FormatRecord } from "../format.js";

/** A debating seat of crossfire. */
export type CrossfireSide = "proposer" | "challenger";

/** A crossfire debate's state: debate.md's frontmatter typed as crossfire's. */
export type CrossfireState = DebateState<CrossfireFrontmatter>;

/**
 * A record's frontmatter as its kind's type: files checked it against the kind's schema on read
 * (the format's `records`), and the format wrote it from a checked answer. The one cast of records.
 */
function recordData<T>(record: FormatRecord): T {
  return record.frontmatter as unknown as T;
}

const pad = (round: number) => String(round).padStart(2, "0");

/** turns/r01-proposer.md, turns/r03-summary.md, verdict.md */
export const turnFile = (round: number, role: CrossfireSide) => `turns/r${pad(round)}-${role}.md`;
export const summaryFile = (round: number) => `turns/r${pad(round)}-summary.md`;
export const VERDICT_FILE = "verdict.md";

export const TURN_NAME = /^r0[1-5]-(proposer|challenger)\.md$/;
export const SUMMARY_NAME = /^r0[3-5]-summary\.md$/;
export const VERDICT_NAME = /^verdict\.md$/;

/** A committed turn: its round, its side and the checked answer with the engine's ids. */
export interface Turn {
  round: number;
  role: CrossfireSide;
  data: CrossfireTurn;
}

const TURN_FILE = /^turns\/r0([1-5])-(proposer|challenger)\.md$/;
const SUMMARY_FILE = /^turns\/r0([3-5])-summary\.md$/;

/** Every committed turn, by round, proposer first. */
export function turnsOf(state: CrossfireState): Turn[] {
  const turns: Turn[] = [];
  for (const record of state.records ?? []) {
    const m = TURN_FILE.exec(record.file);
    if (m)
      turns.push({
        round: Number(m[1]),
        role: m[2] as CrossfireSide,
        data: recordData<CrossfireTurn>(record),
      });
  }
  return turns.sort((a, b) => a.round - b.round || (a.role === "proposer" ? -1 : 1));
}

/** The committed summary read in `round`, if any. */
export function summaryOf(state: CrossfireState, round: number): CrossfireSummary | undefined {
  const record = (state.records ?? []).find((r) => r.file === summaryFile(round));
  return record && recordData<CrossfireSummary>(record);
}

/** Every committed summary, by the round that read it. */
export function summariesOf(state: CrossfireState): Array<{ round: number; data: CrossfireSummary }> {
  const found: Array<{ round: number; data: CrossfireSummary }> = [];
  for (const record of state.records ?? []) {
    const m = SUMMARY_FILE.exec(record.file);
    if (m) found.push({ round: Number(m[1]), data: recordData<CrossfireSummary>(record) });
  }
  return found;
}

/** The latest committed summary read at or before `round`. */
export function latestSummary(state: CrossfireState, round: number): CrossfireSummary | undefined {
  for (let r = round; r >= 3; r--) {
    const found = summaryOf(state, r);
    if (found) return found;
  }
  return undefined;
}

/** The verdict, once committed. */
export function verdictOf(state: CrossfireState): CrossfireVerdict | undefined {
  const record = (state.records ?? []).find((r) => r.file === VERDICT_FILE);
  return record && recordData<CrossfireVerdict>(record);
}

/** Where a step sits in the debate's order: rounds, and within a round summary < proposer < challenger < verdict. */
const PHASE_POSITION: Record<CrossfireFrontmatter["current_phase"], number> = {
  awaiting_summary: 0,
  awaiting_proposer: 1,
  awaiting_challenger: 2,
  awaiting_verdict: 3,
  complete: 4,
  aborted: 4,
};

/** Whether a record file is committed under debate.md's marker (a file of a later step is a leftover of a crash). */
export function isCommitted(fm: CrossfireFrontmatter, file: string): boolean {
  if (file === VERDICT_FILE || file === `judges/${VERDICT_FILE}`) return fm.current_phase === "complete";
  const marker = fm.current_exchange * 10 + PHASE_POSITION[fm.current_phase];
  const turn = TURN_FILE.exec(file);
  if (turn) {
    const round = Number(turn[1]);
    const role = turn[2] as CrossfireSide;
    if (fm.failures?.some((f) => f.role === role && f.round === round)) return false;
    return round * 10 + (role === "proposer" ? 1 : 2) < marker;
  }
  const summary = SUMMARY_FILE.exec(file);
  if (summary) {
    const round = Number(summary[1]);
    if (fm.failures?.some((f) => f.role === "summarizer" && f.round === round)) return false;
    return round * 10 < marker;
  }
  return false;
}
