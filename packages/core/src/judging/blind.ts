import type { Label } from "./panel.js";

/** The side codes of formal argument ids and the names the judge's prompt uses for them. */
const SIDE_CODES = { proposition: "prop", opposition: "opp" } as const;
type FormalSide = keyof typeof SIDE_CODES;

const REAL_ID = /\b(prop|opp)_(\d{3}[a-c]?)\b/g;
const BLIND_ID = /\b([AB])_(\d{3}[a-c]?)\b/g;
const SIDE_WORD = /\b(?:the )?(proposition|opposition)\b/gi;
const LABEL_WORD = /\bDebater ([AB])\b/g;

/**
 * A formal judge's prompt with the sides behind their labels: ids `prop_001` -> `A_001`, the words
 * proposition / opposition -> `Debater A` / `Debater B`. `keep` are texts left as they are (the
 * motion, its definitions and scope: a person's words, not a side's name).
 */
export function blindFormalText(
  text: string,
  labels: Record<FormalSide, Label>,
  keep: readonly string[] = [],
): string {
  const kept: string[] = [];
  let out = text;
  for (const piece of keep.filter((k) => k.trim().length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(piece).join(`\u0000${kept.length}\u0000`);
    kept.push(piece);
  }
  const bySide = (word: string): FormalSide =>
    word.toLowerCase() === "proposition" ? "proposition" : "opposition";
  out = out
    .replace(
      REAL_ID,
      (_, code: string, rest: string) => `${labels[code === "prop" ? "proposition" : "opposition"]}_${rest}`,
    )
    .replace(SIDE_WORD, (_, word: string) => `Debater ${labels[bySide(word)]}`);
  return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]!);
}

/** The side behind a label. */
function sideOf(labels: Record<FormalSide, Label>, label: string): FormalSide {
  return labels.proposition === label ? "proposition" : "opposition";
}

/** A judge's words with labels turned back into the sides' names and ids (`Debater A` -> proposition). */
export function unblindFormalText(text: string, labels: Record<FormalSide, Label>): string {
  return text
    .replace(BLIND_ID, (_, label: string, rest: string) => `${SIDE_CODES[sideOf(labels, label)]}_${rest}`)
    .replace(LABEL_WORD, (_, label: string) => `the ${sideOf(labels, label)}`);
}

/**
 * A formal judge's JSON answer with every label mapped back to its side by code: argument ids
 * (`A_001` -> `prop_001` when the proposition was A) and the reasoning's `Debater A`. Ids the judge
 * wrote in the real form are left as they are; anything else is left for the judgment's checks.
 */
export function unblindJudgment(value: unknown, labels: Record<FormalSide, Label>): unknown {
  if (typeof value === "string") return unblindFormalText(value, labels);
  if (Array.isArray(value)) return value.map((v) => unblindJudgment(v, labels));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unblindJudgment(v, labels)]));
  return value;
}
