import { describe, expect, it } from "vitest";
import { crossfireState } from "../test-helpers/crossfire.js";
import { fixtureState, freshState } from "../test-helpers/states.js";
import { crossfireFormat } from "./crossfire/format.js";
import { formalFormat } from "./formal/format.js";
import { reviewFormat } from "./review/format.js";

// Faces (status, tournaments) read who won from `Standing.winner`, never from the headline's prose.
describe("a standing names its winner as data", () => {
  it("formal: none while running; the side ahead, or a tie, once complete", () => {
    expect(formalFormat.standing(freshState()).winner).toBeUndefined();
    expect(formalFormat.standing(freshState({ exchanges: 0 })).winner).toBe("tie");
    const fixture = fixtureState();
    const done = formalFormat.standing({
      ...fixture,
      frontmatter: { ...fixture.frontmatter, exchanges: fixture.frontmatter.current_exchange },
    });
    const lead = done.scores!.proposition - done.scores!.opposition;
    expect(Math.abs(lead)).toBeGreaterThan(0.005);
    expect(done.winner).toBe(lead > 0 ? "proposition" : "opposition");
  });

  it("crossfire: the verdict's side, `tie` for a split panel, none before a verdict", () => {
    expect(crossfireFormat.standing(crossfireState()).winner).toBeUndefined();
    for (const winner of ["challenger", "proposer", "tie"] as const) {
      const standing = crossfireFormat.standing(
        crossfireState({ current_phase: "complete", current_exchange: 2, winner }),
      );
      expect(standing.winner).toBe(winner);
    }
  });

  it("review picks no side", () => {
    expect(reviewFormat.roles.some((r) => r.kind === "debater")).toBe(false);
    expect(reviewFormat.tournament).toBeUndefined();
  });
});
