import type { ValidationError } from "@debatekit/schema";
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
    message: `${what}: \`${e.path || "(root)"}\` ${e.message}`,
  }));
}
