/**
 * Phrases whose last word means something else than it does alone, rewritten before matching so a
 * trigger does not take them at their word: an "A/B test" is an experiment on users (evidence), not
 * a software test; a "penetration test" is a security assessment. Each entry is one phrase, in
 * code, documented in the README; the rewrite keeps the phrase's suffix (`tests`, `testing`).
 */
const SENSES: ReadonlyArray<[RegExp, string]> = [
  [/\bA\/B[\s-]+test(?=s\b|ing\b|\b)/giu, "A/B experiment"],
  [/\bpen(?:etration)?[\s-]+test(?=s\b|ing\b|\b)/giu, "pentest"],
];

/** The text with each phrase of another sense rewritten (`A/B test` -> `A/B experiment`). */
export function rewriteSenses(text: string): string {
  let out = text;
  for (const [re, replacement] of SENSES) out = out.replace(re, replacement);
  return out;
}
