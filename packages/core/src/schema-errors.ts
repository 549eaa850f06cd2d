import type { ValidationError } from "@debatekit/schema";
import { removeSecrets } from "./secrets.js";
import type { RuleError } from "./types.js";

/** Turns schema validation errors into RuleErrors with one stable code. */
export function schemaRuleErrors(
  code: string,
  what: string,
  errors: readonly ValidationError[],
): RuleError[] {
  return errors.map((e) => ({
    code,
    path: e.path,
    // The schema quotes the offending value without redacting it (it cannot import this package).
    message: `${what}: \`${e.path || "(root)"}\` ${removeSecrets(e.message)}`,
  }));
}

/** Whether `path` is `parent` or a field inside it (`arguments[0]` holds `arguments[0].claim`). */
export function pathWithin(path: string, parent: string): boolean {
  if (parent === "") return true;
  return path === parent || path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
}

/**
 * Every problem of an answer at once, most basic first: the schema's errors, then the format's
 * rules run on the same value, so a person fixing an answer by hand sees the whole list in one
 * attempt instead of one error per try. On a value the schema refused, a rule error at or inside a
 * field the schema already faulted is left out (it would say the same twice), and rules that cannot
 * walk the value add nothing (the schema's errors say why). Which answers pass does not change: any
 * schema error refuses the answer, as before.
 */
export function answerProblems(
  schemaErrors: readonly RuleError[],
  rules: () => readonly RuleError[],
): RuleError[] {
  if (schemaErrors.length === 0) return [...rules()];
  let found: readonly RuleError[];
  try {
    found = rules();
  } catch {
    found = [];
  }
  return [...schemaErrors, ...found.filter((e) => !schemaErrors.some((s) => pathWithin(e.path, s.path)))];
}
