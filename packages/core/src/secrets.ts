/**
 * The one definition of what a secret looks like, shared by adapter redaction (which replaces what is
 * found) and the journal's last check (which refuses a write when anything is found). Pure: the values
 * to look for are passed in, nothing is read from the environment here.
 *
 * A false alarm costs a mangled argument or a failed run, so every shape is anchored on something prose
 * does not have: a vendor prefix followed by a random-looking body, a PEM header followed by its base64
 * body, a credential-named assignment whose value is random-looking, or the exact value of a secret.
 * A word such as `api_key`, `token` or `sk-` in an argument, or a long hex id on its own, is never enough.
 */

/** What redaction puts in place of a secret; never itself a secret (values inside it are ignored). */
export const REDACTED = "[REDACTED]";

/** Secret values shorter than this are too likely to turn up by chance to be looked for. */
export const MIN_SECRET_VALUE_LENGTH = 8;

/** Where a secret sits in a text (`end` exclusive) and what it looks like; never the text itself. */
export interface SecretSpan {
  start: number;
  end: number;
  /** e.g. "what looks like a GitHub token", "the value of $OPENAI_API_KEY". */
  kind: string;
}

/** A value that must not appear, and how an error may name it (e.g. "the value of $MY_TOKEN"). */
export interface LabelledSecret {
  label: string;
  value: string;
}

/**
 * Whether a candidate's body looks generated rather than written: a stretch of at least 12 characters
 * without word separators that mixes letters and digits, and enough distinct characters. Hyphenated
 * prose (`sk-learn-style-pipelines`, `risk-assessment-framework`) has no such stretch.
 */
export function looksRandom(body: string): boolean {
  const stretch = body
    .split(/[-_.~]/)
    .some((part) => part.length >= 12 && /[A-Za-z]/.test(part) && /\d/.test(part));
  return stretch && new Set(body).size >= 10;
}

interface KeyShape {
  kind: string;
  /** Global. Named group `span` is what a match covers (default: the whole match). */
  pattern: RegExp;
  /** Named group `body` must look random for a match to count. */
  random?: boolean;
  /** What a match's span may not be (what redaction itself leaves there). */
  not?: readonly string[];
}

const TOKEN_CHARS = "[A-Za-z0-9._~+/=-]";
const BREAK = String.raw`(?:\r?\n|\\r\\n|\\n)`;
const BASE64 = "[A-Za-z0-9+/=]";

const KEY_SHAPES: readonly KeyShape[] = [
  {
    kind: "Anthropic/OpenAI-style API key",
    pattern: /(?<![A-Za-z0-9])sk-(?:ant-|proj-|svcacct-|admin-)?(?<body>[A-Za-z0-9_-]{20,})/g,
    random: true,
  },
  {
    // The scheme, user and host stay, the password goes: "redis://default:[REDACTED]@host". Any
    // password, however short or plain: a URL's password is a secret by where it sits.
    kind: "URL password",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#"'`<>:@]*:(?<span>[^\s/?#"'`<>]+)(?=@)/gi,
    not: [REDACTED, "***"],
  },
  { kind: "GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: "AWS access key id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  // Real Slack tokens carry numeric workspace/user ids after the prefix; `xoxb-tokens-look-like` does not.
  { kind: "Slack token", pattern: /\bxox[abprs]-\d+-[A-Za-z0-9-]{8,}/g },
  {
    // The scheme stays, the credential goes: "Bearer [REDACTED]".
    kind: "bearer or basic credential",
    pattern: new RegExp(`\\b(?:Bearer|Basic)\\s+(?<span>(?<body>${TOKEN_CHARS}{16,}))`, "gi"),
    random: true,
  },
  {
    // The name stays, the value (with its scheme, if any) goes: "api_key=[REDACTED]".
    kind: "credential assignment",
    pattern: new RegExp(
      `\\b(?:x-api-key|api[-_]?key|access[-_]?token|auth[-_]?token|refresh[-_]?token|client[-_]?secret|secret[-_]?key|authorization|password)["']?\\s*[:=]\\s*["']?(?<span>(?:(?:Bearer|Basic|Token)\\s+)?(?<body>${TOKEN_CHARS}{16,}))`,
      "gi",
    ),
    random: true,
  },
  {
    // The header alone is prose (people write about private keys); a key has its base64 body after it,
    // possibly behind `Proc-Type:`/`DEK-Info:` lines, with real or JSON-escaped line breaks. The span
    // runs over every body line and the END line when there is one (a truncated block has none).
    // Each header line ends at exactly one line break, so no text can be split two ways (no ReDoS).
    kind: "private key",
    pattern: new RegExp(
      `-----BEGIN [A-Z ]*PRIVATE KEY-----(?=\\s|\\\\[rn])(?:\\s|\\\\[rn]|[A-Za-z-]+:[^\\r\\n\\\\]*${BREAK})*${BASE64}{40,}(?:${BREAK}${BASE64}+)*(?:(?:\\s|\\\\[rn])*-----END(?: [A-Z ]*PRIVATE KEY-----)?)?`,
      "g",
    ),
  },
];

/**
 * Every credential shape in `text` (a shape's matches may overlap another shape's). JSON-escaped text
 * (`...\\nsk-ant-...`, a CLI's output quoted in a message) is also scanned with each `\\n`, `\\r`, `\\t`
 * read as two spaces: the same length, so the spans line up, and the escape's letter no longer hides
 * the word boundary a shape starts at.
 */
function findKeyShapes(text: string): SecretSpan[] {
  const spans = findKeyShapesIn(text);
  const unescaped = text.replace(/\\[nrt]/g, "  ");
  return unescaped === text ? spans : [...spans, ...findKeyShapesIn(unescaped)];
}

function findKeyShapesIn(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const shape of KEY_SHAPES) {
    for (const match of text.matchAll(shape.pattern)) {
      const groups = match.groups ?? {};
      if (shape.random && !looksRandom(groups.body ?? match[0])) continue;
      const covered = groups.span ?? match[0];
      if (shape.not?.includes(covered)) continue;
      // The span group always ends the match, so its start is the match's end minus its length.
      const end = match.index + match[0].length;
      spans.push({ start: end - covered.length, end, kind: `what looks like a ${shape.kind}` });
    }
  }
  return spans;
}

/** What clipText (and quote) put where they cut a text. */
const CUT_MARKERS = ["…", "..."] as const;
/** The shortest piece of a cut-short value that counts as that value. */
export const MIN_CUT_PIECE_LENGTH = 6;

/**
 * A value cut short by an earlier stage that did not know it (a CLI's parser cuts its message before
 * the envelope, which knows the environment's values, redacts it): the value's start right before a
 * cut marker, or its end right after one (a text cut from the start), at least 6 characters (fewer
 * could be chance: prose writes "Hell..." too).
 */
function findCutValue(text: string, value: string, kind: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const marker of CUT_MARKERS) {
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
      for (let k = Math.min(value.length - 1, at); k >= MIN_CUT_PIECE_LENGTH; k--) {
        if (text.startsWith(value.slice(0, k), at - k)) {
          spans.push({ start: at - k, end: at, kind });
          break;
        }
      }
      const after = at + marker.length;
      for (let k = Math.min(value.length - 1, text.length - after); k >= MIN_CUT_PIECE_LENGTH; k--) {
        if (text.startsWith(value.slice(value.length - k), after)) {
          spans.push({ start: after, end: after + k, kind });
          break;
        }
      }
    }
  }
  return spans;
}

/** Every occurrence of each secret value worth looking for (long enough, not part of REDACTED), whole or cut short. */
function findValues(text: string, secrets: ReadonlyArray<string | LabelledSecret>): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const secret of secrets) {
    const { label, value } = typeof secret === "string" ? { label: "a secret value", value: secret } : secret;
    if (value.length < MIN_SECRET_VALUE_LENGTH || REDACTED.includes(value)) continue;
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
      spans.push({ start: at, end: at + value.length, kind: label });
    }
    spans.push(...findCutValue(text, value, `${label} (cut short)`));
  }
  return spans;
}

/**
 * The secrets in `text`: every occurrence of each given value (8 characters or more), then every
 * credential shape, most specific first (so the first span names the best kind for an error). Spans
 * may overlap; redaction replaces their union.
 */
export function findSecretSpans(
  text: string,
  secrets: ReadonlyArray<string | LabelledSecret> = [],
): SecretSpan[] {
  if (text.length < REMEMBER_CLEAN_FROM) return [...findValues(text, secrets), ...findKeyShapes(text)];
  // Nothing found is a function of the text and the values alone (labels only name what is found),
  // so long texts found clean are remembered per set of values: a seat call's prompt is scanned by
  // redaction and again by the journal's last check, and a value not looked for before starts a
  // new memory.
  const key = secrets.map((s) => (typeof s === "string" ? s : s.value)).join("\u0000");
  if (clean.values !== key) clean = { values: key, texts: new Set() };
  if (clean.texts.has(text)) return [];
  const spans = [...findValues(text, secrets), ...findKeyShapes(text)];
  if (spans.length === 0) {
    if (clean.texts.size >= REMEMBER_CLEAN_COUNT) clean.texts.delete(clean.texts.values().next().value!);
    clean.texts.add(text);
  }
  return spans;
}

/** Texts this long that were found clean are remembered (the last REMEMBER_CLEAN_COUNT, per set of values). */
const REMEMBER_CLEAN_FROM = 4096;
const REMEMBER_CLEAN_COUNT = 16;
let clean: { values: string; texts: Set<string> } = { values: "", texts: new Set() };

/** Replaces the union of `spans` in `text` with `marker` (one marker per run of overlapping spans). */
export function replaceSecretSpans(text: string, spans: readonly SecretSpan[], marker = REDACTED): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = "";
  let from = 0;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!.start;
    let end = sorted[i]!.end;
    for (i++; i < sorted.length && sorted[i]!.start < end; i++) end = Math.max(end, sorted[i]!.end);
    out += text.slice(from, start) + marker;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` with every secret replaced by REDACTED, repeated until nothing is found: a replacement can
 * change what surrounds a shape (`<value>sk-…` only matches once the value is gone). If the text has
 * not settled after a few passes, all of it is replaced, so the result never holds a secret.
 */
export function removeSecrets(text: string, secrets: ReadonlyArray<string | LabelledSecret> = []): string {
  let out = text;
  for (let pass = 0; pass < 8; pass++) {
    const spans = findSecretSpans(out, secrets);
    if (spans.length === 0) return out;
    out = replaceSecretSpans(out, spans);
  }
  return findSecretSpans(out, secrets).length === 0 ? out : REDACTED;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH/i;

/** A secret of the environment: the variable it comes from, the value, and how an error names it. */
export interface EnvSecret extends LabelledSecret {
  /** The variable it comes from. */
  name: string;
}

const URL_USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#"'`<>]*)@/gi;

/**
 * The credentials of every `scheme://user:password@host` in `text`: each password (as written, and
 * %-decoded when that differs), and a userinfo without a colon (`https://TOKEN@host`) when it looks
 * random (a token rather than a user name).
 */
export function urlCredentials(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(URL_USERINFO)) {
    const userinfo = m[1]!;
    const colon = userinfo.indexOf(":");
    const secret = colon >= 0 ? userinfo.slice(colon + 1) : looksRandom(userinfo) ? userinfo : "";
    if (!secret) continue;
    found.add(secret);
    try {
      found.add(decodeURIComponent(secret));
    } catch {
      // Not %-encoded: the password as written is enough.
    }
  }
  return [...found];
}

/**
 * The secrets of `env`: the value of each variable whose name says secret and whose value could not
 * turn up in text by chance (at least 8 characters without spaces, not a path or URL
 * (`SSH_AUTH_SOCK`, `XAUTHORITY`), and mixing letters and digits unless it is 16 characters or more,
 * so `TOKEN_LIMIT=100000` is not a secret), then the credentials of a URL in any variable
 * (REDIS_URL, DATABASE_URL, whatever its name), however short.
 */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): EnvSecret[] {
  const named = Object.entries(env).flatMap(([name, value]): EnvSecret[] => {
    if (!SECRET_NAME.test(name) || typeof value !== "string") return [];
    if (value.length < MIN_SECRET_VALUE_LENGTH || /\s/.test(value)) return [];
    if (/^[/~.]|^[A-Za-z]:[\\/]|:\/\//.test(value)) return [];
    if (value.length < 16 && !(/[A-Za-z]/.test(value) && /\d/.test(value))) return [];
    return [{ name, value, label: `the value of $${name}` }];
  });
  const inUrls = Object.entries(env).flatMap(([name, value]): EnvSecret[] =>
    typeof value === "string" && value.includes("@")
      ? urlCredentials(value).map((v) => ({ name, value: v, label: `the password in $${name}` }))
      : [],
  );
  return [...named, ...inUrls];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The seat configs in `data` (any object with a string `adapter`, at any depth: seats, judges, a policy). */
function seatsOf(data: unknown, depth = 0): Array<Record<string, unknown>> {
  if (typeof data !== "object" || data === null || depth > 6) return [];
  const here = data as Record<string, unknown>;
  if (typeof here.adapter === "string") return [here];
  return Object.values(here).flatMap((value) => seatsOf(value, depth + 1));
}

/**
 * The secrets of a debate's seats: the value in `env` of every variable a seat names (its
 * `api_key_env`; each `${NAME}` its `env:` entries reference), whatever the variable's name, and
 * each `env:` entry's value once its references are filled in. `seats` is anything holding seat
 * configs (debate.md's `seats` and `judges`, a gate policy). A value shorter than
 * MIN_SECRET_VALUE_LENGTH is not looked for (findSecretSpans skips it).
 */
export function seatSecretValues(
  seats: unknown,
  env: Readonly<Record<string, string | undefined>>,
): EnvSecret[] {
  const found: EnvSecret[] = [];
  const add = (name: string, value: string | undefined, label: string) => {
    if (value && value.length >= MIN_SECRET_VALUE_LENGTH && !found.some((f) => f.value === value))
      found.push({ name, value, label });
  };
  for (const seat of seatsOf(seats)) {
    const keyEnv = seat.api_key_env;
    if (typeof keyEnv === "string")
      add(keyEnv, env[keyEnv], `the value of $${keyEnv} (a seat's api_key_env)`);
    const entries = typeof seat.env === "object" && seat.env !== null ? Object.entries(seat.env) : [];
    for (const [entry, value] of entries) {
      if (typeof value !== "string") continue;
      const names = [...value.matchAll(REFERENCE)].map((m) => m[1]!);
      for (const name of names) add(name, env[name], `the value of $${name} (named by a seat's env)`);
      if (names.length > 0)
        add(
          entry,
          value.replace(REFERENCE, (_m, name: string) => env[name] ?? ""),
          `the seat's $${entry}`,
        );
    }
  }
  return found;
}

/** What stands for a password in a URL an error shows (`redis://default:***@host`). */
export const URL_PASSWORD_MARK = "***";

/**
 * `text` with the credentials of every `scheme://user:password@host` hidden: the password becomes
 * `***`, and userinfo without a colon (`https://TOKEN@host`) goes whole, since it is a token as often
 * as a user name. The authority ends at the last `@` before `/`, `?`, `#` or a space, so a password
 * with a raw `@` in it (`redis://:p@ss@host`) is hidden whole too.
 */
export function hideUrlCredentials(text: string): string {
  return text.replace(
    /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'`<>]*)@/gi,
    (_match, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(":");
      return colon >= 0
        ? `${scheme}${userinfo.slice(0, colon)}:${URL_PASSWORD_MARK}@`
        : `${scheme}${URL_PASSWORD_MARK}@`;
    },
  );
}

/**
 * The one redaction for text quoting what a person gave (an error message, a gate's reason): URL
 * credentials hidden, then every secret findSecretSpans finds (key shapes, the `secrets` values, e.g.
 * secretEnvValues of the environment) replaced. Run it before any cut, so a cut never keeps half a key.
 */
export function redactMessage(text: string, secrets: ReadonlyArray<string | LabelledSecret> = []): string {
  return removeSecrets(hideUrlCredentials(text), secrets);
}
