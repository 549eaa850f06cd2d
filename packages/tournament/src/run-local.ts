import { DebatekitError } from "@debatekit/core";
import { checkFolderConsent, type RunOptions, runDebate } from "@debatekit/runner";
import { matchFolder, readTournament, type Tournament, writeTournament } from "./folder.js";
import { createProviderGates, gatedAdapter, pauseOnRateLimit } from "./limiter.js";
import {
  clearFailure,
  type MatchResult,
  readMatchResult,
  readResults,
  recordFailure,
  restartUndecided,
  spendOf,
} from "./results.js";

/** Progress of a tournament run: one stream the terminal, `--json` lines and tests all read. */
export type TournamentEvent =
  | { type: "started"; total: number; done: number; failed: number; todo: number }
  | { type: "debate_started"; id: string }
  | {
      type: "debate_finished";
      id: string;
      /** done; failed (recorded, the tournament goes on); stopped (cancelled, waiting, paused or locked: re-run resumes it). */
      status: "done" | "failed" | "stopped";
      reason?: string;
      durationMs: number;
      /** Queue mode: the CPU this process took to write the ended debate back from Redis (ms). */
      collectCpuMs?: number;
    }
  | {
      type: "progress";
      done: number;
      failed: number;
      total: number;
      running: number;
      spendUsd: number;
      unreportedCalls: number;
      etaMs?: number;
    }
  | { type: "budget_stop"; id: string; estimateUsd: number; committedUsd: number; maxCostUsd: number }
  /** A seat answered 429 / rate limited: the call is asked again after `retryInMs` (not journaled, no retry used). */
  | { type: "rate_limited"; id: string; retryInMs: number; error: string }
  | { type: "finished"; summary: TournamentRunSummary };

/** How a run ended. */
export interface TournamentRunSummary {
  total: number;
  done: number;
  failed: number;
  /** Matches not ended (not started, stopped, waiting). */
  remaining: number;
  /** Debates this run started. */
  ran: number;
  /** finished: every match ended (done or failed); stopped: some remain (signal, waiting seats, locks). */
  status: "finished" | "stopped";
  spendUsd: number;
  /** Calls of paid seats that reported no cost. */
  unreportedCalls: number;
  /** Why it stopped early, when it did (e.g. the budget). */
  reason?: string;
}

/** Options of runTournament. */
export interface TournamentRunOptions {
  /** Debates run at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  onEvent?: (event: TournamentEvent) => void;
  /** Run again the matches recorded as failed (default: a failed match stays failed). */
  retryFailed?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Passed to every runDebate (tests give adapter factories here). */
  adapters?: RunOptions["adapters"];
  now?: () => Date;
  /**
   * Stop starting debates before one whose estimated cost would take the spend past this (US dollars):
   * spent so far as the adapters reported it (a debate this run started whose seats report no cost
   * counts at its estimate) + this one's estimate.
   */
  maxCostUsd?: number;
  /** Estimated cost of each match (planTournament's perMatch); needed with maxCostUsd. */
  estimates?: Record<string, number | undefined>;
}

/** A match that still has work: not done, and not failed unless failures are retried. */
export function needsRun(result: MatchResult, retryFailed = false): boolean {
  return (
    result.status === "pending" ||
    result.status === "running" ||
    (result.status === "failed" && retryFailed && !!result.error)
  );
}

/**
 * Runs (or resumes) every match of the tournament in `dir` in this process, `concurrency` at a time,
 * each seat call under its provider's limits. A finished debate is never run again and a journaled
 * call never repeated (each debate resumes from its folder); a debate that fails is recorded in
 * failures/ and the others go on. On abort, running debates stop at their next safe point.
 */
export async function runTournament(
  dir: string,
  options: TournamentRunOptions = {},
): Promise<TournamentRunSummary> {
  const emit = (event: TournamentEvent) => options.onEvent?.(event);
  const now = options.now ?? (() => new Date());
  const tournament = await readTournament(dir);
  // The programs tournament.md names run only once the user allowed them, before anything is written.
  await checkFolderConsent(dir, { env: options.env ?? process.env });
  await markRunning(tournament);
  const results = new Map((await readResults(tournament)).map((r) => [r.match.id, r]));
  const todo = [...results.values()].filter((r) => needsRun(r, options.retryFailed)).map((r) => r.match);
  const count = () => {
    const all = [...results.values()];
    return {
      done: all.filter((r) => r.status === "done").length,
      failed: all.filter((r) => r.status === "failed").length,
      ...spendOf(all),
    };
  };
  const total = tournament.frontmatter.matches.length;
  emit({ type: "started", total, ...pick(count(), "done", "failed"), todo: todo.length });
  if (options.maxCostUsd !== undefined) {
    const unpriced = todo.filter((m) => options.estimates?.[m.id] === undefined);
    if (unpriced.length > 0) {
      throw new DebatekitError(
        "PRICE_MISSING",
        `--max-cost needs a price for every seat: ${unpriced[0]!.id} has a seat without one (add \`prices\` to tournament.md: by player name or adapter, dollars per million input and output tokens)`,
        { file: "tournament.md", field: "prices" },
      );
    }
  }
  const charged = new Map<string, number>();
  let budgetStop: string | undefined;
  const admit = (id: string): boolean => {
    if (options.maxCostUsd === undefined) return true;
    const estimateUsd = options.estimates![id]!;
    // A debate this run started counts at its reported cost, or at its estimate when its seats report none.
    const reported = [...results.values()]
      .filter((r) => !charged.has(r.match.id))
      .reduce((s, r) => s + r.costUsd, 0);
    const committedUsd = reported + [...charged.values()].reduce((a, b) => a + b, 0);
    if (committedUsd + estimateUsd <= options.maxCostUsd) {
      charged.set(id, estimateUsd);
      return true;
    }
    budgetStop = `stopped before ${id}: its estimated cost $${estimateUsd.toFixed(4)} would take the spend ($${committedUsd.toFixed(4)} spent, or estimated for debates started) past --max-cost $${options.maxCostUsd}`;
    emit({ type: "budget_stop", id, estimateUsd, committedUsd, maxCostUsd: options.maxCostUsd });
    return false;
  };
  const gates = createProviderGates(tournament.frontmatter.limits);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const started = Date.now();
  let next = 0;
  let running = 0;
  let ran = 0;
  let ended = 0;
  const runOne = async (matchIndex: number) => {
    const match = todo[matchIndex]!;
    const debateDir = matchFolder(dir, match.id);
    running++;
    ran++;
    emit({ type: "debate_started", id: match.id });
    const t0 = Date.now();
    let status: "done" | "failed" | "stopped";
    let reason: string | undefined;
    try {
      if (options.retryFailed) {
        await clearFailure(dir, match.id);
        await restartUndecided(debateDir);
        // Run again, so not ended: the progress line counts it when it ends this time.
        const { error: _error, ...before } = results.get(match.id)!;
        results.set(match.id, { ...before, status: "running" });
      }
      const summary = await runDebate(debateDir, {
        command: "debate tournament run",
        // The tournament's allowance covers its matches (each made from tournament.md's seats).
        consentDir: dir,
        // Another process may hold a debate's lock (a `debate run` of it, or a killed run whose lock
        // file was left empty: recovered after 10 s); one process advances a debate at a time, so wait.
        wait: true,
        // A 429 is no answer: the call waits outside the gate and is asked again, never journaled
        // as failed (crossfire would end the debate aborted) nor counted as one of the seat's retries.
        wrapAdapter: (adapter, seat) =>
          pauseOnRateLimit(gatedAdapter(adapter, gates(seat)), (retryInMs, error) =>
            emit({ type: "rate_limited", id: match.id, retryInMs, error }),
          ),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.env ? { env: options.env } : {}),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.adapters ? { adapters: options.adapters } : {}),
        ...(options.now ? { now: options.now } : {}),
      });
      if (summary.status === "done") status = "done";
      else if (summary.status === "failed") {
        status = "failed";
        reason = summary.error ? `${summary.error.code}: ${summary.error.message}` : "failed";
        await recordFailure(dir, match.id, {
          code: summary.error?.code ?? "DEBATE_FAILED",
          message: summary.error?.message ?? "the debate failed",
          at: now().toISOString(),
        });
      } else {
        status = "stopped";
        reason = summary.reason ?? summary.status;
      }
    } catch (error) {
      const e = error as DebatekitError;
      if (e instanceof DebatekitError && e.code === "DEBATE_LOCKED") {
        status = "stopped";
        reason = e.message;
      } else {
        status = "failed";
        reason = `${e.code ?? "ERROR"}: ${e.message}`;
        await recordFailure(dir, match.id, {
          code: e.code ?? "ERROR",
          message: e.message,
          at: now().toISOString(),
        });
      }
    }
    const result = await readMatchResult(tournament, match);
    results.set(match.id, result);
    if (status === "done" && result.status === "failed" && result.error) {
      status = "failed";
      reason = `${result.error.code}: ${result.error.message}`;
    }
    const cost = results.get(match.id)!.costUsd;
    if (charged.has(match.id) && cost > 0) charged.set(match.id, cost);
    running--;
    ended++;
    emit({
      type: "debate_finished",
      id: match.id,
      status,
      ...(reason ? { reason } : {}),
      durationMs: Date.now() - t0,
    });
    const c = count();
    const left = todo.length - ended;
    const eta = ended > 0 && left > 0 ? Math.round(((Date.now() - started) / ended) * left) : undefined;
    emit({ type: "progress", ...c, total, running, ...(eta !== undefined ? { etaMs: eta } : {}) });
  };
  const lane = async () => {
    while (next < todo.length && !options.signal?.aborted && budgetStop === undefined) {
      const at = next++;
      if (!admit(todo[at]!.id)) return;
      await runOne(at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, lane));
  const c = count();
  const remaining = total - c.done - c.failed;
  const summary: TournamentRunSummary = {
    total,
    done: c.done,
    failed: c.failed,
    remaining,
    ran,
    status: remaining === 0 ? "finished" : "stopped",
    spendUsd: c.spendUsd,
    unreportedCalls: c.unreportedCalls,
    ...(budgetStop
      ? { reason: budgetStop }
      : options.signal?.aborted
        ? { reason: "stopped by a signal" }
        : {}),
  };
  await markEnded(dir, summary, now());
  emit({ type: "finished", summary });
  return summary;
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;
}

async function markRunning(tournament: Tournament): Promise<void> {
  const fm = tournament.frontmatter;
  tournament.frontmatter = {
    ...fm,
    status: fm.status === "finished" ? "finished" : "running",
    runs: (fm.runs ?? 0) + 1,
  };
  await writeTournament(tournament);
}

/** Writes the run's end into tournament.md (re-read: only status keys change). */
export async function markEnded(
  dir: string,
  summary: Pick<TournamentRunSummary, "status">,
  at: Date,
): Promise<void> {
  const tournament = await readTournament(dir);
  const fm = tournament.frontmatter;
  if (summary.status === "finished") {
    if (fm.status === "finished" && fm.finished_at) return;
    tournament.frontmatter = { ...fm, status: "finished", finished_at: at.toISOString() };
  } else {
    const { finished_at: _gone, ...rest } = fm;
    tournament.frontmatter = { ...rest, status: "running" };
  }
  await writeTournament(tournament);
}
