import { clipText } from "./clip.js";
import { redactMessage } from "./secrets.js";
import type { Result, RuleError } from "./types.js";

/** Options of a DebatekitError: where the problem is, how to exit, and what caused it. */
export interface DebatekitErrorOptions {
  /** The file the problem is in (path as the user would type it). */
  file?: string;
  /** The field inside that file (dotted path). */
  field?: string;
  /** Process exit code the CLI should use (default 1). */
  exitCode?: number;
  cause?: unknown;
}

/** The one error class for the edges (files, runner, cli throw it; core returns Results). */
export class DebatekitError extends Error {
  readonly code: string;
  readonly file?: string;
  readonly field?: string;
  readonly exitCode: number;

  constructor(code: string, message: string, options: DebatekitErrorOptions = {}) {
    // Messages quote what people typed: a URL's password or a key never leaves in one.
    super(redactMessage(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DebatekitError";
    this.code = code;
    if (options.file !== undefined) this.file = options.file;
    if (options.field !== undefined) this.field = options.field;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Builds a RuleError. */
export function ruleError(code: string, path: string, message: string): RuleError {
  return { code, path, message };
}

/** A successful Result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed Result with the given errors. */
export function fail<T = never>(...errors: RuleError[]): Result<T> {
  return { ok: false, errors };
}

/**
 * Quotes untrusted content for an error message: JSON-escaped, without secrets, and cut to about
 * 200 characters (through clipText: redacted first, never cut inside a word).
 */
export function quote(value: unknown, max = 200): string {
  let text: string;
  try {
    // Strings are redacted before they are escaped: `\n` in the JSON would hide where a key starts.
    const clean = (_key: string, v: unknown) => (typeof v === "string" ? redactMessage(v) : v);
    text = JSON.stringify(value, clean) ?? String(value);
  } catch {
    text = String(value);
  }
  return clipText(text, max, { marker: "..." });
}

/** One line per error: "CODE at `path`: message" (the root is shown as "(root)"). */
export function formatRuleErrors(errors: readonly RuleError[]): string[] {
  return errors.map((e) => `${e.code} at \`${e.path || "(root)"}\`: ${e.message}`);
}
