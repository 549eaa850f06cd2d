import { describe, expect, it } from "vitest";
import {
  challengerTurn,
  crossfireState,
  fm,
  proposerTurn,
  step,
  verdictAnswer,
} from "../../test-helpers/crossfire.js";
import { crossfireFormat } from "./format.js";
import type { CrossfireState } from "./state.js";

function planOf(state: CrossfireState, to: number) {
  const reset = crossfireFormat.reset;
  if (!reset.supported) throw new Error(`crossfire cannot be reset: ${reset.reason}`);
  const planned = reset.plan(state, to);
  if (!planned.ok) throw new Error(planned.errors.map((e) => e.message).join("\n"));
  return planned.value;
}

/** A two-round crossfire debate driven to its verdict. */
function finished(): { states: CrossfireState[]; end: CrossfireState } {
  const states: CrossfireState[] = [];
  let state = crossfireState({ rounds: 2 });
  for (const round of [1, 2]) {
    states[round] = state;
    state = step(state, "proposer", proposerTurn());
    state = step(state, "challenger", challengerTurn(round));
  }
  return { states, end: step(state, "judge", verdictAnswer()) };
}

describe("crossfire's reset plan", () => {
  it("starts at round 1, awaiting the proposer, and keeps no scores", () => {
    const reset = crossfireFormat.reset;
    expect(reset.supported && reset.start).toBe(1);
    const plan = planOf(finished().end, 1);
    expect(plan.writeScores).toBe(false);
    expect(fm(plan.state)).toMatchObject({ current_exchange: 1, current_phase: "awaiting_proposer" });
    expect(plan.state).toEqual(finished().states[1]);
  });

  it("to round 2 gives the state the debate had when round 2 began: no verdict, no winner", () => {
    const { states, end } = finished();
    expect(fm(end).winner).toBe("challenger");
    const plan = planOf(end, 2);
    expect(plan.state).toEqual(states[2]);
    expect(fm(plan.state).winner).toBeUndefined();
    expect(fm(plan.state).current_phase).toBe("awaiting_proposer");
    expect(crossfireFormat.checkCommitted(plan.state)).toEqual([]);
    expect(crossfireFormat.next(plan.state)).toMatchObject({ kind: "ask", exchange: 2 });
  });
});
