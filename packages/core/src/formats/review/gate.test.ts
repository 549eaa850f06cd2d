import type { ReviewFrontmatter } from "@debatekit/schema";
import { validateGateResult } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { reviewFormat } from "./format.js";
import { evaluateGate } from "./gate.js";
import type { ReviewState } from "./state.js";

const diff =
  "# Commit abc\n\n```diff\n--- a/src/sum.ts\n+++ b/src/sum.ts\n@@ -1,4 +1,4 @@\n export function sum(xs: number[]): number {\n   let total = 0;\n-  for (let i = 0; i < xs.length; i++) total += xs[i];\n+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];\n   return total;\n```\n";

function reviewState(overrides: Partial<ReviewFrontmatter> = {}): ReviewState {
  const fm: ReviewFrontmatter = {
    debate_id: "sum",
    format: "review",
    target: "code",
    mode: "auto",
    max_rounds: 1,
    budget_minutes: 10,
    current_exchange: 1,
    current_phase: "awaiting_critic",
    artifact_version: 1,
    skip_materialize: true,
    seats: { author: { adapter: "replay" }, critic: { adapter: "codex" }, judge: { adapter: "claude" } },
    ...overrides,
  };
  return {
    frontmatter: fm,
    body: "# Motion\n\nReview\n",
    motion: { text: "Review" },
    arguments: [],
    scores: {},
    records: [{ file: "artifact/v1.md", frontmatter: { kind: "original", version: 1 }, body: diff }],
  };
}

function step(state: ReviewState, text: string, spentMs = 1000): ReviewState {
  const next = reviewFormat.next(state);
  if (next.kind !== "ask") throw new Error(`expected an ask, found ${JSON.stringify(next)}`);
  const role = next.asks[0]!.role;
  const parsed = reviewFormat.parseAnswer(state, role, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const applied = reviewFormat.apply(state, { [role]: parsed.value }, "2026-01-01T00:00:00Z", { spentMs });
  if (!applied.ok) throw new Error(JSON.stringify(applied.errors));
  return applied.value;
}

const finding = (severity: string, evidence?: object) =>
  JSON.stringify({
    findings: [
      { severity, title: "Off-by-one drops the last element", detail: "Skips the last item.", evidence },
    ],
    recommendation: "B",
    agree: false,
  });
const verified = { file: "src/sum.ts", line: 3, quote: "i < xs.length - 1" };
const judge = (verdict: string, recommendation: string) =>
  JSON.stringify({
    classifications: [{ finding_id: "r01-f1", verdict, reasoning: "checked" }],
    recommendation,
    reasons: ["because"],
  });
const clean = JSON.stringify({ findings: [], recommendation: "A", agree: true });
const done = { status: "done" } as const;

describe("evaluateGate", () => {
  it("passes an agreed review with no finding, exit 0", () => {
    const s = step(
      step(reviewState(), clean),
      JSON.stringify({ classifications: [], recommendation: "A", reasons: ["fine"] }),
    );
    const result = evaluateGate({ state: s, run: done });
    expect(result).toMatchObject({ outcome: "pass", exit_code: 0, decision: "A", degraded: [] });
    expect(validateGateResult(result).ok).toBe(true);
  });

  it("blocks a valid verified P1, the finding first with its file and line", () => {
    const s = step(step(reviewState(), finding("P1", verified)), judge("valid", "B"));
    const result = evaluateGate({ state: s, run: done, scope: "range:main..HEAD" });
    expect(result.outcome).toBe("blocked");
    expect(result.exit_code).toBe(1);
    expect(result.reason).toBe(
      "blocked: 1 blocking finding(s): r01-f1 [P1] Off-by-one drops the last element (src/sum.ts:3)",
    );
    expect(result.findings[0]).toMatchObject({
      file: "src/sum.ts",
      line: 3,
      evidence_status: "verified",
      blocking: true,
    });
    expect(validateGateResult(result).ok).toBe(true);
  });

  it("an invalid P1 does not block, but a decision the policy does not pass does", () => {
    const s = step(step(reviewState(), finding("P1", verified)), judge("invalid", "D"));
    const result = evaluateGate({ state: s, run: done });
    expect(result).toMatchObject({ outcome: "blocked", blocking: [] });
    expect(result.reason).toContain("the review decided D");
    expect(evaluateGate({ state: s, run: done, policy: { pass_decisions: ["A", "D"] } }).outcome).toBe(
      "pass",
    );
  });

  it("a valid blocking finding without checkable evidence is undecided unless unverified findings count", () => {
    // No evidence: the engine demotes the P1 to P2 and the judge's `valid` to needs_evidence.
    const s = step(step(reviewState(), finding("P1")), judge("valid", "E"));
    expect(s.frontmatter.final_decision).toBe("E");
    const policy = { pass_decisions: ["A" as const, "E" as const] };
    const result = evaluateGate({ state: s, run: done, policy });
    expect(result.findings[0]).toMatchObject({ severity: "P2", verdict: "needs_evidence", blocking: false });
    expect(result.outcome).toBe("undecided");
    expect(result.exit_code).toBe(2);
    expect(result.degraded).toMatchObject([{ cause: "evidence_unchecked" }]);
    expect(evaluateGate({ state: s, run: done, policy: { ...policy, count_unverified: true } }).outcome).toBe(
      "blocked",
    );
  });

  it("a failed seat is undecided with the real error, never a pass", () => {
    const s = reviewState();
    const result = evaluateGate({
      state: s,
      run: {
        status: "failed",
        role: "critic",
        adapter: "codex",
        error: { code: "SEAT_EXIT", message: "HTTP 500: upstream overloaded" },
      },
    });
    expect(result).toMatchObject({ outcome: "undecided", exit_code: 2 });
    expect(result.reason).toBe("undecided: the critic (codex) failed: HTTP 500: upstream overloaded");
    expect(result.degraded).toEqual([
      {
        cause: "seat_failed",
        message: "the critic (codex) failed for good in round 1: no decision",
        role: "critic",
        adapter: "codex",
        round: 1,
        code: "SEAT_EXIT",
        error: "HTTP 500: upstream overloaded",
      },
    ]);
    expect(validateGateResult(result).ok).toBe(true);
  });

  it("a spent budget is undecided and degraded, even with a decision", () => {
    // The critic's call took the whole budget: the loop stops without asking the judge.
    const s = step(reviewState(), finding("P1", verified), 10 * 60_000);
    const advanced = reviewFormat.advance!(s, "2026-01-01T00:00:00Z");
    if (!advanced.ok) throw new Error("advance");
    expect(advanced.value.frontmatter.stop_reason).toBe("budget");
    const result = evaluateGate({ state: advanced.value, run: done });
    expect(result).toMatchObject({ outcome: "undecided", exit_code: 2 });
    expect(result.degraded).toMatchObject([{ cause: "budget_spent", configured: 1, used: 0 }]);
    expect(reviewFormat.standing(advanced.value).degraded).toMatchObject([{ cause: "budget_spent" }]);
  });

  it("a call cut short by the budget's cap stops the review on the budget, keeping the seat's error", () => {
    const s = reviewState({ spent_ms: 9 * 60_000 }); // 1 of 10 minutes left: below the seat's own timeout
    const timeout = { code: "SEAT_TIMEOUT", message: "the critic seat (codex) returned timeout" };
    const stopped = reviewFormat.onSeatFailure!(s, "critic", timeout, "now");
    if (!stopped?.ok) throw new Error("expected a budget stop");
    expect(stopped.value.frontmatter).toMatchObject({
      current_phase: "complete",
      stop_reason: "budget",
      spent_ms: 600_000,
    });
    const result = evaluateGate({ state: stopped.value, run: done });
    expect(result.outcome).toBe("undecided");
    expect(result.degraded.map((d) => d.cause)).toEqual(["seat_failed", "budget_spent"]);
    expect(result.degraded[0]).toMatchObject({ role: "critic", adapter: "codex", error: timeout.message });
    // With most of the budget left, a timeout is the seat's own: the run fails (undecided), no budget stop.
    expect(reviewFormat.onSeatFailure!(reviewState(), "critic", timeout, "now")).toBeUndefined();
  });

  it("the fallback judge replaces a failed judge once; the result says so", () => {
    const s = step(reviewState(), finding("P1", verified));
    const fallback = { adapter: "gemini" as const };
    const withFallback = {
      ...s,
      frontmatter: {
        ...s.frontmatter,
        seats: { ...s.frontmatter.seats!, fallback_judge: fallback },
      } as never,
    };
    expect(
      reviewFormat.onSeatFailure!(s, "judge", { code: "SEAT_EXIT", message: "x" }, "now"),
    ).toBeUndefined();
    expect(
      reviewFormat.onSeatFailure!(withFallback, "critic", { code: "SEAT_EXIT", message: "x" }, "now"),
    ).toBeUndefined();
    const replaced = reviewFormat.onSeatFailure!(
      withFallback,
      "judge",
      { code: "SEAT_EXIT", message: "API Error: 529 overloaded" },
      "now",
    );
    if (!replaced?.ok) throw new Error("expected a replaced judge");
    expect(replaced.value.frontmatter.seats!.judge).toEqual(fallback);
    // Only once: the fallback's own failure fails the run.
    expect(
      reviewFormat.onSeatFailure!(replaced.value, "judge", { code: "SEAT_EXIT", message: "y" }, "now"),
    ).toBeUndefined();
    const judged = step(replaced.value, judge("valid", "B"));
    const result = evaluateGate({ state: judged, run: done });
    expect(result.outcome).toBe("blocked");
    expect(result.degraded).toEqual([
      {
        cause: "fallback_judge",
        message: "the judge (claude) failed in round 1; the fallback judge (gemini) answered instead",
        role: "judge",
        adapter: "claude",
        round: 1,
        code: "SEAT_EXIT",
        error: "API Error: 529 overloaded",
      },
    ]);
  });
});

describe("the gate keeps every finding of a round", () => {
  const twoFindings = JSON.stringify({
    findings: [
      {
        severity: "P1",
        title: "Off-by-one drops the last element",
        detail: "The loop stops one short.",
        evidence: verified,
      },
      {
        severity: "P3",
        title: "Name the accumulator sum",
        detail: "Style.",
        evidence: { file: "src/sum.ts", line: 4, quote: "return total;" },
      },
    ],
    recommendation: "C",
    agree: false,
  });
  const bothValid = JSON.stringify({
    classifications: [
      { finding_id: "r01-f1", verdict: "valid", reasoning: "line 3 stops one short" },
      { finding_id: "r01-f2", verdict: "valid", reasoning: "a fair nit" },
    ],
    recommendation: "C",
    reasons: ["fix the bug, keep the rest"],
  });
  // The critic, the judge (C), then the author's compromise version.
  const judgedC = () =>
    step(step(step(reviewState(), twoFindings), bothValid), "# Fixed\n\nLoop to xs.length.\n");

  it("a valid verified P1 a line away from a P3 blocks, and both are in the result", () => {
    const s = judgedC();
    expect(s.frontmatter).toMatchObject({ current_phase: "complete", final_decision: "C" });
    const result = evaluateGate({ state: s, run: done });
    expect(result).toMatchObject({ outcome: "blocked", exit_code: 1, blocking: ["r01-f1"] });
    expect(result.findings.map((f) => [f.id, f.severity, f.evidence_status, f.blocking])).toEqual([
      ["r01-f1", "P1", "verified", true],
      ["r01-f2", "P3", "verified", false],
    ]);
  });

  it("two findings of one round that share a fingerprint (a folder written before) both stay", () => {
    const s = judgedC();
    const records = s.records!.map((r) =>
      r.file === "rounds/r01-critique.md"
        ? {
            ...r,
            frontmatter: {
              ...r.frontmatter,
              findings: (r.frontmatter.findings as object[]).map((f) => ({ ...f, fingerprint: "fp-same" })),
            },
          }
        : r,
    );
    const result = evaluateGate({ state: { ...s, records }, run: done });
    expect(result.outcome).toBe("blocked");
    expect(result.findings.map((f) => f.id)).toEqual(["r01-f1", "r01-f2"]);
  });

  describe("a later round and a blocking finding", () => {
    const p1 = (title: string, recommendation: string, evidence: object) =>
      JSON.stringify({
        findings: [{ severity: "P1", title, detail: "Skips the last item.", evidence }],
        recommendation,
        agree: false,
      });
    const judgeRound = (round: number, verdict: string, recommendation: string) =>
      JSON.stringify({
        classifications: [{ finding_id: `r0${round}-f1`, verdict, reasoning: "checked" }],
        recommendation,
        reasons: ["because"],
      });
    /** Round 1: a verified P1 judged valid, compromise; the author writes v2; round 2: its repeat judged invalid, keep. */
    function twoRounds(base: ReviewState, evidence: object, v2: string): ReviewState {
      let s = step(base, p1("Loop drops last element", "C", evidence));
      s = step(s, judgeRound(1, "valid", "C"));
      s = step(s, v2);
      s = step(s, p1("The loop drops the last element", "A", evidence));
      return step(s, judgeRound(2, "invalid", "A"));
    }

    it("its repeat judged invalid over the same code leaves it blocking", () => {
      const s = twoRounds(reviewState({ max_rounds: 3 }), verified, "# v2\n\nKeep the loop.\n");
      expect(s.frontmatter).toMatchObject({ current_phase: "complete", final_decision: "A" });
      const result = evaluateGate({ state: s, run: done });
      expect(result).toMatchObject({ outcome: "blocked", exit_code: 1, blocking: ["r01-f1"] });
      expect(result.findings.map((f) => [f.id, f.verdict, f.blocking])).toEqual([["r01-f1", "valid", true]]);
    });

    it("its repeat judged invalid once the artifact at its anchor changed lets it go", () => {
      const proposal = "# Proposal\n\nThe loop runs to xs.length - 1.\n";
      const base = reviewState({ target: "proposal", max_rounds: 3 });
      const records = [{ ...base.records![0]!, body: proposal }];
      const s = twoRounds(
        { ...base, records },
        { quote: "xs.length - 1" },
        "# Proposal\n\nThe loop runs to xs.length.\n",
      );
      const result = evaluateGate({ state: s, run: done });
      expect(result).toMatchObject({ outcome: "pass", exit_code: 0, blocking: [] });
      expect(result.findings.map((f) => [f.id, f.verdict, f.blocking])).toEqual([
        ["r02-f1", "invalid", false],
      ]);
    });
  });
});
