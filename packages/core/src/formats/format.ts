import type { Degradation, SeatConfig, ValidationResult } from "@debatekit/schema";
import type { BuildPromptOptions } from "../prompt/options.js";
import type { FormatReport } from "../report-model.js";
import type { DebateState, FormatRecord, FrontmatterBase, Result, RuleError } from "../types.js";

export type { FormatRecord };

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
  /**
   * The format's own columns for status tables, in order (formal: `PROP` and `OPP`, the signed score
   * totals): a short header and a short value each. Faces show them as given; absent: none.
   */
  columns?: ReadonlyArray<{ name: string; value: string }>;
  /** Numbers behind `sides`, when the format scores (formal). */
  scores?: { proposition: number; opposition: number };
  /** One line for people, when the format has one (crossfire: `the challenger wins`). */
  headline?: string;
  /**
   * The decided result: one of the format's side roles (`proposition`, `challenger`, ...) or `tie`;
   * absent while undecided, and for formats that do not pick a side. Faces read this, never the headline.
   */
  winner?: string;
  /** The decided result in a few words, for a format that picks no side (review: `B: accept the critique`). */
  result?: string;
  /** True when nothing is left to run. */
  complete: boolean;
  /** False while no step is committed (a report then says the debate has not started); absent: not said. */
  started?: boolean;
  /** Set when the result rests on less than was configured (failed seats, missing rounds): say so prominently. */
  outcome?: string;
  /** Every reason the result rests on less than was configured, with the real (sanitized) error (docs/architecture.md#honest-degradation). */
  degraded?: Degradation[];
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
  /** A seat's own settings by role (`--judge codex:gpt-5.5`: its model), over `seatDefaults`. */
  seatSettings?: Readonly<Record<string, Omit<SeatConfig, "adapter"> | undefined>>;
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
export interface ImportedDebate<F extends FrontmatterBase = FrontmatterBase> {
  frontmatter: F;
  motion: string;
  /** Markdown appended to debate.md's body after the motion (no `# Motion` heading). */
  notes: string;
  warnings: string[];
}

/** The command-line shape of a format's `new`: its seats and its length option. */
export interface NewDebateOptions {
  seats: ReadonlyArray<{ role: string; description: string; default?: string; required?: boolean }>;
  /** `key`: the frontmatter key that holds the length (a page raises it there); absent: not editable. */
  length: { flag: string; description: string; default: number; min: number; max: number; key?: string };
  /** True when the format judges with a `judges:` panel (`--judges`, `--swap`, `--allow-self-judging`). */
  panel?: boolean;
  /**
   * True when a new debate starts from an artifact (files, a diff, text) rather than a motion: such
   * debates are made by the `review` action, which gathers the artifact, not by `new`.
   */
  artifact?: boolean;
}

/** What a seat is to its format: who argues, who judges, who only writes. */
export type SeatKind = "debater" | "judge" | "fallback" | "summarizer" | "reporter" | "critic" | "author";

/** A seat a format may call: its role (a key of `seats:` or of the judge panel), what it is, and a line for help texts. */
export interface SeatSpec {
  role: string;
  kind: SeatKind;
  description: string;
}

/** A person's decision a debate waits for: the frontmatter key that takes it, the choices, the recommendation. */
export interface AwaitedDecision {
  /** The frontmatter key a choice is written to (as a person would in debate.md). */
  key: string;
  choices: ReadonlyArray<{ key: string; label: string }>;
  /** The choice the judge recommends, when one has judged. */
  recommended?: string;
  /** The judge's reasons for it. */
  reasons: readonly string[];
}

/** What a format counts its progress in (`exchange`/`exchanges`, `round`/`rounds`). */
export interface ProgressUnit {
  one: string;
  many: string;
}

/** The two sides a tournament pairs (roles of the format's seats, first = the side listed first), and its judge's role. */
export interface TournamentSides {
  first: string;
  second: string;
  judge: string;
}

/** A reset as data: the state of the new start; files writes it and removes what it no longer holds. */
export interface ResetPlan<F extends FrontmatterBase = FrontmatterBase> {
  state: DebateState<F>;
  /** True when the format keeps scores.json (it is rewritten from the plan's state). */
  writeScores: boolean;
}

/** Whether a format's debates can be reset to an earlier exchange/round, and how (pure). */
export type ResetSupport<F extends FrontmatterBase = FrontmatterBase> =
  | { supported: false; reason: string }
  | {
      supported: true;
      /** The first exchange/round number (formal 0, crossfire 1). */
      start: number;
      /** The state that starts again from exchange/round `to` (start <= to <= the current one). */
      plan(state: DebateState<F>, to: number): Result<ResetPlan<F>>;
    };

/**
 * A debate format (docs/architecture.md#the-format-seam): a pure state machine the runner, files, CLI, watcher and report use
 * without knowing which one it is. Make one with `defineFormat`; the built-ins are registered in
 * `formats/registry.ts`, others with `registerFormat` (the CLI does it for the config file's `formats`).
 */
export interface Format<F extends FrontmatterBase = FrontmatterBase> {
  readonly name: string;
  /**
   * The version of this spec the format was written against ({@link FORMAT_SPEC_VERSION});
   * `defineFormat` sets it. A format without one is taken to be of version 1.
   */
  readonly specVersion?: number;
  /** Every seat the format may call (debaters, judges, fallback, summarizer, reporter), with its kind. */
  readonly roles: readonly SeatSpec[];
  /** What progress is counted in (progress lines, watch, log and reset wording). */
  readonly unit: ProgressUnit;
  /** The sides a tournament pairs; absent: the format is not offered by `debate tournament`. */
  readonly tournament?: TournamentSides;
  /** How `debate reset` starts a debate again (a pure plan), or why it cannot. */
  readonly reset: ResetSupport<F>;
  /** The report's body for a state (pure); absent: the report shows the header and the standing only. */
  report?(state: DebateState<F>): FormatReport;
  /** Seats that must be configured, in the order they act. */
  readonly seats: readonly string[];
  /** Every phase that asks seats, mapped to its journal step key (`1-arguments`): sorts a step's files in order. */
  readonly phases: Readonly<Record<string, string>>;
  /** Folders a new debate starts with (formal: `arguments`; crossfire: `turns`). */
  readonly folders: readonly string[];
  /** The format's own record files (formal's arguments are read by files directly; none here). */
  readonly records: readonly RecordKind[];
  /** Files the format derives from a state and that a step rewrites (formal: argument-graph.mmd). */
  derivedFiles?(state: DebateState<F>): Array<{ file: string; content: string }>;
  /** Checks debate.md's frontmatter against the format's schema. */
  validateFrontmatter(data: unknown): ValidationResult<F>;
  /** Whether a record file is part of what debate.md's marker says is committed (leftovers of an uncommitted step are not). */
  isRecordCommitted(frontmatter: F, file: string): boolean;
  /** The seat that answers for `role` (a format may default one seat to another). */
  seat(state: DebateState<F>, role: string): SeatConfig | undefined;
  /** What must happen next. */
  next(state: DebateState<F>): FormatStep;
  /** The prompt for one seat at the current step. */
  prompt(state: DebateState<F>, role: string, options?: BuildPromptOptions): string;
  /** The words skills are matched against for one seat at the current step. */
  skillTask(state: DebateState<F>, role: string): string;
  /** Parses and checks one seat's answer at the current step (every rule, stable codes). */
  parseAnswer(state: DebateState<F>, role: string, text: string): Result<unknown>;
  /** The state after the step's checked answers (by role); refuses unless the state is at the step's marker. */
  apply(
    state: DebateState<F>,
    answers: Readonly<Record<string, unknown>>,
    now: string,
    meta?: StepMeta,
  ): Result<DebateState<F>>;
  /** The state after an `advance` step (no seat asked); refuses unless `next` says advance. */
  advance?(state: DebateState<F>, now: string): Result<DebateState<F>>;
  /** The failure policy: a state that records a failed seat and moves on, or undefined (the run fails; re-run retries). */
  onSeatFailure?(
    state: DebateState<F>,
    role: string,
    failure: SeatFailure,
    now: string,
  ): Result<DebateState<F>> | undefined;
  /**
   * Re-checks a committed state as read from disk with the rules its answers had to pass (docs/architecture.md#crash-safe-and-exactly-once);
   * errors' paths are `file:field`. files refuses a folder for which it finds any.
   */
  checkCommitted(state: DebateState<F>): RuleError[];
  /** The person's decision the debate waits for (review in manual mode); absent or undefined: none. */
  awaitingDecision?(state: DebateState<F>): AwaitedDecision | undefined;
  /** Where the debate stands. */
  standing(state: DebateState<F>): Standing;
  /**
   * Seat calls a complete debate makes by role, when every answer passes first time (a tournament's
   * cost plan); absent when the format cannot know it up front (review: it runs to convergence).
   */
  plannedCalls?(frontmatter: F): Record<string, number>;
  /** Options `debate new` offers for this format. */
  readonly newOptions: NewDebateOptions;
  /** Readers of other tools' state (`debate import --from <name>`), by source name. */
  readonly importers?: Readonly<
    Record<
      string,
      { description: string; import(data: unknown, init: ImportInit): Result<ImportedDebate<F>> }
    >
  >;
  /** debate.md's frontmatter for a new debate, and warnings for the user (e.g. a judge who also debates). */
  newDebate(init: NewDebateInit): Result<{ frontmatter: F; warnings: string[] }>;
}

/**
 * What a format declares before any debate is read: its name, seats, unit, tournament sides, the
 * options of `debate new` and its importers' descriptions. Data only: help and completion read the
 * built-ins' declarations without loading their rules, and every `Format` is one.
 */
export interface FormatDeclaration {
  /** The name debate.md's `format` key and `--format` give. */
  readonly name: string;
  /** Every seat the format may call, as `Format.roles`. */
  readonly roles: readonly SeatSpec[];
  /** What progress is counted in, as `Format.unit`. */
  readonly unit: ProgressUnit;
  /** The sides a tournament pairs, as `Format.tournament`. */
  readonly tournament?: TournamentSides;
  /** Options `debate new` offers, as `Format.newOptions`. */
  readonly newOptions: NewDebateOptions;
  /** Each importer's description (`debate import --from <name>`), by source name. */
  readonly importers?: Readonly<Record<string, { description: string }>>;
}

/** A format of any frontmatter type: what the registry, files, runner and the faces hold. */
// biome-ignore lint/suspicious/noExplicitAny: a format's frontmatter type is known only inside its own folder
export type AnyFormat = Format<any>;

/**
 * The version of the format spec this `@debatekit/core` implements. It changes only when a format
 * written for the previous one would no longer work; the changelog then says how to move.
 */
export const FORMAT_SPEC_VERSION = 1;

/**
 * Names no role and no length flag may take: the options `debate new` has besides the formats' own
 * (a role becomes `--<role>`, a length `--<flag>`). The CLI's tests check that this list holds all
 * of them.
 */
export const RESERVED_OPTION_NAMES: readonly string[] = [
  "allow-self-judging",
  "define",
  "dir",
  "effort",
  "format",
  "help",
  "isolation",
  "judges",
  "json",
  "scope",
  "slug",
  "swap",
  "version",
];

/**
 * Makes a format (the one way to define one; checks the object against `Format<F>`) and stamps it
 * with the spec version it was written against.
 */
export function defineFormat<F extends FrontmatterBase>(format: Format<F>): Format<F> {
  if (format.specVersion !== undefined) return format;
  return Object.assign(format, { specVersion: FORMAT_SPEC_VERSION });
}
