/** What a redacted secret is replaced with. */
export const REDACTED = "[REDACTED]";

// Well-known key shapes. Order matters: the specific prefixes run before the generic `sk-`.
const keyPatterns: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{16,}/g,
  /AIza[0-9A-Za-z_-]{30,}/g,
  /github_pat_[A-Za-z0-9_]{20,}/g,
  /gh[pousr]_[A-Za-z0-9]{20,}/g,
  /xox[abposr]-[A-Za-z0-9-]{10,}/g,
  /AKIA[0-9A-Z]{16}/g,
];
// Header or assignment forms: keep the name, drop the value.
// The value may be a scheme and a token ("Bearer abc..."), so up to two words go.
const headerPattern =
  /\b(x-api-key|api[-_]key|authorization|proxy-authorization)(["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|Token)\s+)?[^\s"',}]+/gi;
const bearerPattern = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;

const secretName = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;
// Values this short are too likely to appear by chance to be replaced everywhere.
const minSecretLength = 6;

/**
 * Replaces API keys, bearer tokens, `authorization`/`x-api-key` header values and every
 * occurrence of the given secret values with `[REDACTED]`.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is removed whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= minSecretLength) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(headerPattern, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  out = out.replace(bearerPattern, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  for (const pattern of keyPatterns) out = out.replace(pattern, REDACTED);
  return out;
}

/** The values of environment variables whose names look secret (KEY, TOKEN, SECRET, PASSWORD...). */
export function secretsFromEnv(env: NodeJS.ProcessEnv | undefined): string[] {
  if (!env) return [];
  return Object.entries(env)
    .filter(
      ([name, value]) =>
        secretName.test(name) && typeof value === "string" && value.length >= minSecretLength,
    )
    .map(([, value]) => value as string);
}

/** A one-line, redacted message of at most `max` characters (200 by default: the §6 limit). */
export function sanitizeError(text: string, secrets: readonly string[] = [], max = 200): string {
  const line = redactSecrets(text, secrets).replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
