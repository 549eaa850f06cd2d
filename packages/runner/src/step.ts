import { type Adapter, secretsFromEnv } from "@debatekit/adapter-kit";
import type { AnyFormat, DebateState, FormatStep, Result } from "@debatekit/core";
import { DebatekitError, formatRuleErrors, seatSecretValues } from "@debatekit/core";
import { createSeatAdapter } from "./adapters.js";
import { askSeat, type RunBudget, type SeatContext, type SeatOutcome } from "./ask-seat.js";
import type { SeatConsentCheck } from "./consent.js";
import type { JournalStore } from "./journal-store.js";
import type { LedgerWriter } from "./ledger-writer.js";
import { createSkillCache, type SkillCache } from "./prompt.js";
import { createSkillProblemReporter } from "./skill-problems.js";
import type { RunStop } from "./summary.js";
import type { RunEvent, RunOptions } from "./types.js";

type Ask = Extract<FormatStep, { kind: "ask" }>;
type Outcome = { role: string; outcome: SeatOutcome<unknown> };

/** A step the runner takes: one that asks seats, or one that asks nobody. */
export type RunnableStep = Extract<FormatStep, { kind: "ask" | "advance" }>;

/** What every step of one run shares. */
export interface StepContext {
  dir: string;
  options: RunOptions;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  emit: (event: RunEvent) => void;
  /**
   * The values every seat's answer, prompt, error and journal entry is redacted of: the
   * environment's secrets, then those of the debate's seats as each step finds them (learnSeatSecrets).
   */
  secrets: string[];
  journal: JournalStore;
  reportSkillProblems: NonNullable<SeatContext["reportSkillProblems"]>;
  skillCache: SkillCache;
  /** The run's cost budget (its limit is debate.md's as last read, or the option's). */
  budget: RunBudget;
  seatAdapter: (format: AnyFormat, state: DebateState, role: string) => Promise<Adapter>;
  /** Rewrites the usage ledger when it is due (after the step's asks). */
  refreshLedger: (force: boolean) => Promise<void>;
}

/** The state a step leads to, or why the run stops at it. */
export type StepResult = { ok: true; state: DebateState } | { ok: false; stop: RunStop };

/** What every step of a run shares, made once when the run starts. */
export function createStepContext(
  dir: string,
  options: RunOptions,
  run: {
    env: NodeJS.ProcessEnv;
    now: () => Date;
    emit: (event: RunEvent) => void;
    checkSeat: SeatConsentCheck;
    ledger: LedgerWriter;
  },
): StepContext {
  const { env, now, emit } = run;
  const secrets = secretsFromEnv(env);
  return {
    dir,
    options,
    env,
    now,
    emit,
    secrets,
    journal: run.ledger.journal,
    reportSkillProblems: createSkillProblemReporter({ dir, secrets, emit }),
    skillCache: createSkillCache(),
    budget: { maxUsd: Infinity, reserved: 0 },
    seatAdapter: createSeatAdapters(dir, env, run.checkSeat, options),
    refreshLedger: run.ledger.refresh,
  };
}

/**
 * Adds the secrets of every seat `state` names (core's seatSecretValues: the value of each variable
 * a seat names, whatever its name) to what the run redacts and what its journal refuses: a judge
 * repeating the critic's key gives it up as surely as the critic. debate.md may gain a seat between
 * steps, so each step looks again.
 */
export function learnSeatSecrets(ctx: StepContext, state: DebateState): void {
  const { seats, judges } = state.frontmatter as { seats?: unknown; judges?: unknown };
  const found = seatSecretValues({ seats, judges }, ctx.env).filter((s) => !ctx.secrets.includes(s.value));
  if (found.length === 0) return;
  ctx.secrets.push(...found.map((s) => s.value));
  ctx.journal.refuse(found);
}

/**
 * The adapter of each seat, made once per run and seat config. debate.md may have been edited since
 * the run began: a seat is checked against the user's consent when its adapter is first made.
 */
function createSeatAdapters(
  dir: string,
  env: NodeJS.ProcessEnv,
  checkSeat: SeatConsentCheck,
  options: RunOptions,
): StepContext["seatAdapter"] {
  const adapters = new Map<string, Adapter>();
  return async (format, state, role) => {
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
      await checkSeat(role, seat);
      adapter = await createSeatAdapter(seat, { debateDir: dir, role, env }, options.adapters);
      if (options.wrapAdapter) adapter = options.wrapAdapter(adapter, seat);
      adapters.set(key, adapter);
    }
    return adapter;
  };
}

/** Asks every seat of a step, all at once or one after another (stopping at the first that fails). */
async function askAll(step: Ask, ask: (role: string) => Promise<SeatOutcome<unknown>>): Promise<Outcome[]> {
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
  const results: Outcome[] = [];
  for (const a of step.asks) {
    const outcome = await ask(a.role);
    results.push({ role: a.role, outcome });
    if (!outcome.ok) break;
  }
  return results;
}

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

/** A step some seats wait on: every waiting seat's line, not only the first one's. */
function waitingMessage(results: readonly Outcome[]): string {
  return results
    .flatMap((r) => (!r.outcome.ok && r.outcome.status === "waiting" ? [r.outcome.error.message] : []))
    .join("; ");
}

/** What askSeat needs for one call of this step. */
function seatContext(
  ctx: StepContext,
  step: RunnableStep,
  maxCostUsd: number | undefined,
  adapter: Adapter,
): SeatContext {
  const { options } = ctx;
  return {
    dir: ctx.dir,
    adapter,
    secrets: ctx.secrets,
    env: ctx.env,
    cwd: options.cwd ?? process.cwd(),
    now: ctx.now,
    emit: ctx.emit,
    journal: ctx.journal,
    reportSkillProblems: ctx.reportSkillProblems,
    skillCache: ctx.skillCache,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.skillRoots ? { skillRoots: options.skillRoots } : {}),
    ...(options.extraSkillRoots?.length ? { extraSkillRoots: options.extraSkillRoots } : {}),
    ...(step.kind === "ask" && step.timeoutMs !== undefined ? { timeoutCapMs: step.timeoutMs } : {}),
    ...(maxCostUsd !== undefined ? { budget: ctx.budget } : {}),
  };
}

/**
 * Asks the seats of an `ask` step, settles a panel, and applies the answers, or lets the format's
 * failure policy record a failed seat. Throws only what is not a DebatekitError.
 */
async function askStep(
  ctx: StepContext,
  format: AnyFormat,
  current: DebateState,
  step: Ask,
  maxCostUsd: number | undefined,
): Promise<{ ok: true; next: Result<DebateState> } | { ok: false; stop: RunStop }> {
  const ask = async (role: string) =>
    askSeat(
      seatContext(ctx, step, maxCostUsd, await ctx.seatAdapter(format, current, role)),
      current,
      role,
      (text) => format.parseAnswer(current, role, text),
    );
  const results = await askAll(step, ask).finally(() => ctx.refreshLedger(false));
  const panel = await settlePanel(step, results, ask);
  if (panel) results.push(...panel.extra);
  const bad = panel ? panel.bad : worst(results.map((r) => r.outcome));
  const now = () => ctx.now().toISOString();
  if (bad) {
    // The format's failure policy may record the failure and go on (crossfire); else the run fails
    // and a re-run asks again. Waiting and cancelled seats are never failures.
    const failedRole = results.find((r) => r.outcome === bad)!.role;
    const recorded =
      bad.status === "failed" ? format.onSeatFailure?.(current, failedRole, bad.error, now()) : undefined;
    if (bad.status === "paused") {
      return {
        ok: false,
        stop: { status: "paused", reason: bad.error.message, ...(bad.budget ? { budget: bad.budget } : {}) },
      };
    }
    if (!recorded) {
      const adapter = format.seat(current, failedRole)?.adapter;
      return {
        ok: false,
        stop: {
          status: bad.status,
          error: {
            ...bad.error,
            // Every seat waited on, not only the first (both sides of a parallel step, say).
            ...(bad.status === "waiting" ? { message: waitingMessage(results) } : {}),
            role: failedRole,
            ...(adapter ? { adapter } : {}),
          },
        },
      };
    }
    return { ok: true, next: recorded };
  }
  const answers = Object.fromEntries(
    results
      .filter((r) => r.outcome.ok)
      .map((r) => [r.role, (r.outcome as { ok: true; value: unknown }).value]),
  );
  const spentMs = results.reduce((sum, r) => sum + (r.outcome.ok ? r.outcome.spentMs : 0), 0);
  const failures = Object.fromEntries(
    results.flatMap((r) =>
      r.outcome.ok ? [] : [[r.role, { code: r.outcome.error.code, message: r.outcome.error.message }]],
    ),
  );
  return {
    ok: true,
    next: format.apply(current, answers, now(), {
      spentMs,
      ...(Object.keys(failures).length > 0 ? { failures } : {}),
    }),
  };
}

/**
 * Takes one step of the debate (not yet committed): asks its seats and applies their answers, or
 * advances without asking anyone. Returns the state to commit, or why the run stops here.
 */
export async function executeStep(
  ctx: StepContext,
  format: AnyFormat,
  current: DebateState,
  step: RunnableStep,
  maxCostUsd: number | undefined,
): Promise<StepResult> {
  learnSeatSecrets(ctx, current);
  let next: Result<DebateState>;
  if (step.kind === "advance") {
    // A move that asks nobody (a person's decision, a spent budget): committed like any step.
    const advanced = format.advance?.(current, ctx.now().toISOString());
    if (!advanced) {
      return {
        ok: false,
        stop: {
          status: "failed",
          error: {
            code: "FORMAT_NO_ADVANCE",
            message: `${format.name} asked to advance but has no advance()`,
            file: "debate.md",
          },
        },
      };
    }
    next = advanced;
  } else {
    try {
      const asked = await askStep(ctx, format, current, step, maxCostUsd);
      if (!asked.ok) return asked;
      next = asked.next;
    } catch (error) {
      if (!(error instanceof DebatekitError)) throw error;
      return {
        ok: false,
        stop: {
          status: "failed",
          error: {
            code: error.code,
            message: error.message,
            ...(error.file ? { file: error.file } : {}),
            ...(error.field ? { field: error.field } : {}),
          },
        },
      };
    }
  }
  if (!next.ok) {
    return {
      ok: false,
      stop: {
        status: "failed",
        error: {
          code: next.errors[0]!.code,
          message: formatRuleErrors(next.errors).join("; "),
          file: "debate.md",
        },
      },
    };
  }
  return { ok: true, state: next.value };
}
