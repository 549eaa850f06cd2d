import { describe, expect, it } from "vitest";
import { choiceEffect, decide, parseDecision } from "./decision.js";
import { budgetForCall, resolveGuards } from "./guards.js";
import { detectTarget, splitMixed } from "./target.js";

describe("guards", () => {
  it("intensity presets, and explicit values override them", () => {
    const v = (o: Parameters<typeof resolveGuards>[0]) => {
      const r = resolveGuards(o);
      return r.ok ? [r.value.max_rounds, r.value.budget_minutes] : r.errors[0]!.code;
    };
    expect(v({ intensity: "quick" })).toEqual([1, 10]);
    expect(v({})).toEqual([3, 20]);
    expect(v({ intensity: "extensive" })).toEqual([5, 40]);
    expect(v({ intensity: "quick", max_rounds: 4 })).toEqual([4, 10]);
    expect(v({ intensity: "extensive", budget_minutes: 7 })).toEqual([5, 7]);
    expect(v({ intensity: "huge" })).toBe("REVIEW_INTENSITY");
    expect(v({ max_rounds: 0 })).toBe("REVIEW_MAX_ROUNDS");
  });
  it("the budget is checked before a call and bounds its timeout", () => {
    expect(budgetForCall(10, 0, 900_000)).toEqual({ exhausted: false, timeoutMs: 600_000 });
    expect(budgetForCall(10, 540_000, 900_000)).toEqual({ exhausted: false, timeoutMs: 60_000 });
    expect(budgetForCall(10, 100_000, 30_000)).toEqual({ exhausted: false, timeoutMs: 30_000 });
    expect(budgetForCall(10, 600_000, 900_000)).toEqual({ exhausted: true });
  });
});

describe("target detection and the mixed split", () => {
  const code = "```ts\nconst x = 1;\n```\n";
  const proposal = "# Proposal: move to gRPC\n\nWe should...\n";
  it("detects code, proposal and mixed", () => {
    expect(detectTarget(code)).toBe("code");
    expect(detectTarget("diff --git a/x b/x\n@@ -1 +1 @@\n")).toBe("code");
    expect(detectTarget(proposal)).toBe("proposal");
    expect(detectTarget(`${proposal}\n${code}`)).toBe("mixed");
    expect(detectTarget("just some notes")).toBe("proposal");
  });
  it("splits mixed into the code part and the proposal part, downgrading when one is empty", () => {
    const s = splitMixed(`${proposal}\n${code}\n## Tradeoffs\nmore words\n`);
    expect(s.target).toBe("mixed");
    expect(s.code).toBe("```ts\nconst x = 1;\n```");
    expect(s.proposal).toContain("## Tradeoffs");
    expect(s.proposal).not.toContain("const x");
    expect(splitMixed(code).target).toBe("code");
    expect(splitMixed(proposal).target).toBe("proposal");
  });
});

describe("decisions", () => {
  it("auto applies the recommendation; manual waits, then applies the person's choice", () => {
    expect(decide("auto", "C")).toEqual({ kind: "apply", choice: "C", by: "auto" });
    expect(decide("manual", "C")).toEqual({ kind: "wait" });
    expect(decide("manual", "C", "A")).toEqual({ kind: "apply", choice: "A", by: "manual" });
  });
  it("reads a decision key or inbox text, and names the field of a bad one", () => {
    expect(parseDecision("b", "decision")).toEqual({ ok: true, value: "B" });
    expect(parseDecision("decision: D\n", "inbox/decision.md")).toEqual({ ok: true, value: "D" });
    const bad = parseDecision("maybe", "decision");
    expect(!bad.ok && bad.errors[0]).toMatchObject({ code: "REVIEW_DECISION_INVALID", path: "decision" });
  });
  it("B materializes (unless skipped), C writes v-next, D a rebuttal; A, B and E end", () => {
    expect(choiceEffect("A")).toEqual({ ends: true });
    expect(choiceEffect("B")).toEqual({ author: "accepted", ends: true });
    expect(choiceEffect("B", true)).toEqual({ ends: true });
    expect(choiceEffect("C")).toEqual({ author: "compromise", ends: false });
    expect(choiceEffect("D")).toEqual({ author: "rebuttal", ends: false });
    expect(choiceEffect("E")).toEqual({ ends: true });
  });
});
