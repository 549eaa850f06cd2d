import { createBlinder } from "../../judging/blind.js";
import type { Label } from "../../judging/panel.js";
import type { CrossfireSide } from "./state.js";

const crossfire = createBlinder<CrossfireSide>({
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
  const mapped = crossfire.unblindJson(value, labels);
  if (mapped === null || typeof mapped !== "object" || Array.isArray(mapped)) return mapped;
  const winner = (value as { winner?: unknown }).winner;
  const side = typeof winner === "string" ? crossfire.sideOfLabel(winner, labels) : undefined;
  return side ? { ...mapped, winner: side } : mapped;
}
