import type { ScoresFile } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { freshState } from "../../test-helpers/states.js";
import { formalStanding } from "./standing.js";

/** A finished formal debate whose two arguments hold these scores. */
function finishedWith(prop: number, opp: number) {
  const scores: ScoresFile = {};
  for (const [id, score] of [
    ["prop_000a", prop],
    ["opp_000a", opp],
  ] as const)
    scores[id] = {
      current_score: score,
      history: [{ score, reasoning: "r", scored_at: "2026-11-21T12:00:00Z" }],
    };
  return { ...freshState({ exchanges: 1, current_exchange: 1 }), scores };
}

describe("formal's standing", () => {
  it("calls a lead under half a hundredth a tie (scores have two decimals), and names the side ahead past it", () => {
    expect(formalStanding(finishedWith(0.304, 0.3)).winner).toBe("tie");
    expect(formalStanding(finishedWith(0.3, 0.304)).winner).toBe("tie");
    expect(formalStanding(finishedWith(0.31, 0.3)).winner).toBe("proposition");
    expect(formalStanding(finishedWith(0.3, 0.31)).winner).toBe("opposition");
  });

  it("names no winner while the debate runs", () => {
    expect(
      formalStanding({ ...finishedWith(0.5, 0), frontmatter: freshState().frontmatter }).winner,
    ).toBeUndefined();
  });
});
