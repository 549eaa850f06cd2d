import { type LabelledSecret, removeSecrets } from "./secrets.js";

/** Options of {@link clipText}. */
export interface ClipOptions {
  /** Secret values to remove besides the shapes (e.g. the values of secret-named variables). */
  secrets?: ReadonlyArray<string | LabelledSecret>;
  /** What ends a text that was cut (default `…`). */
  marker?: string;
}

// Keys, tokens and passwords are made of these; a cut without a marker must not go through a run of them.
const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/;
// Past this, the text is cut (on a word boundary) before it is redacted: redaction is linear, but
// an error message never needs more than its first few KiB.
const REDACT_WINDOW = 64 * 1024;

function isTokenChar(ch: string | undefined): boolean {
  return ch !== undefined && TOKEN_CHAR.test(ch);
}

/**
 * Where to cut `text` to keep at most `end` characters, never inside a surrogate pair; with `words`,
 * a cut that falls inside a run of token characters moves back to that run's start.
 */
function safeEnd(text: string, end: number, words = false): number {
  if (end >= text.length) return text.length;
  let at = end;
  if (words && isTokenChar(text[at]) && isTokenChar(text[at - 1])) {
    while (at > 0 && isTokenChar(text[at - 1])) at--;
  }
  const code = text.charCodeAt(at - 1);
  if (at > 0 && code >= 0xd800 && code <= 0xdbff) at--;
  return at;
}

/**
 * `text` without secrets, cut to at most `max` characters (ending with `marker` when cut): the one
 * way to shorten text that may hold a secret. Redaction comes first, so a cut never leaves a piece
 * of a secret that redaction would no longer recognize. A value this call does not know (a CLI's
 * parser does not have the environment) may be cut short, but then it ends at the marker, and core's
 * findSecretSpans finds such a cut-short value in every later stage that knows it.
 */
export function clipText(text: string, max: number, options: ClipOptions = {}): string {
  const marker = options.marker ?? "…";
  // This cut leaves no marker, so it must not split a word (a secret) at all.
  const window = text.length > REDACT_WINDOW ? text.slice(0, safeEnd(text, REDACT_WINDOW, true)) : text;
  const clean = removeSecrets(window, options.secrets ?? []);
  if (clean.length <= max && window.length === text.length) return clean;
  return `${clean.slice(0, safeEnd(clean, Math.max(0, max - marker.length)))}${marker}`;
}

/** Where to start `text` to keep at most its last `length` characters (the mirror of {@link safeEnd}). */
function safeStart(text: string, length: number, words = false): number {
  let at = Math.max(0, text.length - length);
  if (at === 0) return 0;
  if (words && isTokenChar(text[at]) && isTokenChar(text[at - 1])) {
    while (at < text.length && isTokenChar(text[at])) at++;
  }
  const code = text.charCodeAt(at);
  if (at < text.length && code >= 0xdc00 && code <= 0xdfff) at++;
  return at;
}

/**
 * The last `max` characters of `text` without secrets (starting with `marker` when cut), for what
 * comes just before a position (a bad byte, the end of a stream). Same rules as {@link clipText}.
 */
export function clipTextEnd(text: string, max: number, options: ClipOptions = {}): string {
  const marker = options.marker ?? "…";
  const window = text.length > REDACT_WINDOW ? text.slice(safeStart(text, REDACT_WINDOW, true)) : text;
  const clean = removeSecrets(window, options.secrets ?? []);
  if (clean.length <= max && window.length === text.length) return clean;
  return `${marker}${clean.slice(safeStart(clean, Math.max(0, max - marker.length)))}`;
}
