/**
 * The journal's last net against credentials. Redaction is the adapters' job; this runs just before a
 * journal file is written and refuses the write instead of guessing what to cut. A false alarm fails a
 * run, so every shape is anchored on something prose does not have: a vendor prefix followed by a
 * random-looking body, a PEM block with its base64 body, a credential-named assignment whose value is
 * random-looking, or the exact value of a secret environment variable. A word such as `api_key`,
 * `token` or `sk-` in an argument, or a long hex id on its own, is never enough.
 */

/** What was found and where; never the matched text (an error must not carry the secret). */
export interface SecretFinding {
  path: string;
  /** e.g. "what looks like a GitHub token", "the value of $OPENAI_API_KEY". */
  kind: string;
}

/**
 * Whether a candidate's body looks generated rather than written: a stretch of at least 12 characters
 * without word separators that mixes letters and digits, and enough distinct characters. Hyphenated
 * prose (`sk-learn-style-pipelines`, `token-based-authentication`) has no such stretch.
 */
export function looksRandom(body: string): boolean {
  const stretch = body
    .split(/[-_.~]/)
    .some((part) => part.length >= 12 && /[A-Za-z]/.test(part) && /\d/.test(part));
  return stretch && new Set(body).size >= 10;
}

interface KeyShape {
  kind: string;
  /** Global: every candidate is checked, not only the first. */
  pattern: RegExp;
  /** The part of a match that must look random (capture group 1 when present, else the whole match). */
  random?: boolean;
}

const TOKEN_CHARS = "[A-Za-z0-9._~+/=-]";

const KEY_SHAPES: KeyShape[] = [
  {
    kind: "Anthropic/OpenAI-style API key",
    pattern: /(?<![A-Za-z0-9])sk-(?:ant-|proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})/g,
    random: true,
  },
  { kind: "GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: "AWS access key id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  // Real Slack tokens carry numeric workspace/user ids after the prefix; `xoxb-tokens-look-like` does not.
  { kind: "Slack token", pattern: /\bxox[abprs]-\d+-[A-Za-z0-9-]{8,}/g },
  {
    kind: "bearer or basic credential",
    pattern: new RegExp(`\\b(?:Bearer|Basic)\\s+(${TOKEN_CHARS}{16,})`, "gi"),
    random: true,
  },
  {
    kind: "credential assignment",
    pattern: new RegExp(
      `\\b(?:x-api-key|api[-_]?key|access[-_]?token|auth[-_]?token|refresh[-_]?token|client[-_]?secret|secret[-_]?key|authorization|password)["']?\\s*[:=]\\s*["']?(?:(?:Bearer|Basic|Token)\\s+)?(${TOKEN_CHARS}{16,})`,
      "gi",
    ),
    random: true,
  },
  {
    // The header alone is prose (people write about private keys); a key has its base64 body after it,
    // possibly behind `Proc-Type:`/`DEK-Info:` lines, with real or JSON-escaped line breaks.
    kind: "private key",
    pattern:
      /-----BEGIN [A-Z ]*PRIVATE KEY-----(?:\s|\\[rn])+(?:[A-Za-z-]+:[^\r\n\\]*(?:\s|\\[rn])+)*[A-Za-z0-9+/=]{40,}/g,
  },
];

/** The kind of the first credential shape in `text`, or undefined. */
function findKeyShape(text: string): string | undefined {
  for (const shape of KEY_SHAPES) {
    for (const match of text.matchAll(shape.pattern)) {
      if (!shape.random || looksRandom(match[1] ?? match[0])) return shape.kind;
    }
  }
  return undefined;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/**
 * The environment variables whose name says secret and whose value could not turn up in text by
 * chance: at least 8 characters without spaces, not a path or URL (`SSH_AUTH_SOCK`, `XAUTHORITY`), and
 * mixing letters and digits unless it is 16 characters or more.
 */
export function secretEnvValues(env: NodeJS.ProcessEnv): Array<{ name: string; value: string }> {
  return Object.entries(env).flatMap(([name, value]) => {
    if (!SECRET_NAME.test(name) || typeof value !== "string" || value.length < 8 || /\s/.test(value))
      return [];
    if (/^[/~.]|^[A-Za-z]:[\\/]|:\/\//.test(value)) return [];
    if (value.length < 16 && !(/[A-Za-z]/.test(value) && /\d/.test(value))) return [];
    return [{ name, value }];
  });
}

/** The dotted path and kind of the first string in `value` holding a credential shape or one of `secrets` (labelled), or undefined. */
export function findSecret(
  value: unknown,
  secrets: ReadonlyArray<{ label: string; value: string }> = [],
  at = "",
): SecretFinding | undefined {
  if (typeof value === "string") {
    const leaked = secrets.find((s) => value.includes(s.value));
    if (leaked) return { path: at || "(root)", kind: leaked.label };
    const kind = findKeyShape(value);
    return kind ? { path: at || "(root)", kind: `what looks like a ${kind}` } : undefined;
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
