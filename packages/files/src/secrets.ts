/**
 * The journal's last net against credentials. Redaction is the adapters' job; this runs just before a
 * journal file is written and refuses the write instead of guessing what to cut. What counts as a
 * secret is @debatekit/core's findSecretSpans, the same definition adapter redaction replaces, so text
 * that went through redaction with the same values is always accepted here.
 */
import type { LabelledSecret } from "@debatekit/core";
import { findSecretSpans, MIN_SECRET_VALUE_LENGTH, secretEnvValues } from "@debatekit/core";

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
    ...secretEnvValues(env).map(({ name, value }) => ({ label: `the value of $${name}`, value })),
    ...secrets
      .filter((value) => value.length >= MIN_SECRET_VALUE_LENGTH)
      .map((value) => ({ label: "a value passed in `secrets`", value })),
  ];
}

/** The dotted path and kind of the first string in `value` where core finds a secret, or undefined. */
export function findSecret(
  value: unknown,
  secrets: readonly LabelledSecret[] = [],
  at = "",
): SecretFinding | undefined {
  if (typeof value === "string") {
    const [first] = findSecretSpans(value, secrets);
    return first ? { path: at || "(root)", kind: first.kind } : undefined;
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
