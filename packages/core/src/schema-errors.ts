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
