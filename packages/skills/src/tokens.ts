import { createRequire } from "node:module";
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";

/**
 * The encoding every budget is counted in. cl100k_base (GPT-4 / GPT-3.5) rather than o200k_base:
 * on English prose and code it yields as many or more tokens than o200k (so a budget counted in it
 * is not exceeded by the newer OpenAI models), Claude's and Gemini's tokenizers are not public, and
 * its ranks load in about half the time. The ranks ship inside js-tiktoken: no network needed.
 */
export const TOKEN_ENCODING = "cl100k_base";

interface Encoding {
  encoder: Tiktoken;
  /** The encoding's pre-tokenizer: text is split into these pieces before byte-pair merging. */
  pieces: RegExp;
  /** The same pattern, sticky: does a piece split as itself alone? */
  whole: RegExp;
}

let encoding: Encoding | undefined;

// Loaded on first use, not at import: building the encoder takes about a second, and commands
// that never count tokens (`debate --help`) should not pay for it.
function getEncoding(): Encoding {
  if (!encoding) {
    const require = createRequire(import.meta.url);
    const loaded = require("js-tiktoken/ranks/cl100k_base") as TiktokenBPE | { default: TiktokenBPE };
    const ranks = "default" in loaded ? loaded.default : loaded;
    encoding = {
      encoder: new Tiktoken(ranks),
      pieces: new RegExp(ranks.pat_str, "gu"),
      whole: new RegExp(ranks.pat_str, "uy"),
    };
  }
  return encoding;
}

/** Encodes text; special-token strings such as `<|endoftext|>` are counted as plain text. */
export function encodeTokens(text: string): number[] {
  return getEncoding().encoder.encode(text, [], []);
}

/** Decodes tokens back to text (a token may end inside a multi-byte character: U+FFFD then). */
export function decodeTokens(tokens: number[]): string {
  return getEncoding().encoder.decode(tokens);
}

// Token counts of pre-tokenizer pieces (words with their leading space, number groups, punctuation
// runs, whitespace). js-tiktoken merges each piece on its own, so a text's count is the sum of its
// pieces' counts. Prose repeats a few thousand distinct pieces, so after a warm-up counting is one
// regex pass and map look-ups instead of a byte-pair merge per piece (`bench skills`: 1.3M tokens/s
// against 150k for encode). The property test in tokens.test.ts holds it to encode's count.
const pieceCounts = new Map<string, number>();
/** Pieces remembered before the memo starts over (bounds memory in a long-lived process). */
const MAX_REMEMBERED_PIECES = 100_000;
/** Longer pieces (long runs of one character) are rare and not worth keeping. */
const MAX_REMEMBERED_PIECE_LENGTH = 64;

/** How many tokens one piece is, or undefined when the piece would not split as itself alone. */
function countPiece(piece: string): number | undefined {
  // Encoding the piece alone merges the same bytes as in context only when the pre-tokenizer yields
  // it whole. A guard: no cl100k_base piece is known to split differently alone (the pattern has
  // no lookbehind), but if one ever does, the caller encodes the whole text as before.
  const { encoder, whole } = getEncoding();
  whole.lastIndex = 0;
  if (whole.exec(piece)?.[0] !== piece) return undefined;
  return encoder.encode(piece, [], []).length;
}

/** How many tokens the text is in TOKEN_ENCODING (exactly what js-tiktoken's encode returns). */
export function countTokens(text: string): number {
  if (text === "") return 0;
  const { pieces } = getEncoding();
  let total = 0;
  for (const match of text.matchAll(pieces)) {
    const piece = match[0];
    let tokens = pieceCounts.get(piece);
    if (tokens === undefined) {
      tokens = countPiece(piece);
      if (tokens === undefined) return encodeTokens(text).length;
      if (piece.length <= MAX_REMEMBERED_PIECE_LENGTH) {
        if (pieceCounts.size >= MAX_REMEMBERED_PIECES) pieceCounts.clear();
        pieceCounts.set(piece, tokens);
      }
    }
    total += tokens;
  }
  return total;
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
    const decoded = decodeTokens(tokens.slice(0, n));
    // A token can end inside a multi-byte character; never show a broken one.
    if (!decoded.endsWith("\uFFFD") && decoded.trim() !== "") return decoded.trimEnd();
  }
  return null;
}
