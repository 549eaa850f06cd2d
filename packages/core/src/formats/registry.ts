import { fail, ok, quote, ruleError } from "../errors.js";
import type { Result } from "../types.js";
import { crossfireFormat } from "./crossfire/format.js";
import { formalFormat } from "./formal/format.js";
import type { Format } from "./format.js";
import { reviewFormat } from "./review/format.js";

/** Every format, by the name debate.md's `format` key gives (absent = formal). The one table. */
export const formats: Readonly<Record<string, Format>> = {
  formal: formalFormat,
  crossfire: crossfireFormat,
  review: reviewFormat,
};

/** The format a debate.md frontmatter names (`format`, default `formal`), or FORMAT_UNKNOWN naming the field. */
export function formatOf(frontmatter: unknown): Result<Format> {
  const name =
    frontmatter !== null && typeof frontmatter === "object" && "format" in frontmatter
      ? (frontmatter as { format?: unknown }).format
      : undefined;
  if (name === undefined) return ok(formats.formal!);
  if (typeof name === "string" && Object.hasOwn(formats, name)) return ok(formats[name]!);
  return fail(
    ruleError(
      "FORMAT_UNKNOWN",
      "format",
      `expected one of ${Object.keys(formats).join(", ")}, found ${quote(name)}`,
    ),
  );
}

/** The format a state's frontmatter names; throws (an edge) only for a state no reader would have produced. */
export function formatOfState(state: { frontmatter: unknown }): Format {
  const found = formatOf(state.frontmatter);
  if (!found.ok) throw new Error(found.errors[0]!.message);
  return found.value;
}

/** The phase a report asks its optional `reporter` seat in, whatever the format (journal step key `9-report`). */
export const REPORTING_PHASE = "reporting";

const stepKeys = new Map<string, string>([[REPORTING_PHASE, "9-report"]]);
for (const format of Object.values(formats))
  for (const [phase, key] of Object.entries(format.phases)) stepKeys.set(phase, key);

/**
 * The journal step key of a phase (`awaiting_arguments` -> `1-arguments`), from every registered
 * format's `phases`; undefined for a phase no format asks seats in.
 */
export function journalStepKey(phase: string): string | undefined {
  return stepKeys.get(phase);
}
