import type { ReviewFrontmatter } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { panelResultOf } from "../../judging/votes.js";
import { reviewFormat } from "./format.js";
import { evaluateGate } from "./gate.js";
import type { ReviewState } from "./state.js";

// A review whose judge is a panel (judges:): every judge asked in parallel, the decision by majority,
// a split panel decided by the tie rule (the less final recommendation).
const diff = [
  "```diff",
  "--- a/src/sum.ts",
  "+++ b/src/sum.ts",
  "@@ -1,4 +1,4 @@",
  " export function sum(xs: number[]): number {",
  "   let total = 0;",
  "-  for (let i = 0; i < xs.length; i++) total += xs[i];",
  "+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];",
  "```",
  "",
].join("\n");
const seat = { adapter: "replay" as const };

function panelState(
  judges: ReviewFrontmatter["judges"],
  extra: Partial<ReviewFrontmatter> = {},
): ReviewState {
  const fm: ReviewFrontmatter = {
    debate_id: "sum",
    format: "review",
    target: "code",
    mode: "auto",
    max_rounds: 3,
    budget_minutes: 20,
    current_exchange: 1,
    current_phase: "awaiting_critic",
    artifact_version: 1,
    seats: { author: seat, critic: seat },
    judges,
    ...extra,
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

const critique = (severity: "P1" | "P2") =>
  JSON.stringify({
    findings: [
      {
        severity,
        title: "Off-by-one drops the last element",
        detail: "The bound skips the last item.",
        evidence: { file: "src/sum.ts", line: 3, quote: "i < xs.length - 1" },
      },
      {
        severity: "P3",
        title: "Loop could be a reduce",
        detail: "Style.",
        evidence: { file: "src/sum.ts", line: 3, quote: "for (let i = 0" },
      },
    ],
    recommendation: "B",
    agree: false,
  });
const judged = (f1: string, f2: string, recommendation: string) =>
  JSON.stringify({
    classifications: [
      { finding_id: "r01-f1", verdict: f1, reasoning: "Line 6." },
      { finding_id: "r01-f2", verdict: f2, reasoning: "Style." },
    ],
    recommendation,
    reasons: [`${recommendation} because of r01-f1.`],
  });

/** The critic's round, then the panel's answers by role (undefined: that judge failed). */
function judgeRound(state: ReviewState, severity: "P1" | "P2", answers: Record<string, string | undefined>) {
  const critic = reviewFormat.parseAnswer(state, "critic", critique(severity));
  if (!critic.ok) throw new Error(JSON.stringify(critic.errors));
  const s = reviewFormat.apply(state, { critic: critic.value }, "2026-01-01T00:00:00Z", { spentMs: 10 });
  if (!s.ok) throw new Error(JSON.stringify(s.errors));
  const step = reviewFormat.next(s.value);
  const parsed: Record<string, unknown> = {};
  const failures: Record<string, { code: string; message: string }> = {};
  for (const [role, text] of Object.entries(answers)) {
    if (text === undefined) {
      failures[role] = { code: "SEAT_EXIT", message: `the ${role} seat failed` };
      continue;
    }
    const p = reviewFormat.parseAnswer(s.value, role, text);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    parsed[role] = p.value;
  }
  const applied = reviewFormat.apply(s.value, parsed, "2026-01-01T00:00:00Z", { spentMs: 10, failures });
  if (!applied.ok) throw new Error(JSON.stringify(applied.errors));
  expect(reviewFormat.checkCommitted(applied.value)).toEqual([]);
  const panel = panelResultOf(applied.value.records!.find((r) => r.file === "judges/r01.md")!);
  return { step, state: applied.value, panel };
}

const three = { panel: [seat, seat, seat] };

describe("a review's judge panel", () => {
  it("asks every judge in parallel, with the quorum and the fallback", () => {
    const { step } = judgeRound(panelState({ ...three, quorum: 2, fallback: seat }), "P1", {
      judge: judged("valid", "invalid", "B"),
      judge_2: judged("valid", "invalid", "B"),
      judge_3: judged("valid", "valid", "C"),
    });
    expect(step).toMatchObject({
      kind: "ask",
      mode: "parallel",
      quorum: 2,
      fallback: { role: "judge_fallback" },
    });
    expect((step as { asks: Array<{ role: string }> }).asks.map((a) => a.role)).toEqual([
      "judge",
      "judge_2",
      "judge_3",
    ]);
  });

  it("decides by majority: verdicts per finding and the recommendation; records and figures", () => {
    const { state, panel } = judgeRound(panelState(three), "P1", {
      judge: judged("valid", "invalid", "B"),
      judge_2: judged("valid", "invalid", "B"),
      judge_3: judged("valid", "valid", "C"),
    });
    const fm = state.frontmatter;
    expect(fm.pending).toMatchObject({ choice: "B" });
    const judgment = state.records!.find((r) => r.file === "rounds/r01-judgment.md")!.frontmatter as {
      classifications: Array<{ finding_id: string; verdict: string }>;
      recommendation: string;
      reasons: string[];
    };
    expect(judgment.classifications.map((c) => `${c.finding_id}:${c.verdict}`)).toEqual([
      "r01-f1:valid",
      "r01-f2:invalid",
    ]);
    expect(judgment.reasons[0]).toBe("Judge panel (judge: B, judge_2: B, judge_3: C): B by majority.");
    expect(panel).toMatchObject({
      step: "r01",
      configured: 3,
      answered: 3,
      quorum: 2,
      degraded: false,
      winner: "B",
    });
    expect(panel.votes).toEqual({ judge: "B", judge_2: "B", judge_3: "C" });
    expect(panel.figures).toEqual({
      agreement: 0.333,
      agreement_metric: "percent_agreement",
      deviation: { judge: 0, judge_2: 0, judge_3: 1 },
    });
    expect(fm.reliability).toMatchObject({ judges: 3, judged_steps: 1, degraded_steps: 0 });
  });

  it("a split panel takes the less final recommendation: D (another round) when the rubric allows it", () => {
    const { state, panel } = judgeRound(panelState({ panel: [seat, seat] }), "P1", {
      judge: judged("valid", "invalid", "B"),
      judge_2: judged("invalid", "invalid", "D"),
    });
    // r01-f1: valid vs invalid, no majority: needs_evidence (not settled); the recommendation: D.
    expect(panel.winner).toBe("D");
    expect(state.frontmatter.pending).toMatchObject({ choice: "D", task: "rebuttal" });
    const judgment = state.records!.find((r) => r.file === "rounds/r01-judgment.md")!.frontmatter as {
      classifications: Array<{ verdict: string }>;
      reasons: string[];
    };
    expect(judgment.classifications[0]!.verdict).toBe("needs_evidence");
    expect(judgment.reasons[0]).toBe(
      "Judge panel (judge: B, judge_2: D): no majority; the tie rule (the less final recommendation) gives D.",
    );
  });

  it("when D is refused (every finding valid), a split panel takes B before C, E and A; a gate blocks", () => {
    const { state, panel } = judgeRound(panelState({ panel: [seat, seat] }), "P1", {
      judge: judged("valid", "valid", "C"),
      judge_2: judged("valid", "valid", "B"),
    });
    expect(panel.winner).toBe("B");
    expect(state.frontmatter.pending).toMatchObject({ choice: "B" });
  });

  it("a judge that failed while the quorum held is recorded with its error; the result is degraded", () => {
    const { state, panel } = judgeRound(panelState(three), "P1", {
      judge: judged("valid", "invalid", "B"),
      judge_2: undefined,
      judge_3: judged("valid", "invalid", "B"),
    });
    expect(panel).toMatchObject({ answered: 2, degraded: true, winner: "B" });
    expect(panel.judges.find((b) => b.role === "judge_2")).toMatchObject({
      status: "failed",
      error: { code: "SEAT_EXIT" },
    });
    expect(reviewFormat.standing(state).degraded).toEqual([
      expect.objectContaining({ cause: "seat_failed", role: "judge_2", round: 1, configured: 3, used: 2 }),
    ]);
  });

  it("the fallback judge standing in is reported as fallback_judge, as a replaced seats.judge was", () => {
    const { state } = judgeRound(panelState({ panel: [seat], fallback: seat }), "P1", {
      judge: undefined,
      judge_fallback: judged("valid", "invalid", "B"),
    });
    expect(reviewFormat.standing(state).degraded).toEqual([
      expect.objectContaining({
        cause: "fallback_judge",
        role: "judge",
        code: "SEAT_EXIT",
        message: "the judge (replay) failed in round 1; the fallback judge (replay) answered instead",
      }),
    ]);
  });

  it("refuses seats.judge with judges:, the old seats.fallback_judge with judges:, and swap", () => {
    const at = (judges: ReviewFrontmatter["judges"], seats: ReviewFrontmatter["seats"]) =>
      reviewFormat.next(panelState(judges, { current_phase: "awaiting_judge", seats }));
    expect(at(three, { author: seat, critic: seat, judge: seat })).toMatchObject({ reason: "judges_twice" });
    expect(at(three, { author: seat, critic: seat, fallback_judge: seat })).toMatchObject({
      reason: "fallback_twice",
      message: expect.stringContaining("judges.fallback"),
    });
    expect(at({ ...three, swap: true }, { author: seat, critic: seat })).toMatchObject({
      reason: "swap_not_applicable",
    });
  });

  it("refuses a panel judge that is the critic's own adapter and model, unless allowed", () => {
    const at = (judges: ReviewFrontmatter["judges"], critic: { adapter: "codex"; model?: string }) =>
      reviewFormat.next(
        panelState(judges, { current_phase: "awaiting_judge", seats: { author: seat, critic } }),
      );
    const panel = [{ adapter: "gemini" as const }, { adapter: "codex" as const, model: "gpt-5" }];
    expect(at({ panel }, { adapter: "codex", model: "gpt-5" })).toMatchObject({
      kind: "blocked",
      reason: "self_judging",
      message: expect.stringContaining(
        "the judge `judge_2` (codex gpt-5) is the critic's own adapter, model and endpoint",
      ),
    });
    // The same CLI with another model is another judge; allowed self-judging is asked.
    expect(at({ panel }, { adapter: "codex", model: "o4" })).toMatchObject({ kind: "ask" });
    expect(at({ panel, allow_self_judging: true }, { adapter: "codex", model: "gpt-5" })).toMatchObject({
      kind: "ask",
    });
  });

  it("the gate is undecided (quorum_missed) when the run failed at a panel judge", () => {
    const state = panelState({ ...three, quorum: 3 }, { current_phase: "awaiting_judge" });
    const result = evaluateGate({
      state,
      run: {
        status: "failed",
        role: "judge_2",
        adapter: "http",
        error: { code: "SEAT_EXIT", message: "503 overloaded" },
      },
    });
    expect(result).toMatchObject({ outcome: "undecided", exit_code: 2 });
    expect(result.degraded).toEqual([
      expect.objectContaining({
        cause: "quorum_missed",
        role: "judge_2",
        configured: 3,
        error: "503 overloaded",
      }),
    ]);
    expect(result.reason).toMatch(/^undecided: the judge panel missed its quorum \(3 of 3\)/);
  });
});

describe("debate new with --judges", () => {
  it("review: writes the panel in judges: and no seats.judge", () => {
    const made = reviewFormat.newDebate({
      slug: "r",
      seats: { critic: "codex" },
      judges: ["gemini", "opencode"],
      now: "2026-01-01T00:00:00Z",
    });
    if (!made.ok) throw new Error(JSON.stringify(made.errors));
    const fm = made.value.frontmatter;
    expect(fm.judges).toEqual({ panel: [{ adapter: "gemini" }, { adapter: "opencode" }] });
    expect(fm.seats?.judge).toBeUndefined();
    expect(
      reviewFormat.newDebate({ slug: "r", seats: {}, judges: ["a", "b", "c", "d", "e", "f"], now: "x" }).ok,
    ).toBe(false);
  });

  it("review: a panel that names the critic is refused unless --allow-self-judging", () => {
    const made = (allowSelfJudging?: boolean) =>
      reviewFormat.newDebate({
        slug: "r",
        seats: { critic: "codex" },
        judges: ["gemini", "codex"],
        now: "2026-01-01T00:00:00Z",
        ...(allowSelfJudging ? { allowSelfJudging } : {}),
      });
    const refused = made();
    expect(!refused.ok && refused.errors[0]).toMatchObject({
      code: "SELF_JUDGING",
      message: expect.stringContaining("the judge codex is also the critic"),
    });
    const allowed = made(true);
    if (!allowed.ok) throw new Error(JSON.stringify(allowed.errors));
    expect(allowed.value.frontmatter.judges).toMatchObject({
      allow_self_judging: true,
    });
  });
});
