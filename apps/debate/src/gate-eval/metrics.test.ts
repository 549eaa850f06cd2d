import { describe, expect, it } from "vitest";
import { cohenKappa, confusionOf, fleissKappa, panelAgreement, ratesOf, wilson } from "./metrics.js";

// Every expected value below is worked out by hand (or is a textbook example), never by the code.
describe("wilson", () => {
  it("8 of 10: 0.8 in [0.4902, 0.9433]", () => {
    const p = wilson(8, 10);
    expect(p).toMatchObject({ k: 8, n: 10, value: 0.8 });
    expect(p.low).toBeCloseTo(0.4902, 4);
    expect(p.high).toBeCloseTo(0.9433, 4);
  });

  it("0 of 5 and 5 of 5 keep a width: [0, 0.4345] and [0.5655, 1]", () => {
    expect(wilson(0, 5).low).toBe(0);
    expect(wilson(0, 5).high).toBeCloseTo(0.4345, 4);
    expect(wilson(5, 5).low).toBeCloseTo(0.5655, 4);
    expect(wilson(5, 5).high).toBeCloseTo(1, 10);
  });

  it("no cases: no figure, only the count", () => {
    expect(wilson(0, 0)).toEqual({ k: 0, n: 0 });
  });
});

describe("ratesOf", () => {
  it("3 bad (2 blocked, 1 undecided) and 3 good (1 blocked, 2 pass)", () => {
    const m = confusionOf([
      { label: "bad", outcome: "blocked" },
      { label: "bad", outcome: "blocked" },
      { label: "bad", outcome: "undecided" },
      { label: "good", outcome: "blocked" },
      { label: "good", outcome: "pass" },
      { label: "good", outcome: "pass" },
    ]);
    expect(m).toEqual({
      bad: { blocked: 2, pass: 0, undecided: 1 },
      good: { blocked: 1, pass: 2, undecided: 0 },
    });
    const r = ratesOf(m);
    expect([r.precision.k, r.precision.n]).toEqual([2, 3]);
    expect([r.recall.k, r.recall.n]).toEqual([2, 3]);
    expect([r.false_positive_rate.k, r.false_positive_rate.n]).toEqual([1, 3]);
    expect([r.undecided_rate.k, r.undecided_rate.n]).toEqual([1, 6]);
  });
});

describe("kappa", () => {
  it("Cohen: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: po 0.7, pe 0.5, kappa 0.4", () => {
    const a = [...Array(25).fill("yes"), ...Array(25).fill("no")];
    const b = [
      ...Array(20).fill("yes"),
      ...Array(5).fill("no"),
      ...Array(10).fill("yes"),
      ...Array(15).fill("no"),
    ];
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 10);
  });

  it("Fleiss: the textbook example (10 items, 14 raters, 5 categories) is 0.210", () => {
    const counts = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappa(counts)).toBeCloseTo(0.21, 3);
  });

  it("a panel: Cohen for two judges, Fleiss for three; perfect agreement on two categories is 1", () => {
    const two = panelAgreement([
      { judge: "A", judge_2: "A" },
      { judge: "B", judge_2: "B" },
    ]);
    expect(two).toEqual({ method: "cohen", kappa: 1, judges: 2, items: 2 });
    // Three judges on 2 items: (A, A, B) and (B, B, B): P1 = 1/3, P2 = 1, mean 2/3; shares A 2/6, B 4/6:
    // pe = 1/9 + 4/9 = 5/9; kappa = (2/3 - 5/9) / (4/9) = 1/4.
    const three = panelAgreement([
      { judge: "A", judge_2: "A", judge_3: "B" },
      { judge: "B", judge_2: "B", judge_3: "B" },
    ]);
    expect(three?.method).toBe("fleiss");
    expect(three?.kappa).toBeCloseTo(0.25, 10);
    expect(panelAgreement([{ judge: "A" }])).toBeUndefined();
  });
});
