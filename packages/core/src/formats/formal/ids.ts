import type { SideCode } from "../../types.js";

/** The only form an argument id may take: side, three-digit exchange, a letter for openings. */
export const ARGUMENT_ID_PATTERN = /^(prop|opp)_([0-9]{3})([a-c]?)$/;

/** The letters of the three opening arguments of a side. */
export const OPENING_LETTERS = ["a", "b", "c"] as const;

/** The engine's id for an argument: `argumentId("prop", 0, 1) === "prop_000b"`, `argumentId("opp", 3) === "opp_003"`. */
export function argumentId(side: SideCode, exchange: number, openingIndex?: number): string {
  const letter = openingIndex === undefined ? "" : (OPENING_LETTERS[openingIndex] ?? "");
  return `${side}_${String(exchange).padStart(3, "0")}${letter}`;
}

/** Splits a well-formed argument id; undefined for anything else (path tricks included). */
export function parseArgumentId(id: unknown): { side: SideCode; exchange: number } | undefined {
  if (typeof id !== "string") return undefined;
  const match = ARGUMENT_ID_PATTERN.exec(id);
  if (!match) return undefined;
  return { side: match[1] as SideCode, exchange: Number(match[2]) };
}

/** The ids the engine expects from one side in one exchange (3 for the opening, 1 after). */
export function expectedIds(side: SideCode, exchange: number): string[] {
  return exchange === 0
    ? OPENING_LETTERS.map((_, i) => argumentId(side, 0, i))
    : [argumentId(side, exchange)];
}
