import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Adapter } from "@debatekit/adapter-kit";
import { secretsFromEnv } from "@debatekit/adapter-kit";
import type { DebateState, Format, FormatStep, Result } from "@debatekit/core";
import { cumulativeScores, DebatekitError, formatOfState, formatRuleErrors } from "@debatekit/core";
import type { DebateFolder } from "@debatekit/files";
import {
  acquireLock,
  commitStep,
  readArgument,
  readDebateFolder,
  refreshArgumentIndex,
  writeArgumentIndex,
  writeDerivedFiles,
} from "@debatekit/files";
import type { UsageLedger } from "@debatekit/schema";
import { createSeatAdapter } from "./adapters.js";
import { askSeat, type RunBudget, type SeatContext, type SeatOutcome } from "./ask-seat.js";
import { checkFolderConsent } from "./consent.js";
import { createJournalStore } from "./journal-store.js";
import { buildLedger, currentLedger, mergeLedger, writeLedger } from "./ledger.js";
import { createSkillCache } from "./prompt.js";
import { createSkillProblemReporter } from "./skill-problems.js";
import type { RunEvent, RunOptions, RunSummary } from "./types.js";

/** Least time between two ledger writes during a run (the last write, when the run ends, is always made). */
const ledgerIntervalMs = 5_000;

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

function summarize(
  state: DebateState,
  committed: number,
  rest: Pick<RunSummary, "status"> & Partial<RunSummary>,
): RunSummary {
  const format = formatOfState(state);
  const standing = format.standing(state);
  // A seat that failed for good leaves the result short of a seat (docs/architecture.md#honest-degradation): say which, with its error.
  const e = rest.status === "failed" ? rest.error : undefined;
  const degraded = [
    ...(standing.degraded ?? []),
    ...(e?.role
      ? [
          {
            cause: "seat_failed" as const,
            message: `the ${e.role}${e.adapter ? ` (${e.adapter})` : ""} failed for good`,
            role: e.role,
            ...(e.adapter ? { adapter: e.adapter } : {}),
            round: state.frontmatter.current_exchange,
            code: e.code,
            error: e.message,
          },
        ]
      : []),
  ];
  return {
    exchange: state.frontmatter.current_exchange,
    phase: state.frontmatter.current_phase,
    cumulative: cumulativeScores(state.scores),
    committed,
    format: format.name,
    standing,
    ...(standing.outcome ? { outcome: standing.outcome } : {}),
    ...(degraded.length > 0 ? { degraded } : {}),
    ...rest,
  };
}

type Ask = Extract<FormatStep, { kind: "ask" }>;

/** Asks every seat of a step, all at once or one after another (stopping at the first that fails). */
async function askAll(
  step: Ask,
  ask: (role: string) => Promise<SeatOutcome<unknown>>,
): Promise<Array<{ role: string; outcome: SeatOutcome<unknown> }>> {
  if (step.mode === "parallel") {
    // allSettled, not all: when one seat throws (a broken folder), the others' calls must finish
    // (and be journaled) before the run ends and releases the lock, never after.
    const settled = await Promise.allSettled(step.asks.map((a) => ask(a.role)));
    const thrown = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (thrown) throw thrown.reason;
    return step.asks.map((a, i) => ({
      role: a.role,
      outcome: (settled[i] as PromiseFulfilledResult<SeatOutcome<unknown>>).value,
    }));
  }
  const results: Array<{ role: string; outcome: SeatOutcome<unknown> }> = [];
  for (const a of step.asks) {
    const outcome = await ask(a.role);
    results.push({ role: a.role, outcome });
    if (!outcome.ok) break;
  }
  return results;
}

type Outcome = { role: string; outcome: SeatOutcome<unknown> };

/**
 * A panel step (one with a quorum): failed asks are tolerated when enough groups (judges) answered;
 * else the fallback is asked. Returns undefined for other steps; else the extra outcomes (the
 * fallback's) and the failure that stops the step, if any. Waiting or cancelled asks always stop it.
 */
async function settlePanel(
  step: Ask,
  results: Outcome[],
  ask: (role: string) => Promise<SeatOutcome<unknown>>,
): Promise<{ extra: Outcome[]; bad: ReturnType<typeof worst> } | undefined> {
  if (step.quorum === undefined) return undefined;
  const stop = worst(results.map((r) => r.outcome).filter((o) => !o.ok && o.status !== "failed"));
  if (stop) return { extra: [], bad: stop };
  const groupOf = new Map(step.asks.map((a) => [a.role, a.group ?? a.role]));
  const answered = () =>
    new Set(results.filter((r) => r.outcome.ok).map((r) => groupOf.get(r.role) ?? r.role)).size;
  if (answered() >= step.quorum) return { extra: [], bad: undefined };
  if (step.fallback) {
    const outcome = await ask(step.fallback.role);
    const extra = [{ role: step.fallback.role, outcome }];
    // The fallback stands in for the missing judges: its answer is enough to go on (marked degraded).
    if (outcome.ok) return { extra, bad: undefined };
    return { extra, bad: worst([...results, ...extra].map((r) => r.outcome)) };
  }
  return { extra: [], bad: worst(results.map((r) => r.outcome)) };
}

/** The worst of several failed seat outcomes decides the run's status: cancelled, failed, paused (budget), waiting. */
function worst(outcomes: SeatOutcome<unknown>[]): Extract<SeatOutcome<unknown>, { ok: false }> | undefined {
  const failed = outcomes.filter((o): o is Extract<SeatOutcome<unknown>, { ok: false }> => !o.ok);
  const rank = { cancelled: 0, failed: 1, paused: 2, waiting: 3 } as const;
  return failed.sort((a, b) => rank[a.status] - rank[b.status])[0];
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
  let lock: Awaited<ReturnType<typeof acquireLock>>;
  try {
    lock = await acquireLock(dir, {
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
  const adapters = new Map<string, Adapter>();
  const seatAdapter = async (format: Format, state: DebateState, role: string): Promise<Adapter> => {
    const seat = format.seat(state, role);
    if (!seat) {
      throw new DebatekitError("SEAT_MISSING", `debate.md has no seat \`${role}\` for this step`, {
        file: "debate.md",
        field: `seats.${role}`,
      });
    }
    const key = JSON.stringify(seat);
    let adapter = adapters.get(key);
    if (!adapter) {
      // debate.md may have been edited since the run began: the seat as it is now must be allowed.
      await checkSeat(role, seat);
      adapter = await createSeatAdapter(seat, { debateDir: dir, env }, options.adapters);
      if (options.wrapAdapter) adapter = options.wrapAdapter(adapter, seat);
      adapters.set(key, adapter);
    }
    return adapter;
  };
  let committed = 0;
  const store = createJournalStore(dir, { env });
  let ledgerId: { debateId: string; budget: { maxCostUsd?: number } } | undefined;
  // The ledger as the run found it, read before its first journal write, when it listed exactly the
  // journal's files (an empty one for an empty journal): the run's own entries are merged into it,
  // so rewriting a long debate's ledger never reads its whole journal.
  let ledgerAtStart: Promise<UsageLedger | undefined> | undefined;
  const startLedger = async (): Promise<UsageLedger | undefined> => {
    if (!ledgerId) return undefined;
    const { debateId, budget } = ledgerId;
    try {
      const current = await currentLedger(dir, budget);
      return current.journaled === 0 ? buildLedger(debateId, [], budget) : current.ledger;
    } catch {
      return undefined;
    }
  };
  // A queued debate copies what it writes elsewhere (Redis) as it writes it: after every journal
  // entry (a paid answer) and every committed step. A checkpoint that throws stops the run.
  const journal: typeof store = {
    forStep: (...args) => store.forStep(...args),
    all: () => store.all(),
    get written() {
      return store.written;
    },
    writtenEntries: () => store.writtenEntries(),
    async write(entry) {
      ledgerAtStart ??= startLedger();
      await ledgerAtStart;
      const path = await store.write(entry);
      await options.checkpoint?.("journal", entry);
      return path;
    },
  };
  const secrets = secretsFromEnv(env);
  const reportSkillProblems = createSkillProblemReporter({ dir, secrets, emit });
  const skillCache = createSkillCache();
  // The ledger is derived from the journal, so it may lag without ever counting a call twice or
  // missing one for good: it is rewritten at most every few seconds during a run (a long debate of
  // instant seats must not rewrite a growing file every step) and always when the run ends.
  let ledgerAt = 0;
  // A ledger that cannot be written (a journal file the run already reports as broken, a full
  // disk) never changes how the run ends: it is derived, and `status` rebuilds it from the journal.
  const refreshLedger = async (force: boolean) => {
    if (!ledgerId || (!force && now().getTime() - ledgerAt < ledgerIntervalMs)) return;
    try {
      if (journal.written === 0) {
        // This run called nobody (a resume that found nothing to do): the ledger is rebuilt only when
        // it no longer lists the journal's files, so a resume never reads a long journal for nothing.
        const current = await currentLedger(dir, ledgerId.budget);
        if (current.ledger || current.journaled === 0) return;
      }
      const { debateId, budget } = ledgerId;
      const base = journal.written > 0 ? await ledgerAtStart : undefined;
      if (base) {
        ledgerAt = now().getTime();
        await writeLedger(dir, mergeLedger(base, journal.writtenEntries(), budget));
        return;
      }
      const entries = await journal.all();
      if (entries.length === 0) return;
      ledgerAt = now().getTime();
      await writeLedger(dir, buildLedger(debateId, entries, budget));
    } catch {
      // See above.
    }
  };
  // The argument index (files' .debate/argument-index.json) lets the next run skip parsing every
  // argument file: rewritten when the run ends, from the last full read plus the files this run added.
  // A run that committed nothing writes none: it leaves the folder as it found it.
  let lastRead: DebateFolder | undefined;
  let lastState: DebateState | undefined;
  const refreshIndex = async () => {
    if (!lastRead?.argumentIndex || !lastState) return;
    try {
      const ids = lastState.arguments.map((a) => a.frontmatter.id);
      const known = lastRead.argumentIndex;
      if (committed === 0) return;
      await writeArgumentIndex(
        dir,
        await refreshArgumentIndex(dir, ids, known, (id) => readArgument(dir, id)),
      );
    } catch {
      // Derived: a run never fails on it (the next read parses the files).
    }
  };
  const budget: RunBudget = { maxUsd: Infinity, reserved: 0 };
  // The folder as our last commit left it, and debate.md's text right after that commit.
  let cached: { folder: DebateFolder; debateText: string | undefined } | undefined;
  // The folder as this run last saw it (read or committed): its derived files are brought up to
  // date once when the run stops.
  let lastFolder: DebateFolder | undefined;
  // The derived files (formal's graph; review's decision.json and summary.md once it is complete) as
  // the run leaves the debate, when it committed a step. A run that commits nothing writes nothing
  // (bad input changes no file), except on a finished debate, whose final files it puts right
  // (e.g. one that ended before they were committed with its last step). Only files whose text
  // differs are written.
  const writeDerived = async () => {
    if (!lastFolder) return;
    const state = lastFolder.state;
    if (committed === 0 && formatOfState(state).next(state).kind !== "done") return;
    try {
      await writeDerivedFiles(lastFolder);
    } catch {
      // A run never fails on them (the next one writes them); the step that ends a debate already
      // committed them with debate.md.
    }
  };
  try {
    for (;;) {
      // Reading the whole folder parses every argument file: O(arguments) per step, O(exchanges²) per
      // run. Our own commit already holds that state, so reuse it unless debate.md is no longer what
      // the commit wrote (a person may edit it, e.g. raise `exchanges`, while a run goes on). Text,
      // not mtime: a same-size edit within a coarse mtime tick must still be seen.
      const debateText = cached && (await readDebateText(dir));
      const folder =
        cached && debateText !== undefined && debateText === cached.debateText
          ? cached.folder
          : await readFolder(dir);
      if (folder.argumentIndex) lastRead = folder;
      lastFolder = folder;
      const state = folder.state;
      lastState = state;
      const fm = state.frontmatter;
      const maxCostUsd = options.maxCostUsd ?? (fm as { max_cost_usd?: number }).max_cost_usd;
      budget.maxUsd = maxCostUsd ?? Infinity;
      ledgerId = { debateId: fm.debate_id, budget: maxCostUsd !== undefined ? { maxCostUsd } : {} };
      const finish = (rest: Pick<RunSummary, "status"> & Partial<RunSummary>) => {
        const summary = summarize(folder.state, committed, rest);
        if (summary.error)
          emit({ type: "error", dir, code: summary.error.code, message: summary.error.message });
        emit({ type: "done", dir, summary });
        return summary;
      };
      if (options.signal?.aborted) return finish({ status: "cancelled", reason: "stopped by a signal" });
      const format = formatOfState(state);
      const step = format.next(state);
      if (step.kind === "done") return finish({ status: "done", reason: step.message });
      if (step.kind === "blocked" && step.waiting) return finish({ status: "waiting", reason: step.message });
      if (step.kind === "blocked") {
        return step.reason === "paused"
          ? finish({ status: "paused", reason: step.message })
          : finish({
              status: "failed",
              error: {
                code: `DEBATE_${step.reason.toUpperCase()}`,
                message: step.message,
                file: "debate.md",
              },
            });
      }
      if (
        options.exchanges !== undefined &&
        step.kind === "ask" &&
        step.opens &&
        step.completed >= options.exchanges
      ) {
        return finish({
          status: "done",
          reason: `stopped after ${options.exchanges} exchange(s) as requested`,
        });
      }
      if (options.steps !== undefined && committed >= options.steps) {
        return finish({ status: "done", reason: `stopped after ${committed} step(s) as requested` });
      }
      const context = (adapter: Adapter): SeatContext => ({
        dir,
        adapter,
        secrets,
        env,
        cwd: options.cwd ?? process.cwd(),
        now,
        emit,
        journal,
        reportSkillProblems,
        skillCache,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.skillRoots ? { skillRoots: options.skillRoots } : {}),
        ...(options.extraSkillRoots?.length ? { extraSkillRoots: options.extraSkillRoots } : {}),
        ...(step.kind === "ask" && step.timeoutMs !== undefined ? { timeoutCapMs: step.timeoutMs } : {}),
        ...(maxCostUsd !== undefined ? { budget } : {}),
      });
      const current = state;
      let next: Result<DebateState>;
      if (step.kind === "advance") {
        // A move that asks nobody (a person's decision, a spent budget): committed like any step.
        const advanced = format.advance?.(current, now().toISOString());
        if (!advanced) {
          return finish({
            status: "failed",
            error: {
              code: "FORMAT_NO_ADVANCE",
              message: `${format.name} asked to advance but has no advance()`,
              file: "debate.md",
            },
          });
        }
        next = advanced;
      } else
        try {
          const ask = async (role: string) =>
            askSeat(context(await seatAdapter(format, current, role)), current, role, (text) =>
              format.parseAnswer(current, role, text),
            );
          const results = await askAll(step, ask).finally(() => refreshLedger(false));
          const panel = await settlePanel(step, results, ask);
          if (panel) results.push(...panel.extra);
          const bad = panel ? panel.bad : worst(results.map((r) => r.outcome));
          if (bad) {
            // The format's failure policy may record the failure and go on (crossfire); else the run fails
            // and a re-run asks again. Waiting and cancelled seats are never failures.
            const failedRole = results.find((r) => r.outcome === bad)!.role;
            const recorded =
              bad.status === "failed"
                ? format.onSeatFailure?.(current, failedRole, bad.error, now().toISOString())
                : undefined;
            if (bad.status === "paused")
              return finish({
                status: "paused",
                reason: bad.error.message,
                ...(bad.budget ? { budget: bad.budget } : {}),
              });
            if (!recorded) {
              const adapter = format.seat(current, failedRole)?.adapter;
              return finish({
                status: bad.status,
                error: { ...bad.error, role: failedRole, ...(adapter ? { adapter } : {}) },
              });
            }
            next = recorded;
          } else {
            const answers = Object.fromEntries(
              results
                .filter((r) => r.outcome.ok)
                .map((r) => [r.role, (r.outcome as { ok: true; value: unknown }).value]),
            );
            const spentMs = results.reduce((sum, r) => sum + (r.outcome.ok ? r.outcome.spentMs : 0), 0);
            const failures = Object.fromEntries(
              results.flatMap((r) =>
                r.outcome.ok
                  ? []
                  : [[r.role, { code: r.outcome.error.code, message: r.outcome.error.message }]],
              ),
            );
            next = format.apply(current, answers, now().toISOString(), {
              spentMs,
              ...(Object.keys(failures).length > 0 ? { failures } : {}),
            });
          }
        } catch (error) {
          if (!(error instanceof DebatekitError)) throw error;
          return finish({
            status: "failed",
            error: {
              code: error.code,
              message: error.message,
              ...(error.file ? { file: error.file } : {}),
              ...(error.field ? { field: error.field } : {}),
            },
          });
        }
      if (!next.ok) {
        return finish({
          status: "failed",
          error: {
            code: next.errors[0]!.code,
            message: formatRuleErrors(next.errors).join("; "),
            file: "debate.md",
          },
        });
      }
      // The derived files (formal's argument-graph.mmd, the whole debate's graph) are written once
      // when the run stops, not at every step: rewriting them per step made a step cost the debate's
      // size. The step that ends the debate commits them with it (review's decision.json and
      // summary.md are its result: a finished debate never lacks them, even after a kill -9).
      const ends = formatOfState(next.value).next(next.value).kind === "done";
      const written = await commitStep(folder, next.value, { derivedFiles: ends });
      lastState = written.state;
      lastFolder = written;
      cached = { folder: written, debateText: written.debateText };
      await options.checkpoint?.("step");
      committed++;
      emit({
        type: "step_committed",
        dir,
        exchange: next.value.frontmatter.current_exchange,
        phase: next.value.frontmatter.current_phase,
        from: { exchange: fm.current_exchange, phase: fm.current_phase },
        standing: formatOfState(written.state).standing(written.state),
      });
    }
  } finally {
    try {
      await writeDerived();
      await refreshLedger(true);
      await refreshIndex();
    } finally {
      await lock.release();
    }
  }
}
