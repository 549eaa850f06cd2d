import { createBlinder } from "../../judging/blind.js";
import type { Label } from "../../judging/panel.js";

type FormalSide = "proposition" | "opposition";
const formal = createBlinder<FormalSide>({
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
  return formal.unblindJson(value, labels);
}
