import type { Judges } from "@debatekit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recentre } from "../../judging/combine.js";
import { ballotsOf, firstSide, judgingOf, labelsFor } from "../../judging/panel.js";
import { panelState } from "../../test-helpers/states.js";
import type { DebateState } from "../../types.js";
import { blindFormalText, unblindFormalText } from "./blind.js";
import { formalFormat } from "./format.js";

const realIdOfTitle = (state: DebateState) =>
  new Map(state.arguments.map((a) => [a.frontmatter.title, a.frontmatter.id]));

describe("formal blind labels", () => {
  it("tells a panel judge its answer's problems in the ids it was given, and no side's code", () => {
    const state = panelState({ panel: [{ adapter: "codex" }] }, "blind-errors");
    const judging = {
      ...state,
      frontmatter: { ...state.frontmatter, current_phase: "awaiting_judgment" as const },
    };
    const role = ballotsOf(judgingOf(judging.frontmatter)!)[0]!.role;
    const prompt = formalFormat.prompt(judging, role);
    expect(prompt).not.toMatch(/`(prop|opp)_`/);
    const labels = labelsFor("blind-errors", ballotsOf(judgingOf(judging.frontmatter)!)[0]!, [
      "proposition",
      "opposition",
    ] as const);
    const ids = [...prompt.matchAll(/^## ([AB]_000[a-c]) /gm)].map((m) => m[1]!);
    expect(ids).toHaveLength(6);
    // One id unknown in the labels' own form, so one argument is missing.
    const scores = ids.slice(0, 5).map((id) => ({ argument_id: id, score: 0, reasoning: "r" }));
    scores.push({ argument_id: `${labels.opposition}_000x`, score: 0, reasoning: "r" });
    const parsed = formalFormat.parseAnswer(judging, role, JSON.stringify({ scores }));
    expect(parsed.ok).toBe(false);
    const text = parsed.ok ? "" : parsed.errors.map((e) => e.message).join("\n");
    expect(text).toContain(`found "${labels.opposition}_000x"`);
    expect(text).toContain(`missing ${ids[5]}`);
    expect(text).toContain("A_000a, A_000b, A_000c, B_000a, B_000b, B_000c");
    expect(text).not.toMatch(/\b(prop|opp)_|proposition|opposition/i);
  });

  it("hides ids and side words behind the labels, keeps the motion, and maps back", () => {
    const labels = labelsFor("blind-debate", { judge: "judge" }, ["proposition", "opposition"] as const);
    const motion = "The proposition is that tea beats coffee";
    const text = `${motion}: the proposition's prop_000a attacks opp_001b; Opposition replies.`;
    const seen = blindFormalText(text, labels, [motion]);
    expect(seen.startsWith(motion)).toBe(true);
    expect(seen.slice(motion.length)).not.toMatch(/prop|opp/i);
    expect(unblindFormalText(seen.slice(motion.length), labels)).toBe(
      ": the proposition's prop_000a attacks opp_001b; the opposition replies.",
    );
  });

  it("never attaches a score to the wrong side (any debate, judge, order and scores)", () => {
    const judges: Judges = {
      panel: [
        { adapter: "codex" },
        { adapter: "opencode" },
        { adapter: "copilot" },
        { adapter: "http" },
        { adapter: "acp" },
      ],
      swap: true,
    };
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{2,20}$/),
        fc.integer({ min: 0, max: 9 }),
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        (debateId, ballotIndex, raw) => {
          const state = panelState(judges, debateId);
          const ballot = ballotsOf(judgingOf(state.frontmatter)!)[ballotIndex]!;
          const prompt = formalFormat.prompt(state, ballot.role);
          // Nothing in the prompt names a side or a real id (the motion has neither word).
          expect(prompt).not.toMatch(/\b(prop|opp)_\d{3}|proposition|opposition/i);
          // The judge reads the labelled headings and scores each labelled id.
          const headings = [
            ...prompt.matchAll(/^## ([AB]_000[a-c]) \(Debater ([AB]), exchange 0\): (\w+)$/gm),
          ];
          expect(headings).toHaveLength(6);
          const scores = recentre(raw);
          const reply = {
            scores: headings.map((h, i) => ({
              argument_id: h[1],
              score: scores[i],
              reasoning: `Debater ${h[2]} made ${h[3]}.`,
            })),
          };
          const parsed = formalFormat.parseAnswer(state, ballot.role, JSON.stringify(reply));
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          const byTitle = realIdOfTitle(state);
          const got = new Map(
            (
              parsed.value as { scores: Array<{ argument_id: string; score: number; reasoning: string }> }
            ).scores.map((s) => [s.argument_id, s]),
          );
          headings.forEach((h, i) => {
            const real = byTitle.get(h[3]!)!;
            expect(got.get(real)?.score).toBe(scores[i]);
            // The label in the reasoning names the real side of that argument.
            const side = real.startsWith("prop") ? "proposition" : "opposition";
            expect(got.get(real)?.reasoning).toBe(`the ${side} made ${h[3]}.`);
          });
          // The side read first comes first in the prompt.
          const first = firstSide(ballot, ["prop", "opp"] as const);
          expect(byTitle.get(headings[0]![3]!)!.startsWith(first)).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });
});
