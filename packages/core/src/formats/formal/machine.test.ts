import type { Judgment } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { roundScore } from "../../judging/round.js";
import { answer, draft, freshState, zeroSumJudgment } from "../../test-helpers/states.js";
import type { ArgumentRecord, DebaterRole, DebateState } from "../../types.js";
import { parseJudgeAnswer, parseSideAnswer } from "./answers.js";
import { applyArguments, applyJudgment, nextAction, reopenFormal } from "./machine.js";
import { cumulativeScores } from "./scoring.js";

const NOW = "2026-11-21T12:00:00.000Z";

// A fake model: valid answers for the step, wrapped in the ways real models wrap them.
function debaterText(state: DebateState, role: DebaterRole): string {
  const exchange = state.frontmatter.current_exchange;
  const own = role === "proposition" ? "prop" : "opp";
  const other = role === "proposition" ? "opp" : "prop";
  if (exchange === 0) {
    const text = answer([draft(`${role} A`), draft(`${role} B`), draft(`${role} C`)]);
    return role === "proposition" ? `Here is my opening:\n\n\`\`\`json\n${text}\n\`\`\`\n` : text;
  }
  const targetExchange = String(exchange - 1).padStart(3, "0");
  const otherTarget = exchange === 1 ? `${other}_000a` : `${other}_${targetExchange}`;
  const text = answer([
    draft(`${role} rebuttal ${exchange}`, {
      attacks: [{ target_id: otherTarget, attack_type: "grounds_attack", content: "The evidence is thin." }],
      defends: [{ target_id: `${own}_000b`, defense_type: "reinforce", content: "It still stands." }],
    }),
  ]);
  return `I considered the debate carefully. ${text} That is my answer.`;
}

function judgeText(state: DebateState): string {
  const exchange = state.frontmatter.current_exchange;
  const ids = state.arguments.filter((a) => a.frontmatter.exchange === exchange).map((a) => a.frontmatter.id);
  const judgment: Judgment = zeroSumJudgment(ids, 0.1 * (exchange + 1));
  if (exchange === 2) {
    const old = state.scores.opp_000a!.current_score;
    judgment.rescores = [
      { argument_id: "opp_000a", old_score: old, new_score: old - 0.25, reasoning: "prop_002 exposed it." },
    ];
  }
  return JSON.stringify(judgment);
}

function step(state: DebateState): DebateState {
  const action = nextAction(state);
  if (action.kind === "arguments") {
    const prop = parseSideAnswer(state, "proposition", debaterText(state, "proposition"));
    const opp = parseSideAnswer(state, "opposition", debaterText(state, "opposition"));
    if (!prop.ok || !opp.ok) throw new Error(JSON.stringify([prop, opp]));
    const next = applyArguments(state, action.exchange, { proposition: prop.value, opposition: opp.value });
    if (!next.ok) throw new Error(JSON.stringify(next.errors));
    return next.value;
  }
  if (action.kind === "judgment") {
    const judgment = parseJudgeAnswer(state, judgeText(state));
    if (!judgment.ok) throw new Error(JSON.stringify(judgment.errors));
    const next = applyJudgment(state, action.exchange, judgment.value, NOW);
    if (!next.ok) throw new Error(JSON.stringify(next.errors));
    return next.value;
  }
  throw new Error(`unexpected ${JSON.stringify(action)}`);
}

describe("a full 3-exchange formal debate", () => {
  it("runs opening, two rebuttals and their judgments, then is complete", () => {
    let state = freshState({ exchanges: 3 });
    const actions = [];
    while (nextAction(state).kind !== "done") {
      actions.push(nextAction(state));
      state = step(state);
    }
    expect(actions).toEqual([
      { kind: "arguments", exchange: 0, task: "opening" },
      { kind: "judgment", exchange: 0 },
      { kind: "arguments", exchange: 1, task: "rebuttal" },
      { kind: "judgment", exchange: 1 },
      { kind: "arguments", exchange: 2, task: "rebuttal" },
      { kind: "judgment", exchange: 2 },
    ]);
    expect(nextAction(state)).toEqual({ kind: "done", reason: "complete" });
    expect(state.arguments.map((a) => a.frontmatter.id)).toEqual([
      "opp_000a",
      "opp_000b",
      "opp_000c",
      "prop_000a",
      "prop_000b",
      "prop_000c",
      "opp_001",
      "prop_001",
      "opp_002",
      "prop_002",
    ]);
    // The last judgment writes `complete` into the commit marker, as crossfire and review do.
    expect(state.frontmatter).toMatchObject({ current_exchange: 3, current_phase: "complete" });
    expect(state.arguments.find((a) => a.frontmatter.id === "opp_002")!.frontmatter.attacks).toEqual([
      { target_id: "prop_001", type: "grounds_attack" },
    ]);
    // opp_000a: -0.1 at exchange 0, rescored by -0.25 at exchange 2.
    expect(state.scores.opp_000a).toEqual({
      current_score: -0.35,
      history: [
        { score: -0.1, reasoning: "weaker opp_000a", scored_at: NOW },
        {
          score: -0.35,
          reasoning: "prop_002 exposed it.",
          scored_at: NOW,
          triggered_by: "exchange_2",
          previous_score: -0.1,
          diff: -0.25,
        },
      ],
    });
    // 3*0.1 + 0.2 + 0.3 = 0.8 for the proposition; the opposition -0.8 minus the rescore of -0.25.
    expect(state.frontmatter.cumulative_scores).toEqual({
      proposition: { total: 0.8, count: 5 },
      opposition: { total: -1.05, count: 5 },
    });
    expect(state.frontmatter.cumulative_scores).toEqual(cumulativeScores(state.scores));
  });

  it("refuses to apply a step twice, with the state unchanged", () => {
    const start = freshState();
    const snapshot = structuredClone(start);
    const afterArgs = step(start);
    expect(start).toEqual(snapshot); // the input state is never mutated
    const prop = parseSideAnswer(start, "proposition", debaterText(start, "proposition"));
    const opp = parseSideAnswer(start, "opposition", debaterText(start, "opposition"));
    if (!prop.ok || !opp.ok) throw new Error("fixture answers must be valid");
    const again = applyArguments(afterArgs, 0, { proposition: prop.value, opposition: opp.value });
    expect(again).toEqual({
      ok: false,
      errors: [
        {
          code: "DEBATE_PHASE_MISMATCH",
          path: "current_phase",
          message:
            "expected awaiting_arguments at exchange 0, found awaiting_judgment at exchange 0 (was this step already applied?)",
        },
      ],
    });
    const judged = step(afterArgs);
    const twice = applyJudgment(judged, 0, zeroSumJudgment(["prop_000a", "opp_000a"]), NOW);
    expect(twice.ok).toBe(false);
    expect(!twice.ok && twice.errors[0]!.code).toBe("DEBATE_PHASE_MISMATCH");
    expect(judged.frontmatter.current_exchange).toBe(1);
  });

  it("refuses arguments for the wrong exchange and records with unexpected ids", () => {
    const start = freshState();
    const prop = parseSideAnswer(start, "proposition", debaterText(start, "proposition"));
    const opp = parseSideAnswer(start, "opposition", debaterText(start, "opposition"));
    if (!prop.ok || !opp.ok) throw new Error("fixture answers must be valid");
    const wrongExchange = applyArguments(start, 1, { proposition: prop.value, opposition: opp.value });
    expect(!wrongExchange.ok && wrongExchange.errors[0]!.message).toBe(
      "expected awaiting_arguments at exchange 1, found awaiting_arguments at exchange 0 (was this step already applied?)",
    );
    const swapped = applyArguments(start, 0, { proposition: opp.value, opposition: prop.value });
    expect(!swapped.ok && swapped.errors.map((e) => e.code)).toEqual([
      "ARGUMENT_IDS_UNEXPECTED",
      "ARGUMENT_PLACEMENT",
      "ARGUMENT_PLACEMENT",
      "ARGUMENT_PLACEMENT",
      "ARGUMENT_IDS_UNEXPECTED",
      "ARGUMENT_PLACEMENT",
      "ARGUMENT_PLACEMENT",
      "ARGUMENT_PLACEMENT",
    ]);
    const short: ArgumentRecord[] = prop.value.slice(0, 2);
    const missing = applyArguments(start, 0, { proposition: short, opposition: opp.value });
    expect(!missing.ok && missing.errors[0]).toEqual({
      code: "ARGUMENT_IDS_UNEXPECTED",
      path: "proposition",
      message:
        'expected the proposition\'s arguments prop_000a, prop_000b, prop_000c for exchange 0, found "prop_000a", "prop_000b"',
    });
  });

  it("refuses a judgment stamped with something that is not an ISO time", () => {
    const afterArgs = step(freshState());
    const ids = afterArgs.arguments.map((a) => a.frontmatter.id);
    const result = applyJudgment(afterArgs, 0, zeroSumJudgment(ids), "yesterday");
    expect(!result.ok && result.errors[0]).toEqual({
      code: "TIMESTAMP_INVALID",
      path: "now",
      message: 'expected an ISO 8601 date-time like 2026-01-31T12:00:00Z, found "yesterday"',
    });
  });
});

describe("nextAction", () => {
  it("asks for the openings of a fresh debate", () => {
    expect(nextAction(freshState())).toEqual({ kind: "arguments", exchange: 0, task: "opening" });
  });

  it("is done without `exchanges` (a dialectic folder), and complete when current_exchange reaches it", () => {
    const { exchanges: _, ...noExchanges } = freshState().frontmatter;
    expect(nextAction({ ...freshState(), frontmatter: noExchanges })).toEqual({
      kind: "done",
      reason: "no_exchanges",
    });
    expect(nextAction(freshState({ exchanges: 2, current_exchange: 2 }))).toEqual({
      kind: "done",
      reason: "complete",
    });
  });

  it("reads a folder written before `complete` (awaiting_arguments at its last exchange) as complete", () => {
    expect(
      nextAction(freshState({ exchanges: 2, current_exchange: 2, current_phase: "awaiting_arguments" })),
    ).toEqual({ kind: "done", reason: "complete" });
  });

  it("reopens a complete debate whose `exchanges` was raised: awaiting arguments at the same exchange", () => {
    const raised = freshState({ exchanges: 4, current_exchange: 2, current_phase: "complete" });
    expect(nextAction(freshState({ exchanges: 2, current_exchange: 2, current_phase: "complete" }))).toEqual({
      kind: "done",
      reason: "complete",
    });
    expect(nextAction(raised)).toEqual({ kind: "reopen", exchange: 2 });
    const reopened = reopenFormal(raised, NOW);
    expect(reopened.ok && reopened.value.frontmatter).toMatchObject({
      current_exchange: 2,
      current_phase: "awaiting_arguments",
    });
    expect(reopened.ok && nextAction(reopened.value)).toEqual({
      kind: "arguments",
      exchange: 2,
      task: "rebuttal",
    });
    const notRaised = reopenFormal(
      freshState({ exchanges: 2, current_exchange: 2, current_phase: "complete" }),
      NOW,
    );
    expect(!notRaised.ok && notRaised.errors[0]!.code).toBe("DEBATE_PHASE_MISMATCH");
  });

  it("still asks for a judgment already due when `exchanges` was lowered below the current exchange", () => {
    expect(
      nextAction(freshState({ exchanges: 1, current_exchange: 2, current_phase: "awaiting_judgment" })),
    ).toEqual({
      kind: "judgment",
      exchange: 2,
    });
  });

  it("is blocked when paused, without seats, or in a format that does not run yet", () => {
    expect(nextAction(freshState({ paused: true }))).toEqual({
      kind: "blocked",
      reason: "paused",
      message: "debate.md: `paused: true`; set it to false to continue",
    });
    const { seats: _, ...noSeats } = freshState().frontmatter;
    const blocked = nextAction({ ...freshState(), frontmatter: noSeats });
    expect(blocked).toMatchObject({ kind: "blocked", reason: "no_seats" });
    expect(blocked.kind === "blocked" && blocked.message).toContain("add them to the frontmatter");
    expect(blocked.kind === "blocked" && blocked.message).toContain(
      "seats:\n  proposition: { adapter: claude }",
    );
  });

  it("refuses to parse answers for a blocked debate", () => {
    const result = parseSideAnswer(freshState({ paused: true }), "proposition", answer([draft("x")]));
    expect(!result.ok && result.errors[0]!.code).toBe("DEBATE_NOT_RUNNABLE");
  });

  it("keeps float noise out of cumulative scores", () => {
    expect(roundScore(0.1 + 0.2)).toBe(0.3);
  });
});
