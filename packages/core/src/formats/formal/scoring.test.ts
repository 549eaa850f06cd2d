import type { Judgment, ScoresFile } from "@debatekit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundScore } from "../../judging/round.js";
import { draft, freshState } from "../../test-helpers/states.js";
import type { DebateState } from "../../types.js";
import { argumentId } from "./ids.js";
import { applyArguments, applyJudgment } from "./machine.js";
import { renderArgument } from "./render.js";
import { cumulativeScores, recordJudgment } from "./scoring.js";

const NOW = "2026-11-21T12:00:00Z";
const score = fc.double({ min: -1, max: 1, noNaN: true });

function sumOfCurrent(scores: ScoresFile, side: string): number {
  return Object.entries(scores)
    .filter(([id]) => id.startsWith(`${side}_`))
    .reduce((total, [, r]) => total + r.current_score, 0);
}

describe("cumulativeScores", () => {
  it("is empty for an empty scores file", () => {
    expect(cumulativeScores({})).toEqual({
      proposition: { total: 0, count: 0 },
      opposition: { total: 0, count: 0 },
    });
  });

  it("gives each caller its own copy of a scores object's remembered sums", () => {
    const scores: ScoresFile = {
      prop_001: { current_score: 0.25, history: [{ score: 0.25, reasoning: "r", scored_at: NOW }] },
      opp_001: { current_score: -0.25, history: [{ score: -0.25, reasoning: "r", scored_at: NOW }] },
    };
    const first = cumulativeScores(scores);
    first.proposition.total = 99;
    expect(cumulativeScores(scores)).toEqual({
      proposition: { total: 0.25, count: 1 },
      opposition: { total: -0.25, count: 1 },
    });
    // A new scores object (a step's) is summed on its own.
    const next = recordJudgment(
      scores,
      2,
      { scores: [{ argument_id: "prop_002", score: 0.5, reasoning: "r" }] },
      NOW,
    );
    expect(cumulativeScores(next).proposition).toEqual({ total: 0.75, count: 2 });
  });

  it("equals the sum and count of current scores per side (property)", () => {
    const entry = fc.record({
      side: fc.constantFrom("prop", "opp"),
      exchange: fc.integer({ min: 1, max: 999 }),
      current: score,
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), (entries) => {
        const scores: ScoresFile = {};
        for (const e of entries) {
          scores[`${e.side}_${String(e.exchange).padStart(3, "0")}`] = {
            current_score: e.current,
            history: [{ score: e.current, reasoning: "r", scored_at: NOW }],
          };
        }
        const c = cumulativeScores(scores);
        expect(c.proposition.total).toBeCloseTo(sumOfCurrent(scores, "prop"), 5);
        expect(c.opposition.total).toBeCloseTo(sumOfCurrent(scores, "opp"), 5);
        expect(c.proposition.count + c.opposition.count).toBe(Object.keys(scores).length);
        expect(c.proposition.total).toBe(roundScore(c.proposition.total)); // no float noise left
      }),
    );
  });
});

describe("recordJudgment", () => {
  it("does not change its input", () => {
    const scores: ScoresFile = {
      prop_000a: { current_score: 0.2, history: [{ score: 0.2, reasoning: "r", scored_at: NOW }] },
    };
    const before = structuredClone(scores);
    recordJudgment(
      scores,
      1,
      {
        scores: [{ argument_id: "prop_001", score: 0, reasoning: "r" }],
        rescores: [{ argument_id: "prop_000a", old_score: 0.2, new_score: 0.4, reasoning: "r" }],
      },
      NOW,
    );
    expect(scores).toEqual(before);
  });
});

// Drives real transitions with random zero-sum judgments and checks the invariants after each.
describe("a debate judged with random valid judgments (property)", () => {
  it("keeps the sum of all current scores at zero and cumulative == sum of current scores", () => {
    const exchangeJudgment = fc.record({
      openings: fc.array(score, { minLength: 6, maxLength: 6 }),
      rebuttals: fc.array(fc.tuple(score, fc.option(fc.double({ min: -0.5, max: 0.5, noNaN: true }))), {
        minLength: 2,
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(exchangeJudgment, ({ openings, rebuttals }) => {
        let state: DebateState = freshState({ exchanges: rebuttals.length + 1 });
        for (let exchange = 0; exchange <= rebuttals.length; exchange++) {
          const side = (s: "prop" | "opp") =>
            (exchange === 0 ? [0, 1, 2] : [undefined]).map((i) => {
              const id = argumentId(s, exchange, i);
              return renderArgument(draft(id), { id, side: s, exchange });
            });
          const withArgs = applyArguments(state, exchange, {
            proposition: side("prop"),
            opposition: side("opp"),
          });
          if (!withArgs.ok) throw new Error(JSON.stringify(withArgs.errors));
          state = withArgs.value;
          const current = state.arguments
            .filter((a) => a.frontmatter.exchange === exchange)
            .map((a) => a.frontmatter.id);
          // Zero-sum by construction: each prop score is mirrored by an opp score.
          const raw = exchange === 0 ? openings.slice(0, 3) : [rebuttals[exchange - 1]![0]];
          const judgment: Judgment = {
            scores: current.map((id) => {
              const k = exchange === 0 ? "abc".indexOf(id.at(-1)!) : 0;
              const v = raw[k]!;
              return { argument_id: id, score: id.startsWith("prop") ? v : -v, reasoning: "r" };
            }),
          };
          const shift = exchange > 0 ? rebuttals[exchange - 1]![1] : null;
          if (shift !== null) {
            const old = state.scores.prop_000a!.current_score;
            const next = Math.max(-1, Math.min(1, old + shift));
            judgment.rescores = [
              { argument_id: "prop_000a", old_score: old, new_score: next, reasoning: "r" },
            ];
          }
          const judged = applyJudgment(state, exchange, judgment, NOW);
          if (!judged.ok) throw new Error(JSON.stringify(judged.errors));
          state = judged.value;
          const c = state.frontmatter.cumulative_scores!;
          expect(c).toEqual(cumulativeScores(state.scores));
          expect(c.proposition.total).toBeCloseTo(sumOfCurrent(state.scores, "prop"), 5);
          // Scores of each exchange sum to zero; only rescores move the balance, by exactly their diffs.
          const rescoreDiffs = Object.values(state.scores)
            .flatMap((r) => r.history)
            .reduce((t, h) => t + (h.diff ?? 0), 0);
          expect(c.proposition.total + c.opposition.total).toBeCloseTo(rescoreDiffs, 5);
        }
      }),
      { numRuns: 150 },
    );
  }, 30_000);
});
