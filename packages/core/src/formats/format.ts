import type { DebateFrontmatter, Degradation, SeatConfig, ValidationResult } from "@debatekit/schema";
import type { BuildPromptOptions } from "../prompt.js";
import type { DebateState, Result, RuleError } from "../types.js";

/** One seat asked for an answer in a step. */
export interface SeatAsk {
  /** The seat's role (a key of the format's seats, e.g. `proposition`, `challenger`). */
  role: string;
  /** What it is asked to do (an agent template's `task`), e.g. `opening`, `judgment`, `verdict`. */
  task: string;
  /** The judge a panel's ballot belongs to (a judge asked in both orders has two asks, one group); the quorum counts groups. */
  group?: string;
}

/**
 * What must happen next. `ask`: call these seats at the marker (`exchange`, `phase`), all at once
 * (`parallel`) or one after another (`sequential`), then apply their answers together.
 */
export type FormatStep =
  | {
      kind: "ask";
      exchange: number;
      phase: string;
      mode: "parallel" | "sequential";
      asks: SeatAsk[];
      /** True when this step starts a new exchange/round (a run asked to stop after N stops before it). */
      opens: boolean;
      /** Exchanges/rounds already complete before this step. */
      completed: number;
      /** A cap on each call's timeout (review: the budget left); the seat's own timeout applies below it. */
      timeoutMs?: number;
      /**
       * A panel (parallel asks): how many groups (judges) must answer for the step to stand. With it, a
       * failed ask no longer fails the step when enough others answered: `apply` gets the answers and
       * `meta.failures`. Fewer: `fallback` is asked, else the run fails and a re-run asks only the asks
       * not journaled.
       */
      quorum?: number;
      /** Asked only when fewer than `quorum` groups answered. */
      fallback?: SeatAsk;
    }
  /** A move that asks nobody (a person's decision, a spent budget): the runner commits `advance(state)`. */
  | { kind: "advance"; reason: string; message: string }
  | { kind: "done"; reason: string; message: string }
  /** `waiting`: blocked on a person (a decision), not broken: a run ends `waiting` and watch mode retries on a change. */
  | { kind: "blocked"; reason: string; message: string; waiting?: boolean };

/** What the runner measured of a step's calls, passed to `apply`. */
export interface StepMeta {
  /** What the step's calls took, journaled ones included (review's budget meter). */
  spentMs?: number;
  /** Asks of a panel step that failed while the quorum was met, by role (sanitized). */
  failures?: Readonly<Record<string, SeatFailure>>;
}

/** Where a debate stands, for status, run summaries and reports. */
export interface Standing {
  /** `complete`, the current phase, or the outcome (`aborted`, `uncontested`, `partial (rounds 1-2 of 3)`). */
  phase: string;
  /** Exchanges/rounds done and configured (total absent when the debate has no length). */
  progress: { done: number; total?: number; unit: string };
  /** The two sides' standing as short strings (formal: signed score totals; crossfire: the verdict). */
  sides?: { proposition: string; opposition: string };
  /** Numbers behind `sides`, when the format scores (formal). */
  scores?: { proposition: number; opposition: number };
  /** One line for people, when the format has one (crossfire: `the challenger wins`). */
  headline?: string;
  /** True when nothing is left to run. */
  complete: boolean;
  /** Set when the result rests on less than was configured (failed seats, missing rounds): say so prominently. */
  outcome?: string;
  /** Every reason the result rests on less than was configured, with the real (sanitized) error (docs/architecture.md#honest-degradation). */
  degraded?: Degradation[];
}

/** A file of a format's own, beside debate.md (e.g. `turns/r01-proposer.md`, `verdict.md`). */
export interface FormatRecord {
  /** Path relative to the debate folder, `/`-separated. */
  file: string;
  frontmatter: Record<string, unknown>;
  /** Markdown body. */
  body: string;
}

/** Which files of the folder are a format's records, and how to check one. */
export interface RecordKind {
  /** Folder relative to the debate folder ("" for the folder itself). */
  dir: string;
  /** File names that belong to this kind (anchored; never matches `..`, `/` or a temp file). */
  name: RegExp;
  /** Checks a record's frontmatter; errors name the field. */
  validate(frontmatter: unknown): ValidationResult<Record<string, unknown>>;
}

/** A failed seat, as the runner reports it to the format's failure policy. */
export interface SeatFailure {
  code: string;
  /** Sanitized, one line. */
  message: string;
}

/** What `debate new` passes to a format. */
export interface NewDebateInit {
  slug: string;
  /** Seat adapters named on the command line, by role; the format fills its defaults. */
  seats: Record<string, string | undefined>;
  /** Exchanges/rounds asked for (undefined: the format's default). */
  length?: number;
  /** A judge panel's adapters (`--judges`), for formats whose `newOptions.panel` is true. */
  judges?: string[];
  /** Ask every judge in both orders (`--swap`). */
  swap?: boolean;
  /** Let a judge be a debater's own CLI (`--allow-self-judging`). */
  allowSelfJudging?: boolean;
  /** Settings every seat gets (effort, isolation), beside its adapter. */
  seatDefaults?: Omit<SeatConfig, "adapter">;
  /** ISO time. */
  now: string;
}

/** What `debate import` passes to a format's importer. */
export interface ImportInit {
  /** The slug for a motion (the CLI's rule, or the one the user gave). */
  slugFor(motion: string): string;
  /** ISO time. */
  now: string;
}

/** A debate made from another tool's state: debate.md's frontmatter, the motion, notes for the body, warnings. */
export interface ImportedDebate {
  frontmatter: DebateFrontmatter;
  motion: string;
  /** Markdown appended to debate.md's body after the motion (no `# Motion` heading). */
  notes: string;
  warnings: string[];
}

/** The command-line shape of a format's `new`: its seats and its length option. */
export interface NewDebateOptions {
  seats: ReadonlyArray<{ role: string; description: string; default?: string; required?: boolean }>;
  length: { flag: string; description: string; default: number; min: number; max: number };
  /** True when the format judges with a `judges:` panel (`--judges`, `--swap`, `--allow-self-judging`). */
  panel?: boolean;
}

/**
 * A debate format (docs/architecture.md#the-format-seam): a pure state machine the runner, files, CLI, watcher and report use
 * without knowing which one it is. Make one with `defineFormat` and register it in `formats/registry.ts`.
 */
export interface Format {
  readonly name: string;
  /** Seats that must be configured, in the order they act. */
  readonly seats: readonly string[];
  /** Every phase that asks seats, mapped to its journal step key (`1-arguments`): sorts a step's files in order. */
  readonly phases: Readonly<Record<string, string>>;
  /** Folders a new debate starts with (formal: `arguments`; crossfire: `turns`). */
  readonly folders: readonly string[];
  /** The format's own record files (formal's arguments are read by files directly; none here). */
  readonly records: readonly RecordKind[];
  /** Files the format derives from a state and that a step rewrites (formal: argument-graph.mmd). */
  derivedFiles?(state: DebateState): Array<{ file: string; content: string }>;
  /** Checks debate.md's frontmatter against the format's schema. */
  validateFrontmatter(data: unknown): ValidationResult<DebateFrontmatter>;
  /** Whether a record file is part of what debate.md's marker says is committed (leftovers of an uncommitted step are not). */
  isRecordCommitted(frontmatter: DebateFrontmatter, file: string): boolean;
  /** The seat that answers for `role` (a format may default one seat to another). */
  seat(state: DebateState, role: string): SeatConfig | undefined;
  /** What must happen next. */
  next(state: DebateState): FormatStep;
  /** The prompt for one seat at the current step. */
  prompt(state: DebateState, role: string, options?: BuildPromptOptions): string;
  /** The words skills are matched against for one seat at the current step. */
  skillTask(state: DebateState, role: string): string;
  /** Parses and checks one seat's answer at the current step (every rule, stable codes). */
  parseAnswer(state: DebateState, role: string, text: string): Result<unknown>;
  /** The state after the step's checked answers (by role); refuses unless the state is at the step's marker. */
  apply(
    state: DebateState,
    answers: Readonly<Record<string, unknown>>,
    now: string,
    meta?: StepMeta,
  ): Result<DebateState>;
  /** The state after an `advance` step (no seat asked); refuses unless `next` says advance. */
  advance?(state: DebateState, now: string): Result<DebateState>;
  /** The failure policy: a state that records a failed seat and moves on, or undefined (the run fails; re-run retries). */
  onSeatFailure?(
    state: DebateState,
    role: string,
    failure: SeatFailure,
    now: string,
  ): Result<DebateState> | undefined;
  /**
   * Re-checks a committed state as read from disk with the rules its answers had to pass (docs/architecture.md#crash-safe-and-exactly-once);
   * errors' paths are `file:field`. files refuses a folder for which it finds any.
   */
  checkCommitted(state: DebateState): RuleError[];
  /** Where the debate stands. */
  standing(state: DebateState): Standing;
  /**
   * Seat calls a complete debate makes by role, when every answer passes first time (a tournament's
   * cost plan); absent when the format cannot know it up front (review: it runs to convergence).
   */
  plannedCalls?(frontmatter: DebateFrontmatter): Record<string, number>;
  /** Options `debate new` offers for this format. */
  readonly newOptions: NewDebateOptions;
  /** Readers of other tools' state (`debate import --from <name>`), by source name. */
  readonly importers?: Readonly<
    Record<string, { description: string; import(data: unknown, init: ImportInit): Result<ImportedDebate> }>
  >;
  /** debate.md's frontmatter for a new debate, and warnings for the user (e.g. a judge who also debates). */
  newDebate(init: NewDebateInit): Result<{ frontmatter: DebateFrontmatter; warnings: string[] }>;
}

/** Makes a format (the one way to define one; keeps the object's type exact). */
export function defineFormat<F extends Format>(format: F): F {
  return format;
}
