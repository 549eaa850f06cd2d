import type { Judges, SeatConfig } from "@debatekit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crossfireFormat } from "../formats/crossfire/format.js";
import { formalFormat } from "../formats/formal/format.js";
import type { SeatAsk } from "../formats/format.js";
import { crossfireState } from "../test-helpers/crossfire.js";
import { freshState, panelState } from "../test-helpers/states.js";
import { combineRescores, combineScores, judgeVote, majority, median, recentre } from "./combine.js";
import { ballotsOf, firstSide, judgingOf, labelsFor } from "./panel.js";
import { flipRate, krippendorffAlpha, meanDeviation } from "./reliability.js";
import { panelVerdict } from "./votes.js";

describe("combination", () => {
  it("median: odd and even counts", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });

  it("re-centring subtracts the mean when no score meets a bound", () => {
    expect(recentre([0.5, 0.1, -0.3])).toEqual([0.4, 0, -0.4]);
  });

  it("a panel's combined scores keep the zero sum and the range, for any zero-sum ballots", () => {
    const zeroSumBallot = (n: number) =>
      fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: n, maxLength: n }).map((raw) => {
        const centred = recentre(raw);
        return Object.fromEntries(centred.map((s, i) => [`id${i}`, s]));
      });
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((n) => fc.array(zeroSumBallot(n), { minLength: 1, maxLength: 5 })),
        (ballots) => {
          const combined = Object.values(combineScores(ballots));
          const sum = combined.reduce((a, b) => a + b, 0);
          expect(Math.abs(sum)).toBeLessThanOrEqual(1e-6);
          for (const s of combined) {
            expect(s).toBeGreaterThanOrEqual(-1);
            expect(s).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps the zero sum even when medians pile up at a bound", () => {
    // Medians [1, -1, -1, -1, -1, -1] sum to -4: subtracting the mean would push 1 past the range.
    const out = recentre([1, -1, -1, -1, -1, -1]);
    expect(out.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 6);
    expect(Math.max(...out)).toBeLessThanOrEqual(1);
    expect(out[0]).toBe(1);
  });

  it("rescores: the median of every judge's new score, unchanged ones left out", () => {
    const recorded = { prop_000a: 0.2, opp_000a: -0.2 };
    expect(combineRescores([{ prop_000a: 0.4 }, { prop_000a: 0.6 }, {}], recorded)).toEqual({
      prop_000a: 0.4,
    });
    expect(combineRescores([{ prop_000a: 0.4 }, {}, {}], recorded)).toEqual({});
  });

  it("votes: a verdict that flips with the order is a tie; the majority decides, equal counts tie", () => {
    expect(judgeVote(["proposer", "proposer"])).toBe("proposer");
    expect(judgeVote(["proposer", "challenger"])).toBe("tie");
    const sides = ["proposer", "challenger"] as const;
    expect(majority(["proposer", "tie", "challenger"], sides)).toBe("tie");
    expect(majority(["proposer", "tie", "proposer"], sides)).toBe("proposer");
    expect(majority(["challenger", "challenger", "proposer"], sides)).toBe("challenger");
  });
});

describe("reliability figures", () => {
  it("Krippendorff's alpha reproduces the worked example of Krippendorff (2011)", () => {
    const _ = undefined;
    const data = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
      [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
    ];
    expect(krippendorffAlpha(data, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(data, "interval")).toBeCloseTo(0.849, 3);
  });

  it("alpha is 1 for identical coders and undefined without pairable values", () => {
    expect(
      krippendorffAlpha([
        [0.2, -0.2, 0.5],
        [0.2, -0.2, 0.5],
      ]),
    ).toBe(1);
    expect(krippendorffAlpha([[0.2, -0.2]])).toBeUndefined();
  });

  it("flip rate and deviation", () => {
    expect(
      flipRate([
        ["a", "a"],
        ["a", "b"],
        ["b", "b"],
      ]),
    ).toBeCloseTo(1 / 3, 9);
    expect(flipRate([])).toBeUndefined();
    expect(meanDeviation({ x: 0.5, y: -0.5 }, { x: 0.3, y: -0.3 })).toBeCloseTo(0.2, 9);
  });
});

describe("blind labels", () => {
  it("half of the panel reads the second side first; a swapped twin reads the other order", () => {
    const config = judgingOf({
      judges: {
        panel: [{ adapter: "codex" }, { adapter: "gemini" }, { adapter: "claude" }, { adapter: "opencode" }],
        swap: true,
      },
    })!;
    const firsts = ballotsOf(config).map((b) => `${b.role}:${firstSide(b, ["p", "o"] as const)}`);
    expect(firsts).toEqual([
      "judge:p",
      "judge_swapped:o",
      "judge_2:o",
      "judge_2_swapped:p",
      "judge_3:p",
      "judge_3_swapped:o",
      "judge_4:o",
      "judge_4_swapped:p",
    ]);
  });

  it("labels are random per judge: both assignments occur over debates", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++)
      seen.add(
        labelsFor(`debate-${i}`, { judge: "judge" }, ["proposition", "opposition"] as const).proposition,
      );
    expect(seen).toEqual(new Set(["A", "B"]));
  });
});

describe("self-judging", () => {
  const seats = {
    proposition: { adapter: "claude" as const },
    opposition: { adapter: "gemini" as const, model: "pro" },
  };

  it("a judge with a debater's adapter and model is refused", () => {
    const state = panelState(
      { panel: [{ adapter: "codex" }, { adapter: "gemini", model: "pro" }] },
      "self",
      seats,
    );
    const step = formalFormat.next(state);
    expect(step).toMatchObject({ kind: "blocked", reason: "self_judging" });
    expect(step.kind === "blocked" && step.message).toMatch(
      /judge_2.*gemini pro.*opposition.*allow_self_judging/,
    );
  });

  it("is allowed with allow_self_judging: true; another model of the same CLI is not self-judging", () => {
    const allowed = panelState(
      { panel: [{ adapter: "codex" }, { adapter: "gemini", model: "pro" }], allow_self_judging: true },
      "self",
      seats,
    );
    expect(formalFormat.next(allowed).kind).toBe("ask");
    const other = panelState({ panel: [{ adapter: "gemini", model: "flash" }] }, "self", seats);
    expect(formalFormat.next(other).kind).toBe("ask");
  });

  it("a panel asks every ballot at once, grouped by judge, with a majority quorum", () => {
    const state = panelState({
      panel: [{ adapter: "codex" }, { adapter: "opencode" }, { adapter: "copilot" }],
      swap: true,
    });
    const step = formalFormat.next(state);
    expect(step).toMatchObject({ kind: "ask", mode: "parallel", quorum: 2 });
    if (step.kind !== "ask") return;
    expect((step.asks as SeatAsk[]).map((a) => `${a.role}/${a.group}`)).toEqual([
      "judge/judge",
      "judge_swapped/judge",
      "judge_2/judge_2",
      "judge_2_swapped/judge_2",
      "judge_3/judge_3",
      "judge_3_swapped/judge_3",
    ]);
  });
});

describe("crossfire verdict panel votes", () => {
  it("panel votes: a flipped judge votes tie; equal counts are a tie", () => {
    const split = panelVerdict(
      new Map<string, Array<"proposer" | "challenger" | "tie">>([
        ["judge", ["proposer", "proposer"]],
        ["judge_2", ["challenger", "challenger"]],
        ["judge_3", ["proposer", "challenger"]],
      ]),
      ["proposer", "challenger"],
    );
    expect(split).toEqual({
      votes: { judge: "proposer", judge_2: "challenger", judge_3: "tie" },
      winner: "tie",
    });
  });
});

describe("crossfire verdict panel steps", () => {
  const verdictState = (judges: Judges, seats: { judge?: SeatConfig } = {}) =>
    crossfireState({
      debate_id: "xf",
      rounds: 1,
      current_phase: "awaiting_verdict",
      seats: { proposer: { adapter: "codex" }, challenger: { adapter: "gemini" }, ...seats },
      judges,
    });
  it("asks every ballot in parallel with the quorum and the fallback", () => {
    const step = crossfireFormat.next(
      verdictState({
        panel: [{ adapter: "claude" }, { adapter: "opencode" }],
        swap: true,
        fallback: { adapter: "http", base_url: "http://127.0.0.1:1/v1", model: "m" },
      }),
    );
    expect(step).toMatchObject({
      kind: "ask",
      mode: "parallel",
      quorum: 2,
      fallback: { role: "judge_fallback" },
    });
    expect((step as { asks: SeatAsk[] }).asks.map((a) => `${a.role}/${a.group}/${a.task}`)).toEqual([
      "judge/judge/verdict",
      "judge_swapped/judge/verdict",
      "judge_2/judge_2/verdict",
      "judge_2_swapped/judge_2/verdict",
    ]);
  });
  it("refuses a judge that is a debater's own adapter and model, unless allowed; refuses seats.judge with judges:", () => {
    const self = crossfireFormat.next(verdictState({ panel: [{ adapter: "claude" }, { adapter: "codex" }] }));
    expect(self).toMatchObject({ kind: "blocked", reason: "self_judging" });
    expect((self as { message: string }).message).toMatch(/judge_2.*codex.*proposer/);
    const allowed = crossfireFormat.next(
      verdictState({ panel: [{ adapter: "claude" }, { adapter: "codex" }], allow_self_judging: true }),
    );
    expect(allowed.kind).toBe("ask");
    const twice = crossfireFormat.next(
      verdictState({ panel: [{ adapter: "claude" }] }, { judge: { adapter: "claude" } }),
    );
    expect(twice).toMatchObject({ kind: "blocked", reason: "judges_twice" });
  });
});

describe("planned calls of a panel", () => {
  it("count every ballot of every judged step", () => {
    const judges = {
      panel: [{ adapter: "codex" }, { adapter: "gemini" }, { adapter: "opencode" }],
      swap: true,
    } as Judges;
    const formal = formalFormat.plannedCalls!({ ...freshState({ judges }).frontmatter, exchanges: 2 });
    expect(formal.judge).toBe(12);
    const crossfire = crossfireFormat.plannedCalls!(crossfireState({ debate_id: "x", judges }).frontmatter);
    expect(crossfire.judge).toBe(6);
    expect(formalFormat.plannedCalls!({ ...freshState({}).frontmatter, exchanges: 2 }).judge).toBe(2);
  });
});
