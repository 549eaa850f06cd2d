import type { Result, RuleError } from "@debatekit/core";
import { formatOf, removeSecrets } from "@debatekit/core";
import type { ArgumentFrontmatter, DebateFrontmatter, ValidationResult } from "@debatekit/schema";
import { validateArgumentFrontmatter } from "@debatekit/schema";
import type { FrontmatterStyle } from "./frontmatter.js";
import { joinFrontmatter, splitFrontmatter, updateFrontmatter } from "./frontmatter.js";
import { frontmatterSeatSecretErrors } from "./secrets.js";

/** A parsed debate.md: its frontmatter, its body verbatim, and the style it was written in. */
export interface DebateDocument {
  frontmatter: DebateFrontmatter;
  body: string;
  style: FrontmatterStyle;
}

/** A parsed arguments/<id>.md: its frontmatter, its Toulmin body verbatim, and its style. */
export interface ArgumentDocument {
  frontmatter: ArgumentFrontmatter;
  body: string;
  style: FrontmatterStyle;
}

/**
 * Validates debate.md's frontmatter against the schema of the format it names (`format`, default
 * formal); an unknown format is an error on `format`.
 */
export function validateDebateData(data: unknown): ValidationResult<DebateFrontmatter> {
  const format = formatOf(data);
  if (!format.ok) {
    return {
      ok: false,
      errors: format.errors.map((e) => ({ path: e.path, message: e.message, keyword: "enum" })),
    };
  }
  return format.value.validateFrontmatter(data);
}

/** Turns schema errors into RuleErrors whose path is `<file>:<field>`. */
export function schemaErrors(
  file: string,
  code: string,
  errors: ReadonlyArray<{ path: string; message: string }>,
): RuleError[] {
  return errors.map((e) => {
    const field = e.path || "(root)";
    return {
      code,
      path: file ? `${file}:${field}` : field,
      // The schema quotes the offending value (cut without splitting a word): redact it here.
      message: `${file ? `${file}: ` : ""}\`${field}\` ${removeSecrets(e.message)}`,
    };
  });
}

function parseWith<T>(
  text: string,
  file: string,
  code: string,
  validate: (data: unknown) => ValidationResult<T>,
): Result<{ frontmatter: T; body: string; style: FrontmatterStyle }> {
  const split = splitFrontmatter(text, file);
  if (!split.ok) return split;
  const checked = validate(split.value.data);
  if (!checked.ok) return { ok: false, errors: schemaErrors(file, code, checked.errors) };
  return {
    ok: true,
    value: { frontmatter: checked.value, body: split.value.body, style: split.value.style },
  };
}

/** Parses debate.md text (YAML or dialectic JSON frontmatter) and validates the frontmatter. */
export function parseDebateFile(text: string, file = "debate.md"): Result<DebateDocument> {
  const parsed = parseWith(text, file, "DEBATE_FIELD_INVALID", validateDebateData);
  if (!parsed.ok) return parsed;
  // A key in debate.md would end up in every copy, commit and report of the debate: seats name
  // the variable that holds it instead (`api_key_env`, `env: {X: "${NAME}"}`).
  const secrets = frontmatterSeatSecretErrors(parsed.value.frontmatter, file);
  return secrets.length === 0 ? parsed : { ok: false, errors: secrets };
}

/** Writes a debate.md document in its style; the text ends with a newline. */
export function serializeDebateFile(doc: DebateDocument): string {
  return joinFrontmatter({
    data: doc.frontmatter as unknown as Record<string, unknown>,
    body: doc.body,
    style: doc.style,
  });
}

/** Parses an arguments/<id>.md text and validates the frontmatter. */
export function parseArgumentFile(text: string, file = ""): Result<ArgumentDocument> {
  return parseWith(text, file, "ARGUMENT_FIELD_INVALID", validateArgumentFrontmatter);
}

/** Writes an argument document in its style; the text ends with a newline. */
export function serializeArgumentFile(doc: ArgumentDocument): string {
  return joinFrontmatter({
    data: doc.frontmatter as unknown as Record<string, unknown>,
    body: doc.body,
    style: doc.style,
  });
}

/**
 * debate.md `text` rewritten to hold `doc`, changing only the values that differ; with `base` (the
 * frontmatter `doc` was computed from), only the values that differ from `base` (see updateFrontmatter).
 */
export function updateDebateFile(text: string, doc: DebateDocument, base?: DebateFrontmatter): string {
  return updateFrontmatter(
    text,
    { data: doc.frontmatter as unknown as Record<string, unknown>, body: doc.body, style: doc.style },
    base as unknown as Record<string, unknown> | undefined,
  );
}
