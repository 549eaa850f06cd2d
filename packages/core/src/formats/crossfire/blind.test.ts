import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { labelsFor } from "../../judging/panel.js";
import { blindCrossfireText, unblindVerdict } from "./blind.js";

describe("crossfire verdict labels", () => {
  const points = ["P1.1", "P1.2", "C1.1", "C2.3", "P3.k1", "C2.k2"];
  it("a blind verdict maps back to the side the judge meant, whatever the labels (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom("proposer" as const, "challenger" as const),
        fc.subarray(points, { minLength: 1 }),
        (debateId, winner, cited) => {
          const labels = labelsFor(debateId, { judge: "judge_2" }, ["proposer", "challenger"]);
          const real = JSON.stringify({
            winner,
            reasoning: `The ${winner} wins on ${cited.join(", ")}; the proposer conceded.`,
            cited_points: cited,
          });
          const seen = blindCrossfireText(real, labels);
          // The judge sees neither side's name nor a real id.
          expect(seen).not.toMatch(/proposer|challenger|\b[PC]\d\./);
          const answer = { ...JSON.parse(seen), winner: `Debater ${labels[winner]}` };
          const back = unblindVerdict(answer, labels) as {
            winner: string;
            cited_points: string[];
            reasoning: string;
          };
          expect(back.winner).toBe(winner);
          expect(back.cited_points).toEqual(cited);
          expect(back.reasoning).toContain(cited.join(", "));
        },
      ),
    );
  });
  it("a bare label and a real side name both map to the side", () => {
    const labels = { proposer: "B", challenger: "A" } as const;
    expect((unblindVerdict({ winner: "A" }, labels) as { winner: string }).winner).toBe("challenger");
    expect((unblindVerdict({ winner: "debater b" }, labels) as { winner: string }).winner).toBe("proposer");
    expect((unblindVerdict({ winner: "proposer" }, labels) as { winner: string }).winner).toBe("proposer");
    expect((unblindVerdict({ winner: "C" }, labels) as { winner: string }).winner).toBe("C");
  });
});
