import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DebateState, FormatStep, ProgressUnit } from "@debatekit/core";
import { DebatekitError, formatOfState, formatRuleErrors } from "@debatekit/core";
import type { DebateFolder } from "@debatekit/files";
import { acquireLock, commitStep, readDebateFolder } from "@debatekit/files";
import { checkFolderConsent } from "./consent.js";
import { writeDerivedAfterRun } from "./derived-writer.js";
import { refreshIndexAfterRun } from "./index-writer.js";
import { createLedgerWriter } from "./ledger-writer.js";
import { checkSeatsBeforeRun } from "./preflight.js";
import { createStepContext, executeStep, learnSeatSecrets, type RunnableStep } from "./step.js";
import { type RunStop, summarize } from "./summary.js";
import type { RunEvent, RunOptions, RunSummary } from "./types.js";

/** debate.md's text as it is on disk now (undefined when it cannot be read: the full read reports why). */
async function readDebateText(dir: string): Promise<string | undefined> {
  return readFile(join(dir, "debate.md"), "utf8").catch(() => undefined);
}

/** Reads the folder or throws a DebatekitError naming the file and field. */
async function readFolder(dir: string): Promise<DebateFolder> {
  const read = await readDebateFolder(dir);
  if (read.ok) return read.value;
  const first = read.errors[0]!;
  const [file, field] = first.path.includes(":") ? first.path.split(/:(.*)/s) : [undefined, first.path];
  throw new DebatekitError(first.code, formatRuleErrors(read.errors).join("\n"), {
    ...(file ? { file } : {}),
    ...(field ? { field } : {}),
  });
}

/**
 * The folder as it is now. Reading the whole folder parses every argument file: O(arguments) per
 * step, O(exchanges²) per run. Our own last commit already holds that state, so it is reused unless
 * debate.md is no longer what the commit wrote (a person may edit it, e.g. raise `exchanges`, while
 * a run goes on). Text, not mtime: a same-size edit within a coarse mtime tick must still be seen.
 */
async function currentFolder(dir: string, cached: CommittedFolder | undefined): Promise<DebateFolder> {
  const debateText = cached && (await readDebateText(dir));
  return cached && debateText !== undefined && debateText === cached.debateText
    ? cached.folder
    : readFolder(dir);
}

/** The folder as our last commit left it, and debate.md's text right after that commit. */
interface CommittedFolder {
  folder: DebateFolder;
  debateText: string | undefined;
}

/** Takes the debate's lock (waiting for it when asked), reporting a refusal as an `error` event. */
async function lockDebate(dir: string, options: RunOptions, emit: (event: RunEvent) => void) {
  try {
    return await acquireLock(dir, {
      ...(options.wait ? { wait: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      command: options.command ?? "debate run",
      onWait: (holder) =>
        emit({
          type: "waiting",
          dir,
          reason: "lock",
          message: holder
            ? `waiting for pid ${holder.pid} on ${holder.host} (${holder.command}) to release the lock`
            : "waiting for the lock",
        }),
    });
  } catch (error) {
    const e = error as DebatekitError;
    emit({ type: "error", dir, code: e.code ?? "LOCK_FAILED", message: e.message });
    throw error;
  }
}

/** The step to take next, or why the run stops before it (the debate is over or blocked, or the run did what it was asked). */
function stepToTake(
  step: FormatStep,
  options: RunOptions,
  committed: number,
  unit: ProgressUnit,
): { ok: true; step: RunnableStep } | { ok: false; stop: RunStop } {
  const stop = (rest: RunStop) => ({ ok: false as const, stop: rest });
  if (step.kind === "done") return stop({ status: "done", reason: step.message });
  if (step.kind === "blocked" && step.waiting) return stop({ status: "waiting", reason: step.message });
  if (step.kind === "blocked") {
    return step.reason === "paused"
      ? stop({ status: "paused", reason: step.message })
      : stop({
          status: "failed",
          error: { code: `DEBATE_${step.reason.toUpperCase()}`, message: step.message, file: "debate.md" },
        });
  }
  if (
    options.exchanges !== undefined &&
    step.kind === "ask" &&
    step.opens &&
    step.completed >= options.exchanges
  ) {
    const counted = options.exchanges === 1 ? unit.one : unit.many;
    return stop({ status: "done", reason: `stopped after ${options.exchanges} ${counted} as requested` });
  }
  if (options.steps !== undefined && committed >= options.steps) {
    return stop({ status: "done", reason: `stopped after ${committed} step(s) as requested` });
  }
  return { ok: true, step };
}

/**
 * Runs or resumes the debate in `dir`: takes the lock, then does exactly what `nextAction` says,
 * one committed step at a time, until the debate is complete, the requested exchanges are done,
 * a seat is waiting or fails, or the signal aborts. Throws only when it cannot start (locked,
 * unreadable folder); everything else is in the summary.
 */
export async function runDebate(dir: string, options: RunOptions = {}): Promise<RunSummary> {
  const emit = (event: RunEvent) => options.onEvent?.(event);
  const env = options.env ?? process.env;
  const now = options.now ?? (() => new Date());
  // Consent comes before anything is written (even the lock): a folder someone handed over runs
  // none of its programs until the user allowed them.
  const checkSeat = await checkFolderConsent(dir, {
    env,
    ...(options.consentDir ? { consentDir: options.consentDir } : {}),
    ...(options.vouched ? { vouched: options.vouched } : {}),
  });
  const lock = await lockDebate(dir, options, emit);
  const ledger = createLedgerWriter(dir, {
    env,
    now,
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  });
  const ctx = createStepContext(dir, options, { env, now, emit, checkSeat, ledger });
  let committed = 0;
  // The last full read that holds an argument index, and the state this run last saw (read or
  // committed): the derived files and the index are brought up to date from them when the run stops.
  let lastRead: DebateFolder | undefined;
  let lastState: DebateState | undefined;
  let lastFolder: DebateFolder | undefined;
  let cached: CommittedFolder | undefined;
  let seatsChecked = false;
  try {
    for (;;) {
      const folder = await currentFolder(dir, cached);
      if (folder.argumentIndex) lastRead = folder;
      lastFolder = folder;
      const state = folder.state;
      lastState = state;
      learnSeatSecrets(ctx, state);
      const fm = state.frontmatter;
      const maxCostUsd = options.maxCostUsd ?? (fm as { max_cost_usd?: number }).max_cost_usd;
      ctx.budget.maxUsd = maxCostUsd ?? Infinity;
      ledger.track({ debateId: fm.debate_id, budget: maxCostUsd !== undefined ? { maxCostUsd } : {} });
      const finish = (rest: RunStop) => {
        const summary = summarize(folder.state, committed, rest);
        if (summary.error)
          emit({ type: "error", dir, code: summary.error.code, message: summary.error.message });
        emit({ type: "done", dir, summary });
        return summary;
      };
      if (options.signal?.aborted) return finish({ status: "cancelled", reason: "stopped by a signal" });
      const format = formatOfState(state);
      const next = stepToTake(format.next(state), options, committed, format.unit);
      if (!next.ok) return finish(next.stop);
      // Every seat the run may call is checked once, before the first call (a run with nothing to ask checks none).
      if (!seatsChecked && next.step.kind === "ask") {
        seatsChecked = true;
        const unfit = await checkSeatsBeforeRun(ctx, format, state);
        if (unfit) return finish(unfit);
      }
      const taken = await executeStep(ctx, format, state, next.step, maxCostUsd);
      if (!taken.ok) return finish(taken.stop);
      // The derived files (formal's argument-graph.mmd, the whole debate's graph) are written once
      // when the run stops, not at every step: rewriting them per step made a step cost the debate's
      // size. The step that ends the debate commits them with it (review's decision.json and
      // summary.md are its result: a finished debate never lacks them, even after a kill -9).
      const ends = formatOfState(taken.state).next(taken.state).kind === "done";
      const written = await commitStep(folder, taken.state, { derivedFiles: ends });
      lastState = written.state;
      lastFolder = written;
      cached = { folder: written, debateText: written.debateText };
      await options.checkpoint?.("step");
      committed++;
      emit({
        type: "step_committed",
        dir,
        exchange: taken.state.frontmatter.current_exchange,
        phase: taken.state.frontmatter.current_phase,
        from: { exchange: fm.current_exchange, phase: fm.current_phase },
        standing: formatOfState(written.state).standing(written.state),
      });
    }
  } finally {
    try {
      await writeDerivedAfterRun(lastFolder, committed);
      await ledger.refresh(true);
      await refreshIndexAfterRun(dir, { lastRead, lastState, committed });
    } finally {
      await lock.release();
    }
  }
}
