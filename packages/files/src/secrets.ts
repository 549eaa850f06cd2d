/**
 * Obvious credential shapes. Redaction is the adapters' job; this is the last net before a file is written,
 * so a match refuses the write instead of guessing what to cut.
 */
const SECRET_PATTERNS: Array<{ name: string; pattern: RegExp }> = [
  { name: "OpenAI/Anthropic-style API key", pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/ },
  { name: "GitHub token", pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { name: "AWS access key id", pattern: /\bAKIA[0-9A-Z]{16}\b/ },
  { name: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { name: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: "bearer token", pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{20,}/i },
  { name: "private key", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
];

/** The dotted path and kind of the first string in `value` that looks like a secret, or undefined. */
export function findSecret(value: unknown, at = ""): { path: string; kind: string } | undefined {
  if (typeof value === "string") {
    const hit = SECRET_PATTERNS.find((p) => p.pattern.test(value));
    return hit ? { path: at || "(root)", kind: hit.name } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findSecret(value[i], `${at}[${i}]`);
      if (found) return found;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const found = findSecret(inner, at ? `${at}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}
