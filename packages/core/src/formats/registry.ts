import { fail, ok, quote, ruleError } from "../errors.js";
import type { Result, RuleError } from "../types.js";
import { crossfireFormat } from "./crossfire/format.js";
import { addDeclaration, type BuiltinFormatName, DEFAULT_FORMAT_NAME } from "./declarations.js";
import { formalFormat } from "./formal/format.js";
import { type AnyFormat, FORMAT_SPEC_VERSION, RESERVED_OPTION_NAMES } from "./format.js";
import { reviewFormat } from "./review/format.js";

const builtinFormats: Record<BuiltinFormatName, AnyFormat> = {
  formal: formalFormat as AnyFormat,
  crossfire: crossfireFormat as AnyFormat,
  review: reviewFormat as AnyFormat,
};

export type { BuiltinFormatName } from "./declarations.js";
export { DEFAULT_FORMAT_NAME };

/** A format name: what debate.md's `format` key, `--format` and the config's registration use. */
export const FORMAT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** A role name (a key of debate.md's `seats`, a `debate new` flag `--<role>`). */
export const ROLE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

const table: Record<string, AnyFormat> = Object.assign(Object.create(null), builtinFormats);

/**
 * Every registered format, by the name debate.md's `format` key gives (absent = the default): the
 * built-ins, then those registered with `registerFormat`. A live table: read it when you need it,
 * never copy it at import time.
 */
export const formats: Readonly<Record<string, AnyFormat>> = table;

/** The registered names, built-ins first (CLI choices, MCP schemas, tournament specs). */
export function formatNames(): [string, ...string[]] {
  return Object.keys(table) as [string, ...string[]];
}

/** The registered formats, built-ins first. */
export function formatList(): readonly AnyFormat[] {
  return Object.values(table);
}

/** The format registered under `name`, if any. */
export function findFormat(name: string): AnyFormat | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

const METHODS = [
  "validateFrontmatter",
  "isRecordCommitted",
  "seat",
  "next",
  "prompt",
  "skillTask",
  "parseAnswer",
  "apply",
  "checkCommitted",
  "standing",
  "newDebate",
] as const;
const OPTIONAL_METHODS = ["derivedFiles", "advance", "onSeatFailure", "plannedCalls", "report"] as const;
const ARRAYS = ["seats", "roles", "folders", "records"] as const;

/**
 * Checks that a value (an outside module's export) has the shape of a format: a valid name, every
 * method and table `Format` requires. It cannot check behaviour: the conformance suite does that.
 */
export function checkFormat(value: unknown): Result<AnyFormat> {
  if (value === null || typeof value !== "object") {
    return fail(
      ruleError(
        "FORMAT_INVALID",
        "",
        `expected a format object (made with defineFormat), found ${quote(value)}`,
      ),
    );
  }
  const f = value as Record<string, unknown>;
  const errors: RuleError[] = [];
  const bad = (path: string, expected: string) =>
    errors.push(
      ruleError("FORMAT_INVALID", path, `expected ${expected}, found ${quote(f[path.split(".")[0]!])}`),
    );
  if (typeof f.name !== "string" || !FORMAT_NAME_PATTERN.test(f.name))
    bad("name", `a name matching ${FORMAT_NAME_PATTERN}`);
  for (const m of METHODS) if (typeof f[m] !== "function") bad(m, "a function");
  for (const m of OPTIONAL_METHODS)
    if (f[m] !== undefined && typeof f[m] !== "function") bad(m, "a function or nothing");
  for (const a of ARRAYS) if (!Array.isArray(f[a])) bad(a, "an array");
  if (f.phases === null || typeof f.phases !== "object")
    bad("phases", "an object of phase: journal step key");
  const unit = f.unit as { one?: unknown; many?: unknown } | undefined;
  if (typeof unit?.one !== "string" || typeof unit?.many !== "string") bad("unit", "{ one, many } strings");
  const reset = f.reset as { supported?: unknown; plan?: unknown } | undefined;
  if (typeof reset?.supported !== "boolean" || (reset.supported && typeof reset.plan !== "function"))
    bad("reset", "{ supported: false, reason } or { supported: true, start, plan }");
  const options = f.newOptions as { seats?: unknown; length?: unknown } | undefined;
  if (!Array.isArray(options?.seats) || options?.length === null || typeof options?.length !== "object")
    bad("newOptions", "{ seats, length }");
  if (errors.length === 0) errors.push(...specVersionErrors(f), ...nameErrors(value as AnyFormat));
  return errors.length > 0 ? fail(...errors) : ok(value as AnyFormat);
}

/** FORMAT_SPEC_VERSION when a format was written for a version of the spec this core does not implement. */
function specVersionErrors(f: Record<string, unknown>): RuleError[] {
  const version = f.specVersion;
  if (version === undefined || version === FORMAT_SPEC_VERSION) return [];
  return [
    ruleError(
      "FORMAT_SPEC_VERSION",
      "specVersion",
      `format ${quote(f.name)} was written for format spec version ${quote(version)}; this @debatekit/core implements version ${FORMAT_SPEC_VERSION} (see the changelog of @debatekit/core for what changed)`,
    ),
  ];
}

/** Every role a format names (its roles, seats and `new` seats) and its length flag. */
function namesOf(format: AnyFormat): { roles: unknown[]; flag: unknown } {
  const roleOf = (entry: unknown) => (entry as { role?: unknown } | null)?.role;
  const roles = new Set<unknown>([
    ...format.roles.map(roleOf),
    ...format.seats,
    ...format.newOptions.seats.map(roleOf),
  ]);
  return { roles: [...roles], flag: (format.newOptions.length as { flag?: unknown }).flag };
}

/**
 * FORMAT_ROLE_INVALID / FORMAT_ROLE_RESERVED when a role or the length flag is not a flag name, or is
 * one of `debate new`'s own options (it would break `new`, its help and completion for every format).
 */
function nameErrors(format: AnyFormat): RuleError[] {
  const { roles, flag } = namesOf(format);
  const errors: RuleError[] = [];
  const check = (name: unknown, path: string, what: string) => {
    if (typeof name !== "string" || !ROLE_NAME_PATTERN.test(name)) {
      errors.push(
        ruleError(
          "FORMAT_ROLE_INVALID",
          path,
          `expected ${what} matching ${ROLE_NAME_PATTERN}, found ${quote(name)}`,
        ),
      );
    } else if (RESERVED_OPTION_NAMES.includes(name)) {
      errors.push(
        ruleError(
          "FORMAT_ROLE_RESERVED",
          path,
          `${what} ${quote(name)} would be \`debate new --${name}\`, which is an option of \`debate new\` itself: rename it`,
        ),
      );
    }
  };
  for (const role of roles) check(role, "roles", "a role");
  check(flag, "newOptions.length.flag", "a length flag");
  return errors;
}

/** FORMAT_ROLE_RESERVED when a role of one format is the length flag of another (both become `debate new` flags). */
function clashErrors(format: AnyFormat): RuleError[] {
  const mine = namesOf(format);
  const errors: RuleError[] = [];
  for (const other of formatList()) {
    const theirs = namesOf(other);
    for (const role of mine.roles)
      if (role === theirs.flag)
        errors.push(
          ruleError(
            "FORMAT_ROLE_RESERVED",
            "roles",
            `the role ${quote(role)} would be \`debate new --${role}\`, which is format ${quote(other.name)}'s length option: rename it`,
          ),
        );
    if (typeof mine.flag === "string" && theirs.roles.includes(mine.flag))
      errors.push(
        ruleError(
          "FORMAT_ROLE_RESERVED",
          "newOptions.length.flag",
          `the length flag ${quote(mine.flag)} would be \`debate new --${mine.flag}\`, which is a role of format ${quote(other.name)}: rename it`,
        ),
      );
  }
  return errors;
}

/**
 * Adds a format to the registry (the CLI does it for each module the config file's `formats` names).
 * FORMAT_NAME_TAKEN when the name is registered already; FORMAT_INVALID when the value is not a format.
 */
export function registerFormat(value: unknown): Result<AnyFormat> {
  const checked = checkFormat(value);
  if (!checked.ok) return checked;
  const format = checked.value;
  if (Object.hasOwn(table, format.name)) {
    return fail(
      ruleError("FORMAT_NAME_TAKEN", "name", `a format named ${quote(format.name)} is registered already`),
    );
  }
  const clashes = clashErrors(format);
  if (clashes.length > 0) return fail(...clashes);
  table[format.name] = format;
  addDeclaration(format);
  stepKeys = undefined;
  return ok(format);
}

/** The format a debate.md frontmatter names (`format`, default formal), or FORMAT_UNKNOWN naming the field. */
export function formatOf(frontmatter: unknown): Result<AnyFormat> {
  const name =
    frontmatter !== null && typeof frontmatter === "object" && "format" in frontmatter
      ? (frontmatter as { format?: unknown }).format
      : undefined;
  if (name === undefined) return ok(table[DEFAULT_FORMAT_NAME]!);
  const found = typeof name === "string" ? findFormat(name) : undefined;
  if (found) return ok(found);
  return fail(
    ruleError(
      "FORMAT_UNKNOWN",
      "format",
      `expected one of ${formatNames().join(", ")}, found ${quote(name)}`,
    ),
  );
}

/** The format a state's frontmatter names; throws (an edge) only for a state no reader would have produced. */
export function formatOfState(state: { frontmatter: unknown }): AnyFormat {
  const found = formatOf(state.frontmatter);
  if (!found.ok) throw new Error(found.errors[0]!.message);
  return found.value;
}

/** The phase a report asks its optional `reporter` seat in, whatever the format (journal step key `9-report`). */
export const REPORTING_PHASE = "reporting";

let stepKeys: Map<string, string> | undefined;

/**
 * The journal step key of a phase (`awaiting_arguments` -> `1-arguments`), from every registered
 * format's `phases`; undefined for a phase no format asks seats in.
 */
export function journalStepKey(phase: string): string | undefined {
  if (!stepKeys) {
    stepKeys = new Map([[REPORTING_PHASE, "9-report"]]);
    for (const format of formatList())
      for (const [p, key] of Object.entries(format.phases)) stepKeys.set(p, key);
  }
  return stepKeys.get(phase);
}
