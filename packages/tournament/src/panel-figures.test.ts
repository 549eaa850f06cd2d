import type { PanelResult } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { computePanelFigures, majorityOf, panelRole } from "./panel-figures.js";

type Side = "proposer" | "challenger";
/** A verdict record: each judge's ballot in its own order and, when given, in the other order. */
function record(ballots: Record<string, [Side] | [Side, Side] | "failed">): PanelResult {
  const judges: PanelResult["judges"] = [];
  const votes: Record<string, PanelResult["winner"] & string> = {};
  for (const [role, b] of Object.entries(ballots)) {
    if (b === "failed") {
      judges.push({ role, adapter: "replay", status: "failed", error: { code: "X", message: "x" } });
      continue;
    }
    judges.push({ role, adapter: "replay", status: "answered", winner: b[0] });
    if (b[1]) judges.push({ role: `${role}_swapped`, adapter: "replay", status: "answered", winner: b[1] });
    votes[role] = b[1] && b[1] !== b[0] ? "tie" : b[0];
  }
  return {
    step: "verdict",
    configured: 3,
    answered: judges.length,
    quorum: 2,
    degraded: false,
    judges,
    votes,
    figures: {},
  } as PanelResult;
}

describe("judge-panel figures", () => {
  it("names judge i by the panel's role", () => {
    expect([0, 1, 4].map(panelRole)).toEqual(["judge", "judge_2", "judge_5"]);
  });

  it("takes the majority over side votes only; a split has none", () => {
    expect(majorityOf({ judge: "proposer", judge_2: "proposer", judge_3: "challenger" })).toBe("proposer");
    expect(majorityOf({ judge: "proposer", judge_2: "tie", judge_3: "challenger" })).toBeUndefined();
    expect(majorityOf({ judge: "tie", judge_2: "tie", judge_3: "challenger" })).toBe("challenger");
    expect(majorityOf({})).toBeUndefined();
  });

  it("matches hand-computed agreement and flips", () => {
    const P = "proposer" as const;
    const C = "challenger" as const;
    // Debate 1: a, b proposer; c flips (tie vote). Majority proposer.
    // Debate 2: a challenger, b proposer, c proposer. Majority proposer.
    // Debate 3: a proposer, b challenger, c tie (flip). Split: no majority.
    // Debate 4: a challenger, b failed, c challenger. Majority challenger.
    const debates = [
      [record({ judge: [P, P], judge_2: [P, P], judge_3: [P, C] })],
      [record({ judge: [C, C], judge_2: [P, P], judge_3: [P, P] })],
      [record({ judge: [P, P], judge_2: [C, C], judge_3: [C, P] })],
      [record({ judge: [C, C], judge_2: "failed", judge_3: [C, C] })],
      [],
    ];
    const f = computePanelFigures(["a", "b", "c"], debates, true);
    expect(f.steps).toBe(4);
    expect(f.debates).toBe(4);
    // a: d1 agree, d2 disagree, d4 agree (d3 no majority) -> 2/3
    // b: d1 agree, d2 agree (d4: no vote) -> 2/2
    // c: d1 tie != proposer, d2 agree, d4 agree -> 2/3
    expect(f.judges.map((j) => [j.name, j.majority])).toEqual([
      ["a", { agree: 2, n: 3 }],
      ["b", { agree: 2, n: 2 }],
      ["c", { agree: 2, n: 3 }],
    ]);
    // Flips: a 0/4, b 0/3 (failed in d4), c 2/4.
    expect(f.judges.map((j) => j.flips)).toEqual([
      { agree: 0, n: 4 },
      { agree: 0, n: 3 },
      { agree: 2, n: 4 },
    ]);
    expect(f.flips).toEqual({ agree: 2, n: 11 });
    // Pairs: a-b: d1 same, d2 diff, d3 diff -> 1/3; a-c: d1 P vs tie, d2 C vs P, d3 P vs tie, d4 same -> 1/4;
    // b-c: d1 P vs tie, d2 same, d3 C vs tie -> 1/3.
    expect(f.pairs).toEqual([
      { a: "a", b: "b", agree: 1, n: 3 },
      { a: "a", b: "c", agree: 1, n: 4 },
      { a: "b", b: "c", agree: 1, n: 3 },
    ]);
  });

  it("without swap there are no flips to count", () => {
    const f = computePanelFigures(
      ["a", "b"],
      [[record({ judge: ["proposer"], judge_2: ["challenger"] })]],
      false,
    );
    expect(f.flips).toEqual({ agree: 0, n: 0 });
    expect(f.judges.map((j) => j.majority)).toEqual([
      { agree: 0, n: 0 },
      { agree: 0, n: 0 },
    ]);
    expect(f.pairs).toEqual([{ a: "a", b: "b", agree: 0, n: 1 }]);
  });
});
