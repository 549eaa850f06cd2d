import { ruleError } from "../errors.js";
import type { FormatRecord, FrontmatterBase, RuleError } from "../types.js";

// Pieces every format's state machine uses (no format's names): the blocks before any seat is
// asked, the records a step adds, and the errors of a step applied twice or out of turn.

/** A step that cannot ask anybody yet. */
export interface BlockedBeforeSeats {
  kind: "blocked";
  reason: "paused" | "no_seats";
  message: string;
}

/**
 * Why no seat can be asked: the debate is paused, or debate.md names no seats (`example` shows the
 * format's `seats:`, `doing` what the seats would do: argue, review).
 */
export function blockedBeforeSeats(
  fm: FrontmatterBase,
  example: string,
  doing: string,
): BlockedBeforeSeats | undefined {
  if (fm.paused)
    return {
      kind: "blocked",
      reason: "paused",
      message: "debate.md: `paused: true`; set it to false to continue",
    };
  if (!fm.seats)
    return {
      kind: "blocked",
      reason: "no_seats",
      message: `debate.md has no \`seats\`, so nobody can ${doing}; add them to the frontmatter, e.g.\n${example}`,
    };
  return undefined;
}

/** A record a step adds: the checked answer as its frontmatter, and its markdown body. */
export function newRecord(file: string, frontmatter: object, body: string): FormatRecord {
  return { file, frontmatter: frontmatter as Record<string, unknown>, body };
}

/** Adds records to a state's (sorted by file, as files reads them). */
export function withRecords(state: { records?: FormatRecord[] }, added: FormatRecord[]): FormatRecord[] {
  return [...(state.records ?? []), ...added].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
  );
}

/** A record the step would add is already committed: the step was applied before. */
export function recordExists(file: string): RuleError {
  return ruleError(
    "RECORD_EXISTS",
    file,
    `expected a new ${file}, found it already committed (was this step already applied?)`,
  );
}

/** An answer from a seat that does not act in this phase (`wanted`: the one that does). */
export function wrongSeat(
  fm: FrontmatterBase,
  wanted: string | undefined,
  role: string,
  unit: string,
): RuleError {
  return ruleError(
    "DEBATE_PHASE_MISMATCH",
    "current_phase",
    `expected the ${wanted ?? "nobody"} to answer in ${fm.current_phase} at ${unit} ${fm.current_exchange}, not the ${role} (was this step already applied?)`,
  );
}

/** A step applied without the answer of the seat that acts in the phase (`role`). */
export function missingAnswer(fm: FrontmatterBase, role: string | undefined, unit: string): RuleError {
  return ruleError(
    "DEBATE_PHASE_MISMATCH",
    "current_phase",
    `expected an answer of the ${role ?? "nobody"} for ${fm.current_phase} at ${unit} ${fm.current_exchange}`,
  );
}
