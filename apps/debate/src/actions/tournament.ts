import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { findFormat } from "@debatekit/core";
import type { TournamentFrontmatter } from "@debatekit/schema";
import {
  createTournament,
  enqueueTournament,
  type Leaderboard,
  type NewTournamentInit,
  parseEntrants,
  parseMotions,
  planTournament,
  readResults,
  readTournament,
  runTournament,
  spendOf,
  type TournamentEvent,
  type TournamentPlan,
  type TournamentRunSummary,
  writeTournamentReport,
} from "@debatekit/tournament";
import { ExitError } from "../exit-error.js";
import { cancelledExitCode } from "../stop-signals.js";
import type { ActionContext } from "./context.js";
import { lengthFlags, tournamentFormats } from "./format-options.js";

/** What a new tournament is made of; files and folders resolve against `cwd`. */
export interface NewTournamentInput {
  dir: string;
  /** Motions: .txt (one per line) or .jsonl ({motion, answer?}). */
  motions: string;
  /** Players, comma-separated: adapter[:model][@base_url]. */
  seats: string;
  /** Judges, comma-separated. */
  judges: string;
  swap?: boolean;
  judgesInTurn?: boolean;
  format: string;
  sides: "both" | "one";
  /** Length flags as given (`{ rounds: 2 }`): only the format's own is allowed. */
  lengths?: Record<string, number>;
  /** A folder with one <match id>.jsonl per match, copied into each debate (replay seats). */
  replay?: string;
  seed: number;
  limits?: TournamentFrontmatter["limits"];
  prices?: TournamentFrontmatter["prices"];
  now?: string;
}

/** A tournament folder just made: where, how many debates, and its warnings. */
export interface TournamentCreated {
  dir: string;
  debates: number;
  warnings: string[];
}

/**
 * The length `format` runs its debates for, from the length flags given: a flag of another format
 * is refused, naming the one this format takes; a length outside the format's range too.
 */
function lengthOf(formatName: string, given: Record<string, number>): number | undefined {
  const format = findFormat(formatName);
  const offered = tournamentFormats();
  if (!format || !offered.some((f) => f.name === format.name))
    throw new ExitError(
      `${formatName}: not a tournament format (the formats: ${offered.map((f) => f.name).join(", ")})`,
      2,
    );
  const { flag, min, max } = format.newOptions.length;
  const owners = lengthFlags(offered);
  for (const other of Object.keys(given).filter((f) => f !== flag)) {
    const names = (owners.get(other) ?? []).map((f) => f.name).join(" or ");
    throw new ExitError(`--${other} is for --format ${names}; the ${format.name} format takes --${flag}`);
  }
  const length = given[flag];
  if (length !== undefined && (length < min || length > max))
    throw new ExitError(`--${flag} must be from ${min} to ${max}, got ${length}`);
  return length;
}

/** Creates a tournament folder: tournament.md and one debate folder per match under debates/. */
export async function newTournament(
  ctx: Pick<ActionContext, "cwd">,
  input: NewTournamentInput,
): Promise<TournamentCreated> {
  const dir = resolve(ctx.cwd, input.dir);
  const length = lengthOf(input.format, input.lengths ?? {});
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, input.motions), "utf8");
  } catch (error) {
    throw new ExitError(`cannot read --motions ${input.motions}: ${(error as Error).message}`);
  }
  const judges = parseEntrants(input.judges, "--judges");
  if (input.judgesInTurn && input.swap)
    throw new ExitError("--swap needs a judge panel: drop --judges-in-turn");
  const panel = !input.judgesInTurn && (judges.length > 1 || input.swap === true);
  const made = await createTournament(dir, {
    motions: parseMotions(text, input.motions),
    players: parseEntrants(input.seats, "--seats"),
    judges,
    ...(panel ? { panel: { swap: input.swap === true } } : {}),
    // Checked against the registry above (lengthOf).
    format: input.format as NewTournamentInit["format"],
    ...(length !== undefined ? { length } : {}),
    sides: input.sides,
    seed: input.seed,
    ...(input.limits ? { limits: input.limits } : {}),
    ...(input.prices ? { prices: input.prices } : {}),
    ...(input.replay ? { replayDir: resolve(ctx.cwd, input.replay) } : {}),
    now: input.now ?? new Date().toISOString(),
  });
  return { dir, debates: made.tournament.frontmatter.matches.length, warnings: made.warnings };
}

/** The debates, seat calls, estimated tokens and cost a tournament still has to spend. */
export async function tournamentPlan(
  ctx: Pick<ActionContext, "cwd">,
  input: { dir: string; answerTokens?: number },
): Promise<TournamentPlan> {
  return planTournament(await readTournament(resolve(ctx.cwd, input.dir)), {
    ...(input.answerTokens !== undefined ? { answerTokens: input.answerTokens } : {}),
  });
}

/** How to run a tournament: here (`concurrency` debates at once), or on a Redis queue for workers. */
export interface TournamentRunInput {
  dir: string;
  concurrency: number;
  /** Do not start a debate whose estimated cost would take the spend past this many US dollars. */
  maxCostUsd?: number;
  retryFailed?: boolean;
  /** A Redis URL: enqueue the debates for `debate worker`s and collect their folders here. */
  queue?: string;
  /** How long Redis may take to connect, or to answer once connected (default 10 s). */
  redisTimeoutMs?: number;
  onEvent?: (event: TournamentEvent) => void;
}

/** Runs or resumes every debate of a tournament; stopped by `ctx.signal` (the debates resume). */
export async function runTournamentAction(
  ctx: ActionContext,
  input: TournamentRunInput,
): Promise<TournamentRunSummary> {
  const dir = resolve(ctx.cwd, input.dir);
  const estimates =
    input.maxCostUsd !== undefined ? (await planTournament(await readTournament(dir))).perMatch : undefined;
  const common = {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
    ...(input.retryFailed ? { retryFailed: true } : {}),
    ...(input.maxCostUsd !== undefined ? { maxCostUsd: input.maxCostUsd, estimates } : {}),
  };
  if (!input.queue)
    return runTournament(dir, { ...common, concurrency: input.concurrency, env: ctx.env, cwd: ctx.cwd });
  const queued = {
    ...common,
    ...(input.redisTimeoutMs !== undefined ? { redisTimeoutMs: input.redisTimeoutMs } : {}),
  };
  return enqueueTournament(dir, input.queue, queued).catch((error: unknown) => {
    // Stopped while it connected: a stop like any other, not a failure of the queue.
    if (ctx.signal?.aborted)
      throw new ExitError("stopped; run again to resume", cancelledExitCode, { cause: error });
    throw error;
  });
}

/** Where a tournament stands: debates done, failed, running, not started; calls and spend so far. */
export async function tournamentStatus(ctx: Pick<ActionContext, "cwd">, input: { dir: string }) {
  const t = await readTournament(resolve(ctx.cwd, input.dir));
  const results = await readResults(t);
  const by = (s: string) => results.filter((r) => r.status === s);
  return {
    tournament_id: t.frontmatter.tournament_id,
    status: t.frontmatter.status,
    total: results.length,
    done: by("done").length,
    failed: by("failed").length,
    running: by("running").length,
    pending: by("pending").length,
    calls: results.reduce((s, r) => s + r.calls, 0),
    ...spendOf(results),
    debates: results.map((r) => ({
      id: r.match.id,
      status: r.status,
      ...(r.winner ? { winner: r.winner === "tie" ? "tie" : r.match[r.winner] } : {}),
      ...(r.error ? { error: r.error } : {}),
    })),
  };
}

/** Writes leaderboard.md and leaderboard.html (and each debate's report); returns the files and figures. */
export async function reportTournament(
  ctx: Pick<ActionContext, "cwd">,
  input: { dir: string },
): Promise<{ dir: string; files: string[]; leaderboard: Leaderboard }> {
  const dir = resolve(ctx.cwd, input.dir);
  const { leaderboard, files } = await writeTournamentReport(dir);
  return { dir, files, leaderboard };
}
