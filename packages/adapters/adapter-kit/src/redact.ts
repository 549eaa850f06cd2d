// What a secret looks like is defined once, in @debatekit/core, and shared with the journal's last check
// in @debatekit/files: whatever redaction leaves, that check accepts.
import { clipText, REDACTED, removeSecrets, secretEnvValues } from "@debatekit/core";

/** What a redacted secret is replaced with. */
export { REDACTED };

/**
 * Replaces every secret @debatekit/core finds with `[REDACTED]`: vendor keys with random-looking
 * bodies, bearer/basic credentials, credential assignments (`api_key=…`, `authorization: …`; the name
 * stays), PEM private keys with their body, and every occurrence of the given values (8+ characters).
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  return removeSecrets(text, secrets);
}

/**
 * The values of environment variables whose names look secret (KEY, TOKEN, SECRET, PASSWORD...) and
 * that could not turn up by chance (not short, not a path or URL, not a plain number).
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv | undefined): string[] {
  if (!env) return [];
  return secretEnvValues(env).map(({ value }) => value);
}

/**
 * A one-line, redacted message of at most `max` characters (200 by default: the envelope's limit). Redacted
 * before it is cut, and cut through core's clipText, which never splits a word: a value this call
 * was not given (a CLI's parser does not know the environment) is dropped whole by a cut, never left
 * half for the envelope's redaction to miss.
 */
export function sanitizeError(text: string, secrets: readonly string[] = [], max = 200): string {
  // Line breaks are collapsed after redaction: a PEM key is recognized by its line structure.
  const line = redactSecrets(text, secrets).replace(/\s+/g, " ").trim();
  return clipText(line, max, { secrets });
}

/**
 * Output that was cut at a byte limit (`truncated`) without its last word: the cut may have gone
 * through a secret, and a secret's first half is not recognized by redaction. Call before redacting.
 */
export function dropCutTail(text: string): string {
  return text.replace(/[A-Za-z0-9._~+/=-]+$/, "");
}
