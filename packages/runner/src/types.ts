import type { Adapter, AdapterContext } from "@debatekit/adapter-kit";
import type { Standing } from "@debatekit/core";
import type { CallUsage, CumulativeScores, Degradation, JournalEntry, SeatConfig } from "@debatekit/schema";
import type { SkillProblem } from "@debatekit/skills";

/** The phase a debate waits in (debate.md's `current_phase`). */
export type Phase = string;

/** Where a debate stands: the folder and its commit marker. */
export interface StepRef {
  dir: string;
  exchange: number;
  phase: Phase;
}

/** Progress of a run, for the CLI and watch mode. */
export type RunEvent =
  | (StepRef & { type: "seat_started"; role: string; attempt: number; adapter: string })
  | (StepRef & {
      type: "seat_finished";
      role: string;
      attempt: number;
      adapter: string;
      status: string;
      durationMs: number;
      /** True when a journaled answer was reused instead of calling the seat again. */
      reused: boolean;
      error?: string;
      /** The call's tokens and cost (absent for a reused answer: it was counted when it was made). */
      usage?: CallUsage;
      /** Tools the seat's model asked for (all refused: seats cannot act on the machine). */
      toolCalls?: string[];
    })
  | (StepRef & { type: "retry"; role: string; attempt: number; errors: string[] })
  | (StepRef & {
      type: "step_committed";
      from: { exchange: number; phase: Phase };
      /** Where the debate stands once the step is committed (progress, scores or sides). */
      standing?: Standing;
    })
  | { type: "waiting"; dir: string; reason: "lock" | "seat"; message: string }
  | ({ type: "skill_problem"; dir: string; role: string } & SkillProblemReport)
  | { type: "done"; dir: string; summary: RunSummary }
  | { type: "error"; dir: string; code: string; message: string };

/**
 * A problem loadSkills found in a skills folder (the skill concerned was skipped, or another copy
 * used), every string redacted. Without `cause`: it can hold an Error, which does not serialize.
 */
export type SkillProblemReport = Omit<SkillProblem, "cause">;

/** How a run ended. */
export interface RunSummary {
  /**
   * done: complete, or stopped at the requested exchanges; waiting: a seat's answer is not there yet
   * (manual seat); paused: debate.md says `paused` or cannot run as configured; failed: a seat failed
   * or its answer stayed invalid after the retries; cancelled: stopped by a signal.
   */
  status: "done" | "waiting" | "paused" | "failed" | "cancelled";
  /**
   * Set when the run stopped (status `paused`) because the next call would take the debate's
   * recorded cost above its budget: the budget, what is spent, and the next call's estimate.
   */
  budget?: BudgetStop;
  exchange: number;
  phase: Phase;
  cumulative: CumulativeScores;
  /** How many steps this run committed. */
  committed: number;
  /** The debate's format (`formal`, `crossfire`). */
  format?: string;
  /** Where the debate stands, as its format says (phase, progress, sides). */
  standing?: Standing;
  /** Set when the result rests on less than configured: `aborted`, `uncontested`, `partial (rounds 1-2 of 3)`. */
  outcome?: string;
  /** Why it stopped, in one line (for done/waiting/paused). */
  reason?: string;
  error?: {
    code: string;
    message: string;
    file?: string;
    field?: string;
    /** The seat that failed for good, and its adapter (the message is its sanitized error). */
    role?: string;
    adapter?: string;
  };
  /** Every reason the result rests on less than configured (failed or replaced seats, missing rounds, a spent budget). */
  degraded?: Degradation[];
}

/** Why a run stopped at its cost budget. */
export interface BudgetStop {
  max_cost_usd: number;
  /** Known cost of the debate's journaled calls so far. */
  spent_usd: number;
  /** Estimated cost of the calls under way when the check was made (seats asked in parallel). */
  under_way_usd?: number;
  /** The seat that was next, and its call's estimated cost (undefined: it could not be priced). */
  role: string;
  next_call_usd?: number;
}

/** An adapter factory (what every `@debatekit/adapter-*` package exports as `createAdapter`). */
export type AdapterFactory = (seat: SeatConfig, context: AdapterContext) => Adapter;

/** Options of runDebate. */
export interface RunOptions {
  /** Stop once this many exchanges are complete (never more than debate.md's `exchanges`; nothing is written to it). */
  exchanges?: number;
  /** Stop once this run has committed this many steps (one step: `1`). A complete debate still ends `done` as complete. */
  steps?: number;
  signal?: AbortSignal;
  /** Wait for the lock instead of failing with DEBATE_LOCKED. */
  wait?: boolean;
  onEvent?: (event: RunEvent) => void;
  /**
   * Wraps every seat's adapter once it is made (a tournament puts its per-provider limits here: calls
   * in flight and per minute across many debates). The wrapper must call the adapter it is given.
   */
  wrapAdapter?: (adapter: Adapter, seat: SeatConfig) => Adapter;
  /**
   * Called after every journal entry is written (`journal`, with the entry) and every step is committed (`step`),
   * before the run goes on; a queued debate copies the folder to Redis here. When it throws, the
   * run stops with that error (e.g. the job's lock was lost to another worker).
   */
  checkpoint?: (what: "journal" | "step", entry?: JournalEntry) => Promise<void>;
  /** Adapter factories by adapter name, used instead of importing `@debatekit/adapter-<name>`. */
  adapters?: Record<string, AdapterFactory>;
  /** Replaces the default skill roots (built-in, project, user, the debate's own skills/). */
  skillRoots?: string[];
  /**
   * Skill folders added to the default roots, after the built-in, project and user ones and before
   * the debate's own skills/ (the `debate` config file's `skills.folders`). Ignored with `skillRoots`.
   */
  extraSkillRoots?: string[];
  now?: () => Date;
  /** Environment given to the seats (and whose secret-looking values are redacted); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The caller's working directory: where project skill folders are looked up (default:
   * process.cwd()). Seat programs never run here: each runs in a private folder (docs/architecture.md#adapters-and-seat-safety).
   */
  cwd?: string;
  /**
   * Cost budget in US dollars for the whole debate (overrides debate.md's `max_cost_usd`): the run
   * stops, `paused`, before a call whose estimated cost would take the recorded total above it.
   */
  maxCostUsd?: number;
  /**
   * The folder whose allowance (`debate allow`) covers this debate's programs (default: the debate
   * folder itself): a tournament's folder for its matches, the original for a `--fresh` copy.
   */
  consentDir?: string;
  /**
   * Hashes of programs the caller put into the folder from its own trusted settings (the gate's
   * policy as the base revision has it, its flags): allowed for this run only, recorded nowhere.
   * Anything else the folder names still needs the user's consent.
   */
  vouched?: readonly string[];
  /** What the lock file says this process is doing (default: "debate run"). */
  command?: string;
}
