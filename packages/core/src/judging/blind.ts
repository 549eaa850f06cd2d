import type { Label } from "./panel.js";

/**
 * How one format names its two sides in a judge's prompt and answer: each side's word (`proposition`,
 * `proposer`) and the prefix of its ids (`prop_001`, `P1.2`); ids behind a label read `A_001` / `A1.2`.
 */
export interface SideNaming<S extends string> {
  sides: readonly [S, S];
  /** The id prefix of each side (`prop`, `P`). */
  codes: Record<S, string>;
  /** What follows a side's prefix in an id (a regex source: `_(\d{3}[a-c]?)`, `([1-5]\.[1-8])`). */
  rest: string;
  /** What joins a label and the rest of an id (`_`, ``). */
  joiner: string;
}

/** A format's blinder: its texts with the sides behind a judge's labels, and back. */
export interface Blinder<S extends string> {
  /** `text` with every side behind its label; `keep` are texts left as they are (a person's words: the motion). */
  blind(text: string, labels: Record<S, Label>, keep?: readonly string[]): string;
  /** A judge's words with labels turned back into the sides' names and ids (`Debater A` -> the proposition). */
  unblind(text: string, labels: Record<S, Label>): string;
  /** A judge's JSON answer with every string unblinded, its shape kept. */
  unblindJson(value: unknown, labels: Record<S, Label>): unknown;
  /** The side a bare label names (`A`, `Debater A`, any case), or undefined. */
  sideOfLabel(value: string, labels: Record<S, Label>): S | undefined;
}

/** Maps every string of a JSON value through `map`, keeping its shape. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

/** Blinds and unblinds one format's texts: ids and side words behind a judge's labels, and back. */
export function createBlinder<S extends string>(naming: SideNaming<S>): Blinder<S> {
  const [first, second] = naming.sides;
  const realId = new RegExp(
    `\\b(${naming.codes[first]}|${naming.codes[second]})${naming.joiner}${naming.rest}\\b`,
    "g",
  );
  const blindId = new RegExp(`\\b([AB])${naming.joiner}${naming.rest}\\b`, "g");
  // A side's bare id prefix (`prop_` in "`prop_` or `opp_` names the side"): only for a joiner,
  // since a bare one-letter code (`P`) cannot be told from a word.
  const barePrefix = naming.joiner
    ? new RegExp(`\\b(${naming.codes[first]}|${naming.codes[second]})${naming.joiner}(?![A-Za-z0-9])`, "g")
    : undefined;
  const sideWord = new RegExp(`\\b(?:(?:the|a) )?(${first}|${second})\\b`, "gi");
  const labelWord = /\bDebater ([AB])\b/g;
  const sideOf = (labels: Record<S, Label>, label: string): S => (labels[first] === label ? first : second);
  const byCode = (code: string): S => (code === naming.codes[first] ? first : second);
  const byWord = (word: string): S => (word.toLowerCase() === first ? first : second);
  const unblind = (text: string, labels: Record<S, Label>): string =>
    text
      .replace(
        blindId,
        (_, label: string, rest: string) => `${naming.codes[sideOf(labels, label)]}${naming.joiner}${rest}`,
      )
      .replace(labelWord, (_, label: string) => `the ${sideOf(labels, label)}`);
  return {
    blind(text, labels, keep = []) {
      const kept: string[] = [];
      let out = text;
      for (const piece of keep.filter((k) => k.trim().length > 0).sort((a, b) => b.length - a.length)) {
        out = out.split(piece).join(`\u0000${kept.length}\u0000`);
        kept.push(piece);
      }
      out = out
        .replace(realId, (_, code: string, rest: string) => `${labels[byCode(code)]}${naming.joiner}${rest}`)
        .replace(sideWord, (_, word: string) => `Debater ${labels[byWord(word)]}`);
      if (barePrefix)
        out = out.replace(barePrefix, (_, code: string) => `${labels[byCode(code)]}${naming.joiner}`);
      return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]!);
    },
    unblind,
    unblindJson: (value, labels) => mapStrings(value, (text) => unblind(text, labels)),
    sideOfLabel(value, labels) {
      const m = /^\s*(?:debater\s+)?([ab])\s*$/i.exec(value);
      return m ? sideOf(labels, m[1]!.toUpperCase()) : undefined;
    },
  };
}
