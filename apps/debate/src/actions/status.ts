import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type DebateState, formatOfState, journalOutcome } from "@debatekit/core";
import { readDebateFolder, readJournal, readLockHolder } from "@debatekit/files";
// The ledger's module alone: the runner's entry would load the adapters and the skill matcher too.
import { loadUsageLedger } from "@debatekit/runner/ledger";
import type { Degradation, JournalEntry, Reliability, UsageTotals } from "@debatekit/schema";
import { ExitError } from "../exit-error.js";
import { unansweredAsks } from "../manual-asks.js";
import type { ActionContext } from "./context.js";

/** One row of `debate status`. */
export interface StatusRow {
  dir: string;
  debate_id?: string;
  format?: string;
  phase?: string;
  exchange?: number;
  exchanges?: number;
  /** What `exchange` and `exchanges` count, as the format says (`exchange`, `round`). */
  unit?: string;
  scores?: { proposition: number; opposition: number };
  /** The two sides' standing as the format shows it (formal: signed totals; crossfire: the verdict). */
  sides?: { proposition: string; opposition: string };
  /** The format's own status columns, in order (formal: PROP and OPP), once the debate has started. */
  columns?: ReadonlyArray<{ name: string; value: string }>;
  /** Set when the result rests on less than configured: `aborted`, `uncontested`, `partial (rounds 1-2 of 3)`. */
  outcome?: string;
  /** Every reason the result rests on less than configured, with the real (sanitized) error (docs/architecture.md#honest-degradation). */
  degraded?: Degradation[];
  /** What is happening now: `running (pid 123)`, `paused`, `waiting for inbox/e001-opposition.md`. */
  activity?: string;
  /** The side that won a finished debate, or `tie`, as the format's standing decides it (none for a review). */
  winner?: string;
  /** A finished debate's result in a few words when the format picks no side (review: `B: accept the critique`). */
  result?: string;
  last_error?: string;
  /** Set when the folder does not read (a hand edit broke a committed file): the rule's code and the `file:field`. */
  unreadable?: { code: string; path: string };
  /** The judge panel's reliability figures (debates with `judges:`): agreement, flip rate, deviation, degraded steps. */
  reliability?: Reliability;
  /** Tokens and cost of the debate's seat calls (from .debate/ledger.json, or its journal). */
  usage?: { total: UsageTotals; seats: Record<string, UsageTotals>; max_cost_usd?: number };
}

/** A refusal as people read it: the code, where, and what. */
function errorLine(error: { code: string; path: string; message: string }): string {
  return `${error.code}${error.path ? ` at ${error.path}` : ""}: ${error.message}`;
}

async function isDebate(dir: string): Promise<boolean> {
  return stat(join(dir, "debate.md")).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * A tournament folder's file and the folder of its debates, as @debatekit/tournament names them
 * (TOURNAMENT_FILE, DEBATES_DIR; not imported: its index loads the queue's client).
 */
const TOURNAMENT_FILE = "tournament.md";
const TOURNAMENT_DEBATES = "debates";

/** Whether `dir` is a tournament folder (holds tournament.md). */
export async function isTournament(dir: string): Promise<boolean> {
  return stat(join(dir, TOURNAMENT_FILE)).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The debate folders a path names: itself when it holds debate.md, a tournament's debates, else its sub-folders that do. */
async function findDebates(path: string): Promise<string[]> {
  if (await isDebate(path)) return [path];
  if (await isTournament(path)) return findDebates(join(path, TOURNAMENT_DEBATES));
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => join(path, e.name));
  const found = await Promise.all(dirs.map(async (d) => ((await isDebate(d)) ? d : undefined)));
  return found.filter((d): d is string => d !== undefined).sort();
}

/** Status of one debate; a folder that does not read becomes a row with its error. */
export async function debateStatus(dir: string): Promise<StatusRow> {
  const read = await readDebateFolder(dir);
  if (!read.ok) {
    // A folder a run holds is shown as running even when it does not read (a hand edit meanwhile).
    const holder = await readLockHolder(dir).catch(() => undefined);
    return {
      dir,
      ...(holder ? { activity: `running (pid ${holder.pid})` } : {}),
      last_error: read.errors[0] ? errorLine(read.errors[0]) : "unreadable",
      unreadable: { code: read.errors[0]?.code ?? "UNREADABLE", path: read.errors[0]?.path ?? "debate.md" },
    };
  }
  const state = read.value.state;
  const fm = state.frontmatter;
  const format = formatOfState(state);
  const standing = format.standing(state);
  const row: StatusRow = {
    dir,
    debate_id: fm.debate_id,
    format: format.name,
    // An aborted, uncontested or partial debate says so where the phase is shown, never as plain success.
    phase: standing.outcome ?? standing.phase,
    exchange: standing.progress.done,
    unit: standing.progress.unit,
  };
  // Before its first step a debate has no score: 0.00 to 0.00 would read as a tie.
  if (standing.started !== false) {
    if (standing.scores) row.scores = standing.scores;
    if (standing.sides) row.sides = standing.sides;
    if (standing.columns && standing.columns.length > 0) row.columns = standing.columns;
  }
  if (standing.outcome) row.outcome = standing.outcome;
  if (standing.degraded && standing.degraded.length > 0) {
    row.degraded = standing.degraded;
    row.phase = `${row.phase} (degraded: ${[...new Set(standing.degraded.map((d) => d.cause))].join(", ")})`;
  }
  if (standing.progress.total !== undefined) row.exchanges = standing.progress.total;
  if (fm.reliability) row.reliability = fm.reliability;
  if (standing.winner) row.winner = standing.winner;
  if (standing.result) row.result = standing.result;
  const holder = await readLockHolder(dir).catch(() => undefined);
  // Only a failure of the step the debate is still at matters: older ones were overcome. A stop by
  // the user is no error, and an error of a seat since changed (adapter or model) no longer holds.
  const journal = await readJournal(dir, { exchange: fm.current_exchange, phase: fm.current_phase }).catch(
    () => [],
  );
  const waiting = standing.complete ? [] : await waitedOn(dir, state, journal);
  if (holder) row.activity = `running (pid ${holder.pid})`;
  else if (fm.paused) row.activity = "paused";
  else if (waiting.length > 0) row.activity = `waiting for ${waiting.join(", ")}`;
  const maxCostUsd = (fm as { max_cost_usd?: number }).max_cost_usd;
  const ledger = await loadUsageLedger(
    dir,
    fm.debate_id,
    maxCostUsd !== undefined ? { maxCostUsd } : {},
  ).catch(() => undefined);
  if (ledger) {
    row.usage = {
      total: ledger.total,
      seats: ledger.seats,
      ...(ledger.max_cost_usd !== undefined ? { max_cost_usd: ledger.max_cost_usd } : {}),
    };
  }
  const last = journal.at(-1);
  const seat = last
    ? (fm.seats as Record<string, { adapter?: string; model?: string }> | undefined)?.[last.role]
    : undefined;
  const current =
    !last ||
    !seat ||
    (seat.adapter === last.adapter && (seat.model ?? undefined) === (last.model ?? undefined));
  if (!last || !current || last.result.status === "cancelled") return row;
  if (last.result.status !== "ok")
    row.last_error = `${last.role}: ${last.result.error ?? last.result.status}`;
  else if (last.validation?.ok === false) row.last_error = `${last.role}: ${problemsText(last.validation)}`;
  return row;
}

/** A rejected answer's problems in one cell: the count first (a cut cell keeps it), then the first. */
function problemsText(validation: { errors?: string[] }): string {
  const errors = validation.errors ?? [];
  if (errors.length === 0) return "invalid answer";
  if (errors.length === 1) return errors[0]!;
  return `${errors.length} problems (all in \`debate log\`), the first: ${errors[0]}`;
}

/**
 * The inbox files a person still owes: the latest prompt of each manual seat the step asks now,
 * unless its answer is there, or the seat's answer for this step was already accepted (fixed in
 * place, say). A prompt of a step already taken is no longer waited on.
 */
async function waitedOn(
  dir: string,
  state: DebateState,
  journal: readonly JournalEntry[],
): Promise<string[]> {
  const step = formatOfState(state).next(state);
  if (step.kind !== "ask") return [];
  const asked = new Set([...step.asks.map((a) => a.role), ...(step.fallback ? [step.fallback.role] : [])]);
  const accepted = new Set(
    journal.filter((e) => e.result.status === "ok" && journalOutcome(e) !== "rejected").map((e) => e.role),
  );
  return (await unansweredAsks(dir, state.frontmatter.current_exchange))
    .filter((ask) => asked.has(ask.role) && !accepted.has(ask.role))
    .map((ask) => `inbox/${ask.stem}.md`);
}

/**
 * The status of every debate the paths name (a debate folder, or a folder of them), in order.
 * A path that is missing, or a file, is a usage error (exit 2).
 */
export async function debateStatuses(ctx: Pick<ActionContext, "cwd">, paths: string[]): Promise<StatusRow[]> {
  for (const d of paths) {
    const found = await stat(resolve(ctx.cwd, d)).catch(() => undefined);
    if (!found) throw new ExitError(`${d}: no such folder`, 2);
    if (!found.isDirectory())
      throw new ExitError(`${d}: a file, not a debate folder (a debate is a folder holding debate.md)`, 2);
  }
  const folders = (await Promise.all(paths.map((d) => findDebates(resolve(ctx.cwd, d))))).flat();
  return Promise.all(folders.map(debateStatus));
}
