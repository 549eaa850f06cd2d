import { createHash } from "node:crypto";
import type { Adapter, SeatCall } from "@debatekit/adapter-kit";
import { redactSecrets, sanitizeError } from "@debatekit/adapter-kit";
import type { DebateState, Result } from "@debatekit/core";
import { clipText, DebatekitError, formatOfState, formatRuleErrors } from "@debatekit/core";
import { journalFileName } from "@debatekit/files";
import type { AdapterResult, JournalEntry, SeatConfig } from "@debatekit/schema";
import type { SkillProblem } from "@debatekit/skills";
import type { JournalStore } from "./journal-store.js";
import { entryUsage } from "./ledger.js";
import { assemblePrompt, chooseSkills, chooseTemplates, type SkillCache } from "./prompt.js";
import {
  callWithSession,
  readSeatSession,
  resumesSession,
  type SentCall,
  writeSeatSession,
} from "./session.js";
import type { BudgetStop, Phase, RunEvent, RunSummary } from "./types.js";
import { callUsage, estimateCallCost } from "./usage.js";

/** What askSeat needs from the run. */
export interface SeatContext {
  dir: string;
  adapter: Adapter;
  secrets: readonly string[];
  /** The run's environment: where default skill folders are found (XDG_CONFIG_HOME, HOME). */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  cwd: string;
  now: () => Date;
  emit: (event: RunEvent) => void;
  /** The run's view of the journal (read once, kept in step with our writes). */
  journal: JournalStore;
  /** Skills folders to use instead of the default ones. */
  skillRoots?: string[];
  extraSkillRoots?: string[];
  /** The run's memory of the skills folders (read once per run). */
  skillCache?: SkillCache;
  /** A cap on each call's timeout the format sets (review: the budget left), below the seat's own. */
  timeoutCapMs?: number;
  /** The debate's cost budget, shared by the seats of a run (parallel calls reserve their estimates). */
  budget?: RunBudget;
  /** Receives what loadSkills found wrong (runDebate emits each once per run as `skill_problem`). */
  reportSkillProblems?: (role: string, problems: readonly SkillProblem[]) => void;
}

/** A run's cost budget: the limit, and the estimates of calls under way (not yet journaled). */
export interface RunBudget {
  maxUsd: number;
  reserved: number;
}

/** A seat's usable answer, or why there is none. */
export type SeatOutcome<T> =
  /** `spentMs`: what the step's calls for this seat took, journaled ones included (a resume counts them once). */
  | { ok: true; value: T; spentMs: number }
  | {
      ok: false;
      /** `paused`: the cost budget stops the run before this seat's call (`budget` says why). */
      status: Exclude<RunSummary["status"], "done">;
      error: NonNullable<RunSummary["error"]>;
      budget?: BudgetStop;
    };

/** Adapters whose CLI reports each call's cost: a seat of theirs may make its first call unpriced. */
const reportsCost = new Set(["claude", "opencode", "acp"]);

function usd(n: number): string {
  return `$${n < 0.01 && n > 0 ? n.toPrecision(2) : n.toFixed(2)}`;
}

/**
 * Whether the budget lets `role` send `prompt`: the known cost of the journal so far, the calls
 * under way, and this call's estimate must stay within it. Returns the amount to reserve, or why not.
 */
async function checkBudget(
  context: SeatContext,
  budget: RunBudget,
  seat: SeatConfig,
  role: string,
  prompt: string,
): Promise<{ ok: true; reserve: number } | Extract<SeatOutcome<never>, { ok: false }>> {
  const entries = await context.journal.all();
  const usages = entries.map((e) => ({ role: e.role, usage: entryUsage(e) }));
  const spent = Math.round(usages.reduce((n, u) => n + (u.usage.cost_usd ?? 0), 0) * 1e6) / 1e6;
  const past = usages.filter((u) => u.role === role);
  const estimate = estimateCallCost({ seat, prompt, ...(seat.model ? { model: seat.model } : {}), past });
  const stop = (code: string, message: string): Extract<SeatOutcome<never>, { ok: false }> => ({
    ok: false,
    status: "paused",
    error: { code, message, file: "debate.md", field: "max_cost_usd" },
    budget: {
      max_cost_usd: budget.maxUsd,
      spent_usd: spent,
      ...(budget.reserved > 0 ? { under_way_usd: Math.round(budget.reserved * 1e6) / 1e6 } : {}),
      role,
      ...(estimate !== undefined ? { next_call_usd: estimate } : {}),
    },
  });
  const raise = "raise max_cost_usd in debate.md (or `debate run --max-cost`) and run again to go on";
  if (estimate === undefined) {
    // A CLI that reports its cost prices its own first call; after it the seat's rate is known.
    if (past.length === 0 && reportsCost.has(seat.adapter)) return { ok: true, reserve: 0 };
    return stop(
      "BUDGET_UNPRICED",
      `max cost ${usd(budget.maxUsd)}: the ${role} seat (${seat.adapter}${seat.model ? `, ${seat.model}` : ""}) has no price and its CLI reports no cost, so its calls cannot be bounded; give the seat a \`price:\` (USD per million tokens)`,
    );
  }
  if (spent + budget.reserved + estimate > budget.maxUsd) {
    return stop(
      "BUDGET_EXCEEDED",
      `max cost ${usd(budget.maxUsd)} would be exceeded: ${usd(spent)} spent${budget.reserved > 0 ? ` (+${usd(budget.reserved)} under way)` : ""}, the ${role}'s next call is estimated at ${usd(estimate)}; ${raise}`,
    );
  }
  return { ok: true, reserve: estimate };
}

const defaultTimeoutMs = 600_000;

/**
 * A seat asked outside the format's steps (the report's `reporter`): its own phase, seat and prompt.
 * A journaled answer is reused only when it was given to this very prompt (or one of its retries):
 * once the debate has moved on, the prompt differs and the seat is asked again.
 */
export interface ExtraSeatAsk {
  phase: Phase;
  seat: SeatConfig;
  /** The prompt, with the errors of the previous answer fed back (none for the first call). */
  prompt: (feedback: readonly string[]) => string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The envelope as the journal stores it: schema fields only, every string redacted. */
function sanitizeCall(
  call: SeatCall,
  secrets: readonly string[],
): { result: AdapterResult; raw?: JournalEntry["raw"] } {
  const result: AdapterResult = {
    status: call.status,
    text: redactSecrets(call.text, secrets),
    durationMs: Math.max(0, call.durationMs),
    transport: call.transport,
  };
  if (call.sessionId !== undefined) result.sessionId = call.sessionId;
  if (call.model !== undefined) result.model = redactSecrets(call.model, secrets);
  if (call.usage !== undefined) result.usage = call.usage;
  if (call.exitCode !== undefined) result.exitCode = call.exitCode;
  // A seat that tried to act is on record, whatever else it answered (its tools were refused).
  if (call.toolCalls?.length) result.toolCalls = call.toolCalls.map((name) => redactSecrets(name, secrets));
  if (call.error !== undefined) result.error = sanitizeError(call.error, secrets);
  const raw = call.raw && {
    stdout: redactSecrets(call.raw.stdout, secrets),
    stderr: redactSecrets(call.raw.stderr, secrets),
    truncated: call.raw.truncated,
  };
  return raw ? { result, raw } : { result };
}

/** How much of a prompt the journal keeps (characters); the hash is always of the whole prompt. */
const KEPT_PROMPT_CHARS = 262_144;

/** The prompt as the journal keeps it for `debate log`: secrets redacted, cut when very long. */
function keptPrompt(
  prompt: string,
  secrets: readonly string[],
): Pick<JournalEntry, "prompt" | "prompt_truncated"> {
  const redacted = redactSecrets(prompt, secrets);
  return redacted.length > KEPT_PROMPT_CHARS
    ? { prompt: redacted.slice(0, KEPT_PROMPT_CHARS), prompt_truncated: true }
    : { prompt: redacted };
}

/** The step's entries that answered this prompt: its first form, or a retry of it with an entry's errors fed back. */
function forThisPrompt(entries: JournalEntry[], prompt: ExtraSeatAsk["prompt"]): JournalEntry[] {
  const prompts = new Set([sha256(prompt([]))]);
  for (const e of entries)
    if (e.validation?.ok === false) prompts.add(sha256(prompt(e.validation.errors ?? [])));
  return entries.filter((e) => prompts.has(e.prompt_sha256));
}

/** How many of an answer's problems a failure message quotes; the journal file holds them all. */
const QUOTED_PROBLEMS = 3;

/** An answer's problems for a failure message: each one, or the first few and where the rest are. */
function listProblems(errors: readonly string[], file: string): string {
  if (errors.length === 0) return "invalid answer";
  const quoted = errors.slice(0, QUOTED_PROBLEMS).join("; ");
  const more = errors.length - QUOTED_PROBLEMS;
  return more > 0 ? `${quoted}; and ${more} more: see ${file}` : quoted;
}

/**
 * Gets one seat's valid answer for the debate's current step: reuses a journaled good answer when
 * there is one (a crash never repeats a call), else calls the seat, journals the result BEFORE
 * parsing it, and asks again with the validation errors up to `retries` times.
 */
export async function askSeat<T>(
  context: SeatContext,
  state: DebateState,
  role: string,
  parseAnswer: (text: string) => Result<T>,
  extra?: ExtraSeatAsk,
): Promise<SeatOutcome<T>> {
  const { dir, adapter, emit } = context;
  const parse = (text: string): Result<T> => {
    // An answer the parser cannot even get through (a bug, or input pathological enough to throw) is
    // an invalid answer, journaled as such: the seat is asked again, instead of every later run
    // reusing the journaled answer and failing on it forever.
    try {
      return parseAnswer(text);
    } catch (error) {
      const why = clipText(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 160);
      return {
        ok: false,
        errors: [
          {
            code: "ANSWER_UNREADABLE",
            path: "",
            message: `the answer could not be read (${why}); expected one JSON object in the documented shape`,
          },
        ],
      };
    }
  };
  const fm = state.frontmatter;
  const exchange = fm.current_exchange;
  const phase: Phase = extra?.phase ?? fm.current_phase;
  const seat = extra ? extra.seat : formatOfState(state).seat(state, role);
  if (!seat) {
    throw new DebatekitError("SEAT_MISSING", `debate.md has no seat \`${role}\` for this step`, {
      file: "debate.md",
      field: `seats.${role}`,
    });
  }
  const retries = fm.retries ?? 2;
  const ref = { dir, exchange, phase, role };
  const journalPath = (attempt: number) =>
    `.debate/journal/${journalFileName({ exchange, phase, role, attempt })}`;

  const stepEntries = await context.journal.forStep(exchange, phase, role);
  const journal = extra ? forThisPrompt(stepEntries, extra.prompt) : stepEntries;
  const answered = async (value: T): Promise<SeatOutcome<T>> => {
    const entries = await context.journal.forStep(exchange, phase, role);
    return { ok: true, value, spentMs: entries.reduce((sum, e) => sum + (e.result.durationMs ?? 0), 0) };
  };
  // Journal attempts number every call; the seat's attempt counts answers that failed validation
  // (so a replay recording keyed by attempt lines up with the retries).
  let callNo = stepEntries.reduce((max, e) => Math.max(max, e.attempt), 0);
  let seatAttempt = 1 + journal.filter((e) => e.result.status === "ok" && e.validation?.ok === false).length;
  let feedback = journal.filter((e) => e.validation?.ok === false).at(-1)?.validation?.errors ?? [];
  let lastErrors: { errors: string[]; path: string; attempt: number } | undefined;

  const reusable = journal.filter((e) => e.result.status === "ok" && e.validation?.ok !== false).at(-1);
  if (reusable) {
    const parsed = parse(reusable.result.text);
    emit({
      type: "seat_finished",
      ...ref,
      attempt: reusable.attempt,
      adapter: reusable.adapter ?? adapter.name,
      status: reusable.result.status,
      durationMs: 0,
      reused: true,
    });
    const errors = parsed.ok ? [] : formatRuleErrors(parsed.errors);
    // Only a rejection is written back (an accepted answer's entry stays as journaled: see below).
    if (!parsed.ok && !reusable.validation) {
      await context.journal.write({ ...reusable, validation: { ok: false, errors } });
    }
    if (parsed.ok) return answered(parsed.value);
    // The rules reject an answer they once accepted (e.g. debate.md was edited): ask again.
    feedback = errors;
    seatAttempt++;
    lastErrors = { errors, path: parsed.errors[0]?.path ?? "", attempt: reusable.attempt };
  }

  const { selection: skills, problems } = extra
    ? { selection: undefined, problems: [] }
    : await chooseSkills(state, role, {
        dir,
        cwd: context.cwd,
        env: context.env,
        ...(context.skillRoots ? { skillRoots: context.skillRoots } : {}),
        ...(context.extraSkillRoots ? { extraSkillRoots: context.extraSkillRoots } : {}),
        ...(context.skillCache ? { cache: context.skillCache } : {}),
      });
  context.reportSkillProblems?.(role, problems);
  // Role templates the user, the project or the debate replaced (a broken one throws AGENT_INVALID).
  const templates = extra
    ? undefined
    : await chooseTemplates({
        dir,
        cwd: context.cwd,
        env: context.env,
        ...(context.skillCache ? { cache: context.skillCache } : {}),
      });
  const resume = resumesSession(seat);
  let stored = resume ? await readSeatSession(dir, role, seat) : undefined;
  // `retries` bounds the step's attempts across runs too: the rejected answers this seat (same adapter
  // and model) already gave count. Another seat in debate.md starts the count again. A person (a
  // manual seat) is not a model spending calls: they retry until they stop, each run asking them at
  // most retries + 1 times.
  const used = journal.filter(
    (e) =>
      e.result.status === "ok" &&
      e.validation?.ok === false &&
      e.adapter === adapter.name &&
      (e.model ?? undefined) === (seat.model ?? undefined),
  );
  const person = adapter.name === "manual";
  const lastCall = person ? used.length + retries : retries;
  if (used.length > lastCall) {
    const latest = used.at(-1)!;
    return {
      ok: false,
      status: "failed",
      error: {
        code: "ANSWER_INVALID",
        message: `the ${role}'s answer for exchange ${exchange} was rejected ${used.length} time(s), and retries is ${retries}: ${listProblems(latest.validation?.errors ?? [], journalPath(latest.attempt))} (raise \`retries\` in debate.md, change the seat, or debate reset)`,
        file: journalPath(latest.attempt),
      },
    };
  }
  for (let call = used.length; call <= lastCall; call++) {
    if (context.signal?.aborted) {
      return { ok: false, status: "cancelled", error: { code: "CANCELLED", message: "stopped by a signal" } };
    }
    const prompt = extra
      ? extra.prompt(feedback)
      : assemblePrompt(state, role, {
          feedback,
          ...(skills ? { skills: skills.text } : {}),
          ...(templates ? { templates } : {}),
        });
    let reserved = 0;
    if (context.budget) {
      const allowed = await checkBudget(context, context.budget, seat, role, prompt);
      if (!allowed.ok) return allowed;
      reserved = allowed.reserve;
      context.budget.reserved += reserved;
    }
    emit({ type: "seat_started", ...ref, attempt: seatAttempt, adapter: adapter.name });
    const startedAt = context.now().toISOString();
    const request = {
      prompt,
      timeoutMs: Math.max(1, Math.min(seat.timeout_ms ?? defaultTimeoutMs, context.timeoutCapMs ?? Infinity)),
      ...(seat.model ? { model: seat.model } : {}),
      ...(seat.effort ? { effort: seat.effort } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      step: { debateId: fm.debate_id, exchange, role, attempt: seatAttempt },
    };
    let made: SentCall[];
    try {
      made = resume
        ? await callWithSession(adapter, request, stored)
        : [{ sent: prompt, session: "new", answer: await adapter.call(request) }];
    } finally {
      if (context.budget) context.budget.reserved -= reserved;
    }
    // Every call made is journaled; a resumed session that was gone is one more (failed) call.
    let last: { result: AdapterResult; entry: JournalEntry; sent: SentCall } | undefined;
    for (const sent of made) {
      const { result, raw } = sanitizeCall(sent.answer, context.secrets);
      const finished = { ...ref, attempt: seatAttempt, adapter: adapter.name, durationMs: result.durationMs };
      if (result.status === "pending") {
        // Nothing ran and nothing was paid: a pending answer is not journaled.
        emit({
          type: "seat_finished",
          ...finished,
          status: "pending",
          reused: false,
          error: result.error ?? "",
        });
        return {
          ok: false,
          status: "waiting",
          error: {
            code: "SEAT_PENDING",
            message: `${role}: ${result.error ?? "the answer is not there yet"}`,
          },
        };
      }
      callNo++;
      const usage = callUsage({
        seat,
        sent: sent.sent,
        result,
        ...(seat.model ? { model: seat.model } : {}),
        ...(resume ? { session: sent.session } : {}),
      });
      const entry: JournalEntry = {
        version: 1,
        debate_id: fm.debate_id,
        exchange,
        phase,
        role,
        attempt: callNo,
        adapter: adapter.name,
        ...(seat.model ? { model: seat.model } : {}),
        prompt_sha256: sha256(sent.sent),
        ...keptPrompt(sent.sent, context.secrets),
        started_at: startedAt,
        finished_at: context.now().toISOString(),
        result,
        usage,
        ...(raw ? { raw } : {}),
      };
      await context.journal.write(entry);
      emit({
        type: "seat_finished",
        ...finished,
        status: result.status,
        reused: false,
        usage,
        ...(result.error ? { error: result.error } : {}),
        ...(result.toolCalls ? { toolCalls: result.toolCalls } : {}),
      });
      last = { result, entry, sent };
    }
    const { result, entry } = last!;
    const journalFile = journalPath(callNo);
    if (resume && result.status === "ok" && result.sessionId) {
      // The next call of this seat resumes here and sends only what its prompt adds to this one.
      await writeSeatSession(dir, role, seat, result.sessionId, prompt, context.secrets);
      stored = await readSeatSession(dir, role, seat);
    }
    if (result.status !== "ok") {
      const cancelled = result.status === "cancelled" || context.signal?.aborted;
      return {
        ok: false,
        status: cancelled ? "cancelled" : "failed",
        error: {
          code: cancelled ? "CANCELLED" : `SEAT_${result.status.toUpperCase()}`,
          message: `the ${role} seat (${adapter.name}) ${result.status === "exit" ? "failed" : `returned ${result.status}`} at exchange ${exchange}: ${result.error ?? "no detail"}`,
          file: journalFile,
        },
      };
    }
    const parsed = parse(result.text);
    // The answer was durable before it was parsed. An accepted answer is not written again: its
    // entry without `validation` is the answer the step uses (a resume parses it again anyway), so
    // a call costs one journal write. A rejection is written back: it feeds the retry's prompt and
    // counts against `retries` across runs.
    if (parsed.ok) return answered(parsed.value);
    const errors = formatRuleErrors(parsed.errors);
    await context.journal.write({ ...entry, validation: { ok: false, errors } });
    lastErrors = { errors, path: parsed.errors[0]?.path ?? "", attempt: callNo };
    feedback = errors;
    seatAttempt++;
    if (call < lastCall) emit({ type: "retry", ...ref, attempt: seatAttempt, errors });
  }
  const file = journalPath(lastErrors?.attempt ?? callNo);
  return {
    ok: false,
    status: "failed",
    error: {
      code: "ANSWER_INVALID",
      message: `the ${role}'s answer for exchange ${exchange} is still invalid after ${retries + 1} attempt(s) (retries: ${retries}): ${listProblems(lastErrors?.errors ?? [], file)}`,
      file,
      field: lastErrors?.path ?? "",
    },
  };
}
