import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { type AnyFormat, formatOfState, type Standing } from "@debatekit/core";
import {
  readDebateFolder,
  readJournal,
  resetDebateFolder,
  resolveInside,
  writeFileAtomic,
} from "@debatekit/files";
import type { PanelResult } from "@debatekit/schema";
import { type Match, matchFolder, type Tournament } from "./folder.js";

/** Where a failed match's cause is kept (tournament folder): `failures/<match id>.json`. */
export const FAILURES_DIR = "failures";

/** What one match's folder says. */
export interface MatchResult {
  match: Match;
  /** pending: not started; running: started, not ended (stopped, waiting or in progress); done; failed. */
  status: "pending" | "running" | "done" | "failed";
  /** Who won, by side; `tie` when the format's standing says so (equal scores, a split panel). Absent unless done with a winner. */
  winner?: "first" | "second" | "tie";
  /** Set when the result rests on less than configured (`aborted`, `partial ...`). */
  degraded?: string;
  error?: { code: string; message: string };
  /** A judge panel's committed records (judges/*.md, one per judged step), when done. */
  panels?: PanelResult[];
  /** Seat calls journaled, and the cost and tokens the adapters reported. */
  calls: number;
  costUsd: number;
  /** Calls of seats that cost money whose adapter reported no cost (replay and manual calls are free). */
  unreportedCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** A failure record: why a match failed for good. */
export interface FailureRecord {
  code: string;
  message: string;
  at: string;
}

/** Records a match as failed (atomically); the tournament goes on. */
export async function recordFailure(dir: string, id: string, failure: FailureRecord): Promise<void> {
  await mkdir(path.join(dir, FAILURES_DIR), { recursive: true });
  // Never through a symbolic link out of the tournament folder.
  const file = resolveInside(dir, `${FAILURES_DIR}/${id}.json`);
  await writeFileAtomic(file, `${JSON.stringify(failure, null, 2)}\n`);
}

/** Forgets a match's failure (before it is run again). */
export async function clearFailure(dir: string, id: string): Promise<void> {
  await rm(path.join(dir, FAILURES_DIR, `${id}.json`), { force: true });
}

async function readFailure(dir: string, id: string): Promise<FailureRecord | undefined> {
  try {
    const data = JSON.parse(
      await readFile(path.join(dir, FAILURES_DIR, `${id}.json`), "utf8"),
    ) as FailureRecord;
    return typeof data.code === "string" && typeof data.message === "string" ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes a match's debate back to its start when its format ended it without a result (crossfire's
 * `aborted`: a seat that never answered), so `--retry-failed` runs it again; what is undone is kept
 * under `.debate/reset/`. A debate still running, decided, or not started is left as it is.
 */
export async function restartUndecided(debateDir: string): Promise<boolean> {
  const read = await readDebateFolder(debateDir);
  if (!read.ok) return false;
  const format = formatOfState(read.value.state);
  const standing = format.standing(read.value.state);
  if (!standing.complete || winnerOf(format, standing) || !standing.degraded?.length) return false;
  await resetDebateFolder(debateDir, { keep: true, command: "debate tournament run --retry-failed" });
  return true;
}

/** The winner by side: the standing's `winner` (a role, or `tie`) through the format's tournament sides. */
function winnerOf(format: AnyFormat, standing: Standing): MatchResult["winner"] {
  const { winner } = standing;
  if (winner === "tie") return "tie";
  if (winner === undefined || !format.tournament) return undefined;
  return winner === format.tournament.first
    ? "first"
    : winner === format.tournament.second
      ? "second"
      : undefined;
}

/** Reads one match's result from its folder (and failures/). */
export async function readMatchResult(tournament: Tournament, match: Match): Promise<MatchResult> {
  const debateDir = matchFolder(tournament.dir, match.id);
  const journal = await readJournal(debateDir).catch(() => []);
  const usage = { calls: journal.length, costUsd: 0, unreportedCalls: 0, inputTokens: 0, outputTokens: 0 };
  for (const entry of journal) {
    const u = entry.result.usage;
    usage.costUsd += u?.costUsd ?? 0;
    if (u?.costUsd === undefined && entry.usage?.cost !== "free") usage.unreportedCalls += 1;
    usage.inputTokens += u?.inputTokens ?? 0;
    usage.outputTokens += u?.outputTokens ?? 0;
  }
  const failure = await readFailure(tournament.dir, match.id);
  const read = await readDebateFolder(debateDir);
  if (!read.ok) {
    return {
      match,
      status: "failed",
      error: { code: read.errors[0]!.code, message: read.errors[0]!.message },
      ...usage,
    };
  }
  const state = read.value.state;
  const format = formatOfState(state);
  const standing = format.standing(state);
  if (standing.complete) {
    const winner = winnerOf(format, standing);
    // A debate the format ended without a result (a seat that never answered, so crossfire ends
    // aborted) decided nothing: the match failed, with the cause status shows, never "done".
    const cause = standing.degraded?.[0];
    if (!winner && cause) {
      const code = cause.code ?? cause.cause.toUpperCase();
      return { match, status: "failed", error: { code, message: cause.error ?? cause.message }, ...usage };
    }
    const panels = (state.records ?? [])
      .filter((r) => r.file.startsWith("judges/"))
      .map((r) => r.frontmatter as unknown as PanelResult);
    return {
      match,
      status: "done",
      ...(winner ? { winner } : {}),
      ...(panels.length > 0 ? { panels } : {}),
      ...(standing.outcome ? { degraded: standing.outcome } : {}),
      ...usage,
    };
  }
  if (failure)
    return { match, status: "failed", error: { code: failure.code, message: failure.message }, ...usage };
  // Every committed step rests on journaled calls: no journal, nothing started.
  return { match, status: journal.length > 0 ? "running" : "pending", ...usage };
}

/** What matches spent: the cost their seats reported, and how many calls of paid seats reported none. */
export interface Spend {
  spendUsd: number;
  unreportedCalls: number;
}

/** The spend of these matches. */
export function spendOf(results: Iterable<Pick<MatchResult, "costUsd" | "unreportedCalls">>): Spend {
  const spend = { spendUsd: 0, unreportedCalls: 0 };
  for (const r of results) {
    spend.spendUsd += r.costUsd;
    spend.unreportedCalls += r.unreportedCalls;
  }
  return spend;
}

/**
 * A spend in words: dollars when every call's cost is known (free seats count $0, as the plan
 * does); "not reported" only when calls of paid seats reported no cost.
 */
export function describeSpend(spend: Spend): string {
  const usd = `$${spend.spendUsd.toFixed(4)}`;
  if (spend.unreportedCalls === 0) return usd;
  if (spend.spendUsd === 0) return "not reported";
  return `${usd} + ${spend.unreportedCalls} call(s) that reported no cost`;
}

/** Every match's result, in tournament.md's order. */
export async function readResults(tournament: Tournament): Promise<MatchResult[]> {
  const results: MatchResult[] = [];
  for (const match of tournament.frontmatter.matches) results.push(await readMatchResult(tournament, match));
  return results;
}
