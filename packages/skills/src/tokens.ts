import { createRequire } from "node:module";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";

/**
 * The encoding every budget is counted in. cl100k_base (GPT-4 / GPT-3.5) rather than o200k_base:
 * on English prose and code it yields as many or more tokens than o200k (so a budget counted in it
 * is not exceeded by the newer OpenAI models), Claude's and Gemini's tokenizers are not public, and
 * its ranks load in about half the time. The ranks ship inside js-tiktoken: no network needed.
 */
export const TOKEN_ENCODING = "cl100k_base";

let encoder: Tiktoken | undefined;

// Loaded on first use, not at import: building the encoder takes about a second, and commands
// that never count tokens (`debate --help`) should not pay for it.
function getEncoder(): Tiktoken {
  if (!encoder) {
    const require = createRequire(import.meta.url);
    const ranks = require("js-tiktoken/ranks/cl100k_base") as TiktokenBPE | { default: TiktokenBPE };
    encoder = new Tiktoken("default" in ranks ? ranks.default : ranks);
  }
  return encoder;
}

/** Encodes text; special-token strings such as `<|endoftext|>` are counted as plain text. */
export function encodeTokens(text: string): number[] {
  return getEncoder().encode(text, [], []);
}

/** How many tokens the text is in TOKEN_ENCODING. */
export function countTokens(text: string): number {
  return text === "" ? 0 : encodeTokens(text).length;
}

/** A text cut to fit a token limit. */
export interface CutText {
  text: string;
  tokens: number;
  truncated: boolean;
  /** Tokens of the whole text before cutting. */
  fullTokens: number;
}

function fenceOpen(text: string): boolean {
  return ((text.match(/^\s*(```|~~~)/gm) ?? []).length & 1) === 1;
}

/**
 * Cuts text to at most `maxTokens` tokens, marker included. It keeps whole paragraphs (blank-line
 * separated) and never leaves a code fence open; when not even the first paragraph fits it keeps
 * whole lines, and as a last resort whole tokens. `marker` is appended (after a blank line) only
 * when something was cut. Returns empty text when not even the marker fits. `knownTokens` (the
 * text's count, when the caller has it) saves one pass of the tokenizer.
 */
export function cutToTokens(text: string, maxTokens: number, marker: string, knownTokens?: number): CutText {
  const fullTokens = knownTokens ?? countTokens(text);
  if (fullTokens <= maxTokens) return { text, tokens: fullTokens, truncated: false, fullTokens };
  const tail = `\n\n${marker}`;
  let room = maxTokens - countTokens(tail);
  while (room > 0) {
    const kept =
      keepUnits(text.split(/\n[ \t]*\n/), "\n\n", room, (s) => !fenceOpen(s)) ??
      keepUnits(text.split("\n"), "\n", room, (s) => !fenceOpen(s)) ??
      keepTokens(text, room);
    if (!kept) break;
    const withMarker = kept + tail;
    const tokens = countTokens(withMarker);
    if (tokens <= maxTokens) return { text: withMarker, tokens, truncated: true, fullTokens };
    // Joining can merge tokens across the seam; shrink and try again (the count is exact).
    room = Math.min(room, countTokens(kept)) - 1;
  }
  return { text: "", tokens: 0, truncated: true, fullTokens };
}

/** The longest prefix of units that fits `room` tokens and passes `ok`; null when none does. */
function keepUnits(units: string[], joiner: string, room: number, ok: (s: string) => boolean): string | null {
  let budget = 0;
  let n = 0;
  while (n < units.length) {
    const next = budget + countTokens(units[n]!) + (n > 0 ? 1 : 0);
    if (next > room) break;
    budget = next;
    n++;
  }
  for (; n > 0; n--) {
    const prefix = units.slice(0, n).join(joiner).trimEnd();
    if (prefix !== "" && ok(prefix) && countTokens(prefix) <= room) return prefix;
  }
  return null;
}

function keepTokens(text: string, room: number): string | null {
  const tokens = encodeTokens(text);
  for (let n = Math.min(room, tokens.length); n > 0; n--) {
    const decoded = getEncoder().decode(tokens.slice(0, n));
    // A token can end inside a multi-byte character; never show a broken one.
    if (!decoded.endsWith("\uFFFD") && decoded.trim() !== "") return decoded.trimEnd();
  }
  return null;
}
