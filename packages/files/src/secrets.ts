/**
 * The journal's last net against credentials. Redaction is the adapters' job; this runs just before a
 * journal file is written and refuses the write instead of guessing what to cut. What counts as a
 * secret is @debatekit/core's findSecretSpans, the same definition adapter redaction replaces, so text
 * that went through redaction with the same values is always accepted here.
 */
import type { LabelledSecret, RuleError } from "@debatekit/core";
import { findSecretSpans, MIN_SECRET_VALUE_LENGTH, secretEnvValues } from "@debatekit/core";
import { seatsIn } from "./consent.js";

/** What was found and where; never the matched text (an error must not carry the secret). */
export interface SecretFinding {
  path: string;
  /** e.g. "what looks like a GitHub token", "the value of $OPENAI_API_KEY". */
  kind: string;
}

/** The labelled values a journal entry must not hold: secret env values, then the extra `secrets`. */
export function journalSecrets(
  env: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[] = [],
): LabelledSecret[] {
  return [
    ...secretEnvValues(env).map(({ label, value }) => ({ label, value })),
    ...secrets
      .filter((value) => value.length >= MIN_SECRET_VALUE_LENGTH)
      .map((value) => ({ label: "a value passed in `secrets`", value })),
  ];
}

/** The kind of the first secret core's findSecretSpans finds in `text` (it remembers long clean texts). */
function firstSecretKind(text: string, secrets: readonly LabelledSecret[]): string | undefined {
  return findSecretSpans(text, secrets)[0]?.kind;
}

/** The dotted path and kind of the first string in `value` where core finds a secret, or undefined. */
export function findSecret(
  value: unknown,
  secrets: readonly LabelledSecret[] = [],
  at = "",
): SecretFinding | undefined {
  if (typeof value === "string") {
    const kind = firstSecretKind(value, secrets);
    return kind !== undefined ? { path: at || "(root)", kind } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findSecret(value[i], secrets, `${at}[${i}]`);
      if (found) return found;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const found = findSecret(inner, secrets, at ? `${at}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;

/**
 * Secrets written into debate.md's seats, which must only ever NAME a variable: a seat `env` value
 * that is (or holds, besides `${NAME}` references) a literal secret, a secret-named variable given a
 * literal value instead of a reference, or a secret anywhere else in a seat (a key in `command`).
 * Returns the dotted field of each (under `at`, e.g. `seats.critic.env.X`), never the value.
 */
export function findLiteralSeatSecrets(
  seats: Readonly<Record<string, unknown>> | undefined,
  at = "seats",
): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const [role, seat] of Object.entries(seats ?? {})) {
    if (!seat || typeof seat !== "object") continue;
    const where = at ? `${at}.${role}` : role;
    const { env, ...rest } = seat as { env?: Record<string, unknown> };
    for (const [name, value] of Object.entries(env ?? {})) {
      if (typeof value !== "string") continue;
      const literal = value.replace(REFERENCE, "");
      const path = `${where}.env.${name}`;
      if (findSecretSpans(literal).length > 0) findings.push({ path, kind: "what looks like a secret" });
      else if (SECRET_NAME.test(name) && literal.trim().length >= MIN_SECRET_VALUE_LENGTH)
        findings.push({ path, kind: `a literal value for the secret-named variable ${name}` });
    }
    const found = findSecret(rest, [], where);
    if (found) findings.push(found);
  }
  return findings;
}

/**
 * findLiteralSeatSecrets as errors about `file` (e.g. "debate.md"): one per finding, each naming the
 * field and saying where the secret goes instead. Reading and creating a debate refuse with these,
 * and so does a gate policy (its seats are at the top: `at` is "").
 */
export function literalSeatSecretErrors(
  seats: Readonly<Record<string, unknown>> | undefined,
  file: string,
  at = "seats",
): RuleError[] {
  return findLiteralSeatSecrets(seats, at).map(({ path, kind }) => ({
    code: "SEAT_LITERAL_SECRET",
    path: `${file}:${path}`,
    message: `${file}: \`${path}\` holds ${kind}; put the secret in an environment variable and reference it (\`api_key_env: NAME\`, or \`env: { X: "\${NAME}" }\`)`,
  }));
}

/**
 * literalSeatSecretErrors for every seat a debate.md frontmatter holds: its `seats` and its judges
 * (`judges.panel[i]`, `judges.fallback`), each named by its dotted field.
 */
export function frontmatterSeatSecretErrors(frontmatter: object, file: string): RuleError[] {
  const { seats, judges } = frontmatter as { seats?: unknown; judges?: unknown };
  const all = Object.fromEntries(seatsIn({ seats, judges }).map(({ seat, config }) => [seat, config]));
  return literalSeatSecretErrors(all, file, "");
}
