import type { Judgment } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { answer, draft, freshState, zeroSumJudgment } from "../../test-helpers/states.js";
import type { DebateState } from "../../types.js";
import { formalFormat } from "./format.js";

const NOW = "2026-11-21T12:00:00.000Z";

/** The answers of the step `state` is at: fresh arguments (rebuttals attack the other side's last), or a zero-sum judgment that rescores at exchange 2. */
function answersOf(state: DebateState): Record<string, string> {
  const exchange = state.frontmatter.current_exchange;
  if (state.frontmatter.current_phase === "awaiting_arguments") {
    const drafts = (role: string, other: string) =>
      exchange === 0
        ? [draft(`${role} A`), draft(`${role} B`), draft(`${role} C`)]
        : [
            draft(`${role} ${exchange}`, {
              attacks: [
                {
                  target_id: `${other}_${exchange === 1 ? "000a" : String(exchange - 1).padStart(3, "0")}`,
                  attack_type: "grounds_attack",
                  content: "The evidence is thin.",
                },
              ],
            }),
          ];
    return {
      proposition: answer(drafts("proposition", "opp")),
      opposition: answer(drafts("opposition", "prop")),
    };
  }
  const ids = state.arguments.filter((a) => a.frontmatter.exchange === exchange).map((a) => a.frontmatter.id);
  const judgment: Judgment = zeroSumJudgment(ids, 0.1 * (exchange + 1));
  if (exchange === 2) {
    const old = state.scores.opp_000a!.current_score;
    judgment.rescores = [
      { argument_id: "opp_000a", old_score: old, new_score: old - 0.25, reasoning: "prop_002 exposed it." },
    ];
  }
  return { judge: JSON.stringify(judgment) };
}

/** Runs a three-exchange debate through the format; `starts[e]` is the state when exchange e began. */
function finished(): { starts: DebateState[]; end: DebateState } {
  let state = freshState({ exchanges: 3 });
  const starts: DebateState[] = [];
  while (formalFormat.next(state).kind === "ask") {
    if (state.frontmatter.current_phase === "awaiting_arguments")
      starts[state.frontmatter.current_exchange] = state;
    const parsed: Record<string, unknown> = {};
    for (const [role, text] of Object.entries(answersOf(state))) {
      const one = formalFormat.parseAnswer(state, role, text);
      if (!one.ok) throw new Error(JSON.stringify(one.errors));
      parsed[role] = one.value;
    }
    const next = formalFormat.apply(state, parsed, NOW);
    if (!next.ok) throw new Error(JSON.stringify(next.errors));
    state = next.value;
  }
  return { starts, end: state };
}

/** The plan of a reset, or the errors that refused it. */
function planOf(state: DebateState, to: number) {
  const reset = formalFormat.reset;
  if (!reset.supported) throw new Error(`formal cannot be reset: ${reset.reason}`);
  const planned = reset.plan(state, to);
  if (!planned.ok) throw new Error(planned.errors.map((e) => e.message).join("\n"));
  return planned.value;
}

describe("formal's reset plan", () => {
  it("starts at exchange 0 and always writes scores.json", () => {
    const reset = formalFormat.reset;
    expect(reset.supported && reset.start).toBe(0);
    expect(planOf(finished().end, 0).writeScores).toBe(true);
  });

  it("to each exchange gives the state the debate had when that exchange began (a later rescore undone)", () => {
    const { starts, end } = finished();
    expect(end.scores.opp_000a!.history.at(-1)!.triggered_by).toBe("exchange_2");
    for (const to of [0, 1, 2]) expect(planOf(end, to).state).toEqual(starts[to]);
  });

  it("drops the panel's figures and its records of the exchanges undone", () => {
    const { end } = finished();
    const judged: DebateState = {
      ...end,
      frontmatter: { ...end.frontmatter, reliability: { judges: 2, judged_steps: 3 } as never },
      records: [0, 1, 2].map((x) => ({ file: `judges/x000${x}.md`, frontmatter: {}, body: "" })),
    };
    const plan = planOf(judged, 1);
    expect(plan.state.frontmatter.reliability).toBeUndefined();
    expect(plan.state.records?.map((r) => r.file)).toEqual(["judges/x0000.md"]);
    expect(judged.records).toHaveLength(3);
  });
});
