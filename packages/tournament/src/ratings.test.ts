import { describe, expect, it } from "vitest";
import {
  fitBradleyTerry,
  type Game,
  quantile,
  rateWithIntervals,
  seededRandom,
  winProbability,
} from "./ratings.js";

const games = (a: string, b: string, aWins: number, bWins: number, ties = 0): Game[] => [
  ...Array.from({ length: aWins }, () => ({ a, b, score: 1 as const })),
  ...Array.from({ length: bWins }, () => ({ a, b, score: 0 as const })),
  ...Array.from({ length: ties }, () => ({ a, b, score: 0.5 as const })),
];

describe("fitBradleyTerry (plain MLE, prior 0)", () => {
  it("two players: the closed form R_a - R_b = 400 log10(wins_a / wins_b)", () => {
    const r = fitBradleyTerry(games("a", "b", 3, 1), ["a", "b"], { prior: 0 });
    expect(r.get("a")! - r.get("b")!).toBeCloseTo(400 * Math.log10(3), 6);
    expect((r.get("a")! + r.get("b")!) / 2).toBeCloseTo(1000, 9);
    // The fitted model reproduces the observed rate.
    expect(winProbability(r.get("a")!, r.get("b")!)).toBeCloseTo(0.75, 9);
  });

  it("ties count half a win: 2 wins, 1 loss, 2 ties is 3 to 2", () => {
    const r = fitBradleyTerry(games("a", "b", 2, 1, 2), ["a", "b"], { prior: 0 });
    expect(r.get("a")! - r.get("b")!).toBeCloseTo(400 * Math.log10(3 / 2), 6);
  });

  it("three players whose results fit BT exactly (odds 2, 2 and 4): the MLE is that model", () => {
    // a beats b 2:1, b beats c 2:1, a beats c 4:1 -> gamma a:b:c = 4:2:1.
    const all = [...games("a", "b", 2, 1), ...games("b", "c", 2, 1), ...games("a", "c", 4, 1)];
    const r = fitBradleyTerry(all, ["a", "b", "c"], { prior: 0 });
    const step = 400 * Math.log10(2);
    expect(r.get("a")! - r.get("b")!).toBeCloseTo(step, 6);
    expect(r.get("b")! - r.get("c")!).toBeCloseTo(step, 6);
    expect(r.get("b")!).toBeCloseTo(1000 + (step - step) / 3, 6);
  });

  it("a balanced cycle rates everyone equal", () => {
    const all = [...games("a", "b", 1, 0), ...games("b", "c", 1, 0), ...games("c", "a", 1, 0)];
    const r = fitBradleyTerry(all, ["a", "b", "c"], { prior: 0 });
    for (const p of ["a", "b", "c"]) expect(r.get(p)).toBeCloseTo(1000, 6);
  });

  it("refuses when the MLE is infinite (a player who won every game)", () => {
    expect(() => fitBradleyTerry(games("a", "b", 2, 0), ["a", "b"], { prior: 0 })).toThrow(
      /no finite maximum-likelihood rating for a: it lost no game/,
    );
  });

  it("satisfies the likelihood equations: each player's expected score equals its actual score", () => {
    const all = [
      ...games("a", "b", 5, 2, 1),
      ...games("b", "c", 3, 3),
      ...games("a", "c", 4, 1),
      ...games("c", "d", 2, 1),
      ...games("d", "a", 1, 2),
    ];
    const players = ["a", "b", "c", "d"];
    const r = fitBradleyTerry(all, players, { prior: 0 });
    for (const p of players) {
      let expected = 0;
      let actual = 0;
      for (const g of all) {
        if (g.a === p) {
          expected += winProbability(r.get(p)!, r.get(g.b)!);
          actual += g.score;
        } else if (g.b === p) {
          expected += winProbability(r.get(p)!, r.get(g.a)!);
          actual += 1 - g.score;
        }
      }
      expect(expected).toBeCloseTo(actual, 6);
    }
  });
});

describe("fitBradleyTerry with the default prior (one virtual tie against the mean)", () => {
  it("keeps an unbeaten player finite; hand-computed: 2-0 gives gamma_a = x, x^3 - x^2 - 3x - 5 = 0", () => {
    // a: W = 2 + 1/2, b: W = 0 + 1/2; each plays one virtual tie against an anchor at gamma 1. By
    // symmetry gamma_b = 1/x; b's likelihood equation 1/2 = 2/(x^2 + 1) + 1/(1 + x) is the cubic above.
    const r = fitBradleyTerry(games("a", "b", 2, 0), ["a", "b"]);
    const x = 10 ** ((r.get("a")! - r.get("b")!) / 800);
    expect(x ** 3 - x ** 2 - 3 * x - 5).toBeCloseTo(0, 8);
    expect(x).toBeCloseTo(2.7512, 3);
  });

  it("an unplayed player sits at the mean's anchor and does not move the others' difference", () => {
    const r = fitBradleyTerry(games("a", "b", 1, 1), ["a", "b", "c"]);
    expect(r.get("a")).toBeCloseTo(r.get("b")!, 9);
    expect(r.get("c")).toBeCloseTo(r.get("a")!, 9);
  });
});

describe("rateWithIntervals", () => {
  const all = [...games("a", "b", 6, 2), ...games("b", "c", 5, 3), ...games("a", "c", 7, 1)];

  it("is the same for the same seed, and the interval holds the point estimate", () => {
    const one = rateWithIntervals(all, ["a", "b", "c"], { seed: 7, samples: 200 });
    const two = rateWithIntervals(all, ["a", "b", "c"], { seed: 7, samples: 200 });
    expect(one).toEqual(two);
    expect(one.map((p) => p.name)).toEqual(["a", "b", "c"]);
    for (const p of one) {
      expect(p.low).toBeLessThanOrEqual(p.rating);
      expect(p.high).toBeGreaterThanOrEqual(p.rating);
      expect(p.games).toBe(16);
    }
    expect(one[0]!.score).toBe(13);
  });

  it("another seed moves the interval but not the rating", () => {
    const one = rateWithIntervals(all, ["a", "b", "c"], { seed: 7, samples: 200 });
    const two = rateWithIntervals(all, ["a", "b", "c"], { seed: 8, samples: 200 });
    expect(two[0]!.rating).toBe(one[0]!.rating);
    expect(two[0]!.low).not.toBe(one[0]!.low);
  });

  it("narrows with more games", () => {
    const few = rateWithIntervals(games("a", "b", 3, 1), ["a", "b"], { seed: 1, samples: 300 });
    const many = rateWithIntervals(games("a", "b", 30, 10), ["a", "b"], { seed: 1, samples: 300 });
    const width = (x: typeof few) => x[0]!.high - x[0]!.low;
    expect(width(many)).toBeLessThan(width(few) / 2);
  });
});

describe("helpers", () => {
  it("seededRandom is deterministic and in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });

  it("quantile interpolates", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
  });
});
