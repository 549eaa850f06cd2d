import type { AgentDefinition, ArgumentFrontmatter, DebateFrontmatter, ScoresFile } from "@debatekit/schema";

/** A debating seat. */
export type DebaterRole = "proposition" | "opposition";
/** Any seat of a debate. */
export type SeatRole = DebaterRole | "judge";
/** The short side code used in argument ids and files (`prop_000a`, `side: opp`). */
export type SideCode = "prop" | "opp";

/** A failure of a debate rule or of input; stable `code`s, e.g. DEBATE_PHASE_MISMATCH. */
export interface RuleError {
  /** Stable, machine-readable code (SCREAMING_SNAKE_CASE). */
  code: string;
  /** Dotted path of the offending field (e.g. `arguments[0].attacks[1].target_id`); empty for the root. */
  path: string;
  /** What was expected and what was found, in a sentence a person can act on. */
  message: string;
}

/** The outcome of a validation or transition: the value, or every error found. */
export type Result<T> = { ok: true; value: T } | { ok: false; errors: RuleError[] };

/** The motion of a debate, parsed from debate.md's body. */
export interface Motion {
  text: string;
  definitions?: string;
  scope?: string;
}

/** One argument file: frontmatter plus the Toulmin markdown body. */
export interface ArgumentRecord {
  frontmatter: ArgumentFrontmatter;
  /** Toulmin markdown (## Claim, ## Grounds, ...). */
  body: string;
}

/**
 * What every format's debate.md frontmatter has: its id, its format and the commit marker
 * (`current_exchange`, `current_phase`). A format's own frontmatter type extends it.
 */
export interface FrontmatterBase {
  debate_id: string;
  /** The registered name of the debate's format (absent: the default format). */
  format?: string;
  current_exchange: number;
  current_phase: string;
  paused?: boolean;
  /** Seat configurations by role (read them with `seatConfigs`). */
  seats?: object;
}

/** A file of a format's own, beside debate.md (e.g. `turns/r01-proposer.md`, `verdict.md`). */
export interface FormatRecord {
  /** Path relative to the debate folder, `/`-separated. */
  file: string;
  frontmatter: Record<string, unknown>;
  /** Markdown body. */
  body: string;
}

/**
 * Everything the engine needs to decide and apply a step; read from and written to the folder by
 * files. `F` is the format's frontmatter type (the default is formal's, which files and runner read).
 */
export interface DebateState<F extends FrontmatterBase = DebateFrontmatter> {
  /** From debate.md. */
  frontmatter: F;
  /** debate.md body, verbatim. */
  body: string;
  /** Parsed from body ("# Motion", "## Definitions", "## Scope"). */
  motion: Motion;
  /** Sorted by exchange, then id. */
  arguments: ArgumentRecord[];
  /** scores.json ({} when absent). */
  scores: ScoresFile;
  /** The format's own record files (crossfire's turns/, verdict.md), sorted by file; absent = none. */
  records?: FormatRecord[];
}

/** A state of any format (what files, runner and the faces hold without knowing the format). */
export type AnyState = DebateState<FrontmatterBase>;

/** What must happen next for a debate. */
export type NextAction =
  | { kind: "arguments"; exchange: number; task: "opening" | "rebuttal" }
  | { kind: "judgment"; exchange: number }
  /** A complete debate whose `exchanges` was raised: it awaits arguments again, committed first. */
  | { kind: "reopen"; exchange: number }
  | { kind: "done"; reason: "complete" | "no_exchanges" }
  | { kind: "blocked"; reason: "paused" | "no_seats"; message: string };

/** A role prompt template: agents/<name>.md frontmatter plus its body. */
export interface AgentTemplate {
  definition: AgentDefinition;
  body: string;
}
