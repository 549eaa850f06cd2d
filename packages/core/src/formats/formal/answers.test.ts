import { describe, expect, it } from "vitest";
import { answer, draft, freshState, panelState } from "../../test-helpers/states.js";
import { parseJudgeAnswer, parseSideAnswer } from "./answers.js";

// A person fixing an answer by hand needs every problem in one attempt, most basic first.
describe("every problem of a formal answer at once", () => {
  it("reports the shape, then the count, then each argument's rules, in that order", () => {
    const { warrant: _, ...noWarrant } = draft("B");
    const text = answer([
      draft("A", { attacks: [{ target_id: "opp_000a", attack_type: "claim_attack", content: "x" }] }),
      noWarrant as ReturnType<typeof draft>,
    ]);
    const parsed = parseSideAnswer(freshState(), "proposition", text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((e) => [e.code, e.path])).toEqual([
      ["ANSWER_SCHEMA", "arguments[1].warrant"],
      ["ARGUMENT_COUNT", "arguments"],
      ["ARGUMENT_ATTACK_IN_OPENING", "arguments[0].attacks"],
    ]);
  });

  it("does not ask for the shape of an opening's attack, which must go whatever it holds", () => {
    const text = answer([
      draft("A", { attacks: [{ target_id: "opp_000a" } as never] }),
      draft("B"),
      draft("C"),
    ]);
    const parsed = parseSideAnswer(freshState(), "proposition", text);
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.code)).toEqual(["ARGUMENT_ATTACK_IN_OPENING"]);
  });

  it("says a missing field once, not again as a rule", () => {
    const { claim: _, ...noClaim } = draft("A");
    const parsed = parseSideAnswer(
      freshState(),
      "proposition",
      answer([noClaim as ReturnType<typeof draft>, draft("B"), draft("C")]),
    );
    expect(parsed.ok ? [] : parsed.errors.map((e) => [e.code, e.path])).toEqual([
      ["ANSWER_SCHEMA", "arguments[0].claim"],
    ]);
  });

  it("walks an answer whose arguments are not all objects", () => {
    const parsed = parseSideAnswer(
      freshState(),
      "proposition",
      JSON.stringify({ arguments: [null, draft("B", { defends: [] }), "C", 4] }),
    );
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.code)).toContain("ARGUMENT_COUNT");
  });

  it("checks a judgment's scores even when its shape is refused", () => {
    const state = {
      ...freshState(),
      frontmatter: { ...freshState().frontmatter, current_phase: "awaiting_judgment" as const },
    };
    const parsed = parseJudgeAnswer(
      state,
      JSON.stringify({ scores: [{ argument_id: "prop_000a", score: 0.2 }], extra: 1 }),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const codes = parsed.errors.map((e) => e.code);
    expect(codes[0]).toBe("JUDGMENT_SCHEMA");
    expect(codes.some((c) => c !== "JUDGMENT_SCHEMA")).toBe(true);
  });

  it("tells a score out of range and the sum it breaks in one attempt", () => {
    // The opening's six arguments, awaiting their judgment.
    const state = panelState({ panel: [{ adapter: "codex" }] });
    const ids = ["prop_000a", "prop_000b", "prop_000c", "opp_000a", "opp_000b", "opp_000c"];
    const scores = [1.5, 0.1, 0, 0, 0, 0].map((score, i) => ({ argument_id: ids[i], score, reasoning: "r" }));
    const parsed = parseJudgeAnswer(state, JSON.stringify({ scores }));
    expect(parsed.ok ? [] : parsed.errors.map((e) => [e.code, e.path])).toEqual([
      ["JUDGMENT_SCHEMA", "scores[0].score"],
      ["JUDGMENT_NOT_ZERO_SUM", "scores"],
    ]);
  });
});
