import type { Label } from "./panel.js";

/**
 * How one format names its two sides in a judge's prompt and answer: each side's word (`proposition`,
 * `proposer`) and the prefix of its ids (`prop_001`, `P1.2`); ids behind a label read `A_001` / `A1.2`.
 */
interface SideNaming<S extends string> {
  sides: readonly [S, S];
  /** The id prefix of each side (`prop`, `P`). */
  codes: Record<S, string>;
  /** What follows a side's prefix in an id (a regex source: `_(\d{3}[a-c]?)`, `([1-5]\.[1-8])`). */
  rest: string;
  /** What joins a label and the rest of an id (`_`, ``). */
  joiner: string;
}

/** Blinds and unblinds one format's texts: ids and side words behind a judge's labels, and back. */
function blinder<S extends string>(naming: SideNaming<S>) {
  const [first, second] = naming.sides;
  const realId = new RegExp(
    `\\b(${naming.codes[first]}|${naming.codes[second]})${naming.joiner}${naming.rest}\\b`,
    "g",
  );
  const blindId = new RegExp(`\\b([AB])${naming.joiner}${naming.rest}\\b`, "g");
  const sideWord = new RegExp(`\\b(?:(?:the|a) )?(${first}|${second})\\b`, "gi");
  const labelWord = /\bDebater ([AB])\b/g;
  const sideOf = (labels: Record<S, Label>, label: string): S => (labels[first] === label ? first : second);
  const byCode = (code: string): S => (code === naming.codes[first] ? first : second);
  const byWord = (word: string): S => (word.toLowerCase() === first ? first : second);
  return {
    /** `text` with every side behind its label; `keep` are texts left as they are (a person's words: the motion). */
    blind(text: string, labels: Record<S, Label>, keep: readonly string[] = []): string {
      const kept: string[] = [];
      let out = text;
      for (const piece of keep.filter((k) => k.trim().length > 0).sort((a, b) => b.length - a.length)) {
        out = out.split(piece).join(`\u0000${kept.length}\u0000`);
        kept.push(piece);
      }
      out = out
        .replace(realId, (_, code: string, rest: string) => `${labels[byCode(code)]}${naming.joiner}${rest}`)
        .replace(sideWord, (_, word: string) => `Debater ${labels[byWord(word)]}`);
      return out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => kept[Number(i)]!);
    },
    /** A judge's words with labels turned back into the sides' names and ids (`Debater A` -> the proposition). */
    unblind(text: string, labels: Record<S, Label>): string {
      return text
        .replace(
          blindId,
          (_, label: string, rest: string) => `${naming.codes[sideOf(labels, label)]}${naming.joiner}${rest}`,
        )
        .replace(labelWord, (_, label: string) => `the ${sideOf(labels, label)}`);
    },
    /** The side a bare label names (`A`, `Debater A`, any case), or undefined. */
    sideOfLabel(value: string, labels: Record<S, Label>): S | undefined {
      const m = /^\s*(?:debater\s+)?([ab])\s*$/i.exec(value);
      return m ? sideOf(labels, m[1]!.toUpperCase()) : undefined;
    },
  };
}

/** Maps every string of a JSON value through `map`, keeping its shape. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

type FormalSide = "proposition" | "opposition";
const formal = blinder<FormalSide>({
  sides: ["proposition", "opposition"],
  codes: { proposition: "prop", opposition: "opp" },
  rest: "(\\d{3}[a-c]?)",
  joiner: "_",
});

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
  return formal.blind(text, labels, keep);
}

/** A judge's words with labels turned back into the sides' names and ids (`Debater A` -> proposition). */
export function unblindFormalText(text: string, labels: Record<FormalSide, Label>): string {
  return formal.unblind(text, labels);
}

/**
 * A formal judge's JSON answer with every label mapped back to its side by code: argument ids
 * (`A_001` -> `prop_001` when the proposition was A) and the reasoning's `Debater A`. Ids the judge
 * wrote in the real form are left as they are; anything else is left for the judgment's checks.
 */
export function unblindJudgment(value: unknown, labels: Record<FormalSide, Label>): unknown {
  return mapStrings(value, (text) => formal.unblind(text, labels));
}

type CrossfireSide = "proposer" | "challenger";
const crossfire = blinder<CrossfireSide>({
  sides: ["proposer", "challenger"],
  codes: { proposer: "P", challenger: "C" },
  rest: "([1-5]\\.k?\\d{1,2})",
  joiner: "",
});

/** A crossfire judge's prompt with the sides behind their labels: `P1.2` -> `A1.2`, `C1.k1` -> `B1.k1`, proposer -> `Debater A`. */
export function blindCrossfireText(
  text: string,
  labels: Record<CrossfireSide, Label>,
  keep: readonly string[] = [],
): string {
  return crossfire.blind(text, labels, keep);
}

/**
 * A crossfire judge's JSON verdict mapped back by code: point ids (`A1.2` -> `P1.2` when the proposer
 * was A), `Debater A` in its prose, and its `winner` (`"A"` / `"Debater A"` -> the side; a real side
 * name is kept).
 */
export function unblindVerdict(value: unknown, labels: Record<CrossfireSide, Label>): unknown {
  const mapped = mapStrings(value, (text) => crossfire.unblind(text, labels));
  if (mapped === null || typeof mapped !== "object" || Array.isArray(mapped)) return mapped;
  const winner = (value as { winner?: unknown }).winner;
  const side = typeof winner === "string" ? crossfire.sideOfLabel(winner, labels) : undefined;
  return side ? { ...mapped, winner: side } : mapped;
}
