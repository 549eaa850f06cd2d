/**
 * Text normalization for trigger matching. Both the motion and every trigger go through the same
 * steps, so what matters is that they are applied identically, not that they are linguistically
 * perfect:
 *
 * 1. NFKC: compatibility forms become their plain letters ("ﬁ" -> "fi", full-width "ＡＰＩ" -> "API").
 * 2. Case folding: `toUpperCase().toLowerCase()`, which folds cases a plain `toLowerCase()`
 *    misses ("ß" -> "ss"), and final sigma "ς" -> "σ".
 * 3. Latin/Greek/Cyrillic diacritics are removed (NFD, drop U+0300..U+036F, NFC): "café" matches
 *    "cafe" and "naïve" matches "naive". Only that block is dropped, so the vowel signs of scripts
 *    such as Devanagari (also combining marks) are kept.
 */
export function normalizeText(text: string): string {
  return (
    text
      .normalize("NFKC")
      .toUpperCase()
      .toLowerCase()
      // toLowerCase writes a word-final sigma as "ς"; fold it to "σ" so both spellings match.
      .replace(/ς/g, "σ")
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .normalize("NFC")
  );
}

/** A normalized text split into words, with where a phrase may not continue. */
export interface WordIndex {
  /** The normalized text. */
  text: string;
  /** Words in order (runs of letters, digits and combining marks). */
  words: string[];
  /** `breakBefore[i]` is true when a sentence ends between word i-1 and word i. */
  breakBefore: boolean[];
  /** Word -> positions in `words`, for fast phrase lookup. */
  positions: Map<string, number[]>;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
// ". " ends a sentence and stops a phrase; "node.js" (no space after the dot) does not.
const SENTENCE_END = /[.!?;:]\s|[。！？]/u;

/** Splits a normalized text into words; a phrase never continues across a sentence end. */
export function splitWords(normalized: string): string[] {
  return normalized.match(WORD) ?? [];
}

/** Normalizes a text and indexes its words. */
export function indexWords(text: string): WordIndex {
  const normalized = normalizeText(text);
  const words: string[] = [];
  const breakBefore: boolean[] = [];
  const positions = new Map<string, number[]>();
  let lastEnd = 0;
  for (const match of normalized.matchAll(WORD)) {
    const word = match[0];
    const start = match.index;
    breakBefore.push(words.length > 0 && SENTENCE_END.test(normalized.slice(lastEnd, start)));
    const list = positions.get(word);
    if (list) list.push(words.length);
    else positions.set(word, [words.length]);
    words.push(word);
    lastEnd = start + word.length;
  }
  return { text: normalized, words, breakBefore, positions };
}

// Scripts written without spaces between words: whole-word matching cannot work there, so a
// trigger written only in them is matched as a substring of the normalized text.
const UNSPACED =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー]+$/u;

/** True when a normalized word belongs to a script written without spaces (CJK, Thai, ...). */
export function isUnspacedScript(word: string): boolean {
  return UNSPACED.test(word);
}
