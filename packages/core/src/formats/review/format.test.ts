import type { ReviewFrontmatter } from "@debatekit/schema";
import { validateReviewDecision } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import type { RecordKind } from "../format.js";
import { formatOf } from "../registry.js";
import { reviewFormat } from "./format.js";
import type { ReviewState } from "./state.js";

const diff = [
  "# Commit abc",
  "",
  "```diff",
  "diff --git a/src/sum.ts b/src/sum.ts",
  "--- a/src/sum.ts",
  "+++ b/src/sum.ts",
  "@@ -1,4 +1,4 @@",
  " export function sum(xs: number[]): number {",
  "   let total = 0;",
  "-  for (let i = 0; i < xs.length; i++) total += xs[i];",
  "+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];",
  "   return total;",
  "```",
  "",
].join("\n");

function reviewState(overrides: Partial<ReviewFrontmatter> = {}, artifact = diff): ReviewState {
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
    seats: { author: { adapter: "replay" }, critic: { adapter: "replay" }, judge: { adapter: "replay" } },
    ...overrides,
  };
  return {
    frontmatter: fm,
    body: "# Motion\n\nReview of commit abc\n",
    motion: { text: "Review of commit abc" },
    arguments: [],
    scores: {},
    records: [{ file: "artifact/v1.md", frontmatter: { kind: "original", version: 1 }, body: artifact }],
  };
}

/** One step: the seat the format asks answers `text`; the step must apply. */
function step(state: ReviewState, text: string, spentMs = 1000): ReviewState {
  const next = reviewFormat.next(state);
  if (next.kind !== "ask") throw new Error(`expected an ask, found ${JSON.stringify(next)}`);
  const role = next.asks[0]!.role;
  expect(reviewFormat.prompt(state, role)).toContain("artifact/v");
  const parsed = reviewFormat.parseAnswer(state, role, text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const applied = reviewFormat.apply(state, { [role]: parsed.value }, "2026-01-01T00:00:00Z", { spentMs });
  if (!applied.ok) throw new Error(JSON.stringify(applied.errors));
  expect(reviewFormat.checkCommitted(applied.value)).toEqual([]);
  return applied.value;
}

const bug = JSON.stringify({
  findings: [
    {
      severity: "P1",
      title: "Off-by-one drops the last element",
      detail: "The bound skips the last item.",
      evidence: { file: "src/sum.ts", line: 3, quote: "i < xs.length - 1" },
      suggestion: "Use i < xs.length.",
    },
  ],
  recommendation: "B",
  agree: false,
});
const judgeB = JSON.stringify({
  classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 stops one short." }],
  recommendation: "B",
  reasons: ["A verified P1."],
});

/** The ```json example a prompt shows, which the seat is told to follow. */
function exampleOf(prompt: string): string {
  const found = /```json\n([\s\S]*?)\n```/.exec(prompt);
  if (!found) throw new Error(`no \`\`\`json example in the prompt:\n${prompt}`);
  return found[1]!;
}

describe("the review prompts' example answers", () => {
  it("the critic's example is an answer the format's parser accepts", () => {
    const s = reviewState();
    const parsed = reviewFormat.parseAnswer(s, "critic", exampleOf(reviewFormat.prompt(s, "critic")));
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
  });

  it("the judge's example is an answer the format's parser accepts; `reasons` is asked for as a list", () => {
    const s = step(reviewState(), bug);
    const prompt = reviewFormat.prompt(s, "judge");
    expect(prompt).not.toMatch(/`reasons`: why, in one to ten sentences\./);
    const parsed = reviewFormat.parseAnswer(s, "judge", exampleOf(prompt));
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
  });
});

describe("the review format", () => {
  it("is registered by name", () => {
    expect(formatOf({ format: "review" })).toEqual({ ok: true, value: reviewFormat });
  });

  it("auto: critic, judge B, the author's accepted version, then summary.md and decision.json", () => {
    let s = reviewState();
    s = step(s, bug);
    expect(s.frontmatter.current_phase).toBe("awaiting_judge");
    expect(reviewFormat.prompt(s, "judge")).toContain(
      "r01-f1 [P1] Off-by-one drops the last element (evidence verified",
    );
    s = step(s, judgeB);
    expect(s.frontmatter).toMatchObject({
      current_phase: "awaiting_author",
      pending: { choice: "B", task: "accepted" },
    });
    expect(reviewFormat.derivedFiles!(s)).toEqual([]);
    s = step(s, "```ts\nfor (let i = 0; i < xs.length; i++) total += xs[i];\n```");
    const fm = s.frontmatter;
    expect(fm).toMatchObject({
      current_phase: "complete",
      stop_reason: "decision",
      final_decision: "B",
      artifact_version: 2,
      spent_ms: 3000,
    });
    expect(s.records!.map((r) => r.file)).toEqual([
      "artifact/v1.md",
      "artifact/v2.md",
      "rounds/r01-critique.md",
      "rounds/r01-judgment.md",
    ]);
    const files = Object.fromEntries(reviewFormat.derivedFiles!(s).map((f) => [f.file, f.content]));
    const decision = JSON.parse(files["decision.json"]!);
    expect(validateReviewDecision(decision).ok).toBe(true);
    expect(decision).toMatchObject({
      decision: "B",
      final_artifact: "artifact/v2.md",
      findings: { P1: 1, verified: 1 },
    });
    expect(files["summary.md"]).toContain("B — Accept the critique (auto)");
    expect(reviewFormat.next(s)).toMatchObject({ kind: "done" });
    expect(reviewFormat.standing(s)).toMatchObject({
      complete: true,
      headline: "decision B: accept the critique (decision)",
      result: "B: accept the critique",
    });
  });

  it("manual: waits for `decision:` (blocked, waiting), then advances without asking anyone", () => {
    let s = step(step(reviewState({ mode: "manual" }), bug), judgeB);
    expect(reviewFormat.next(s)).toMatchObject({ kind: "blocked", reason: "decision", waiting: true });
    s = { ...s, frontmatter: { ...s.frontmatter, decision: "A" } as never };
    expect(reviewFormat.next(s)).toMatchObject({ kind: "advance" });
    const done = reviewFormat.advance!(s, "2026-01-01T00:00:00Z");
    expect(done.ok && done.value.frontmatter).toMatchObject({
      current_phase: "complete",
      final_decision: "A",
      decided_by: "manual",
      history: [{ round: 1, recommendation: "B", applied: "A" }],
    });
    expect(done.ok && "decision" in (done.value.frontmatter as object)).toBe(false);
  });

  it("manual: a decision in inbox/decision-rNN.md counts for its round only, and a bad one names the field", () => {
    let s = step(step(reviewState({ mode: "manual" }), bug), judgeB);
    const inbox = (round: string, decision: string) => ({
      file: `inbox/decision-r${round}.md`,
      frontmatter: { decision },
      body: "",
    });
    const later = { ...s, records: [...s.records!, inbox("02", "A")] };
    expect(reviewFormat.next(later)).toMatchObject({ kind: "blocked", waiting: true });
    s = { ...s, records: [...s.records!, inbox("01", "C")] };
    expect(reviewFormat.next(s)).toMatchObject({ kind: "advance", message: "applying decision C" });
    const applied = reviewFormat.advance!(s, "2026-01-01T00:00:00Z");
    expect(applied.ok && applied.value.frontmatter).toMatchObject({
      current_phase: "awaiting_author",
      pending: { choice: "C", task: "compromise", by: "manual" },
    });
    const fm = s.frontmatter as never;
    expect(reviewFormat.isRecordCommitted(fm, "inbox/decision-r01.md")).toBe(true);
    expect(reviewFormat.isRecordCommitted(fm, "inbox/decision-r02.md")).toBe(false);
    const kind = reviewFormat.records.find((k) => k.dir === "inbox")! as RecordKind;
    expect(kind.validate({ decision: "b" })).toEqual({ ok: true, value: { decision: "B" } });
    const bad = kind.validate({ decision: "maybe" });
    expect(!bad.ok && bad.errors[0]!.path).toBe("decision");
  });

  it("the budget bounds each call's timeout and, once spent, stops the loop before any call", () => {
    const s = reviewState({ budget_minutes: 1, spent_ms: 45_000 });
    expect(reviewFormat.next(s)).toMatchObject({ kind: "ask", timeoutMs: 15_000 });
    const spent = step(s, bug, 20_000);
    expect(reviewFormat.next(spent)).toMatchObject({ kind: "advance", reason: "budget" });
    const stopped = reviewFormat.advance!(spent, "2026-01-01T00:00:00Z");
    expect(stopped.ok && stopped.value.frontmatter).toMatchObject({
      current_phase: "complete",
      stop_reason: "budget",
    });
  });

  it("a proposal loop with rebuttals: the critic sees the rebuttal, a reworded repeat in [P1] form converges", () => {
    const proposal = "# Proposal: sessions in Redis\n\n## Approach\nOne Redis node, 24h TTL.\n";
    let s = reviewState({ target: "proposal", max_rounds: 5 }, proposal);
    s = step(
      s,
      "## P1 - Must Reconsider\n- **One Redis node loses every session on restart**: no replica. `One Redis node`\n",
    );
    const judgeD = (id: string) =>
      JSON.stringify({
        classifications: [{ finding_id: id, verdict: "invalid", reasoning: "Sessions are re-creatable." }],
        recommendation: "D",
        reasons: ["Let the author answer."],
      });
    s = step(s, judgeD("r01-f1"));
    s = step(s, "r01-f1: a restart logs users out, which we accept.");
    expect(s.frontmatter).toMatchObject({ current_exchange: 2, current_phase: "awaiting_critic" });
    expect(reviewFormat.prompt(s, "critic")).toContain("a restart logs users out, which we accept");
    expect(reviewFormat.prompt(s, "critic")).toContain("judge: invalid");
    s = step(s, "- [P1] Every session is lost when the single Redis node restarts\n  Still no replica.\n");
    s = step(s, judgeD("r02-f1"));
    s = step(s, "Same answer.");
    s = step(
      s,
      JSON.stringify({
        findings: [{ severity: "P1", title: "Restart of the one Redis node drops all sessions", detail: "" }],
        agree: false,
      }),
    );
    s = step(s, judgeD("r03-f1"));
    expect(s.frontmatter).toMatchObject({ current_phase: "complete", stop_reason: "converged" });
  });

  it("keeps no secret of a critique, a judgment or the author's text", () => {
    const token = `ghp_${"a1".repeat(18)}`;
    let s = step(
      reviewState(),
      JSON.stringify({
        findings: [{ ...JSON.parse(bug).findings[0], detail: `leaks ${token}` }],
        agree: false,
      }),
    );
    s = step(s, judgeB.replace("A verified P1.", `A verified P1 (${token}).`));
    s = step(s, `fixed; token was ${token}`);
    const all = JSON.stringify(s.records);
    expect(all).not.toContain(token);
    expect(all).toContain("leaks ");
  });

  it("refuses an answer at the wrong phase and a step applied twice", () => {
    const s = reviewState();
    const wrong = reviewFormat.parseAnswer(s, "judge", judgeB);
    expect(!wrong.ok && wrong.errors[0]!.code).toBe("DEBATE_PHASE_MISMATCH");
    const once = step(s, bug);
    const parsed = reviewFormat.parseAnswer(s, "critic", bug);
    const twice = reviewFormat.apply(
      once,
      { critic: parsed.ok ? parsed.value : undefined },
      "2026-01-01T00:00:00Z",
    );
    expect(!twice.ok && twice.errors[0]!.code).toBe("DEBATE_PHASE_MISMATCH");
  });

  it("marks only what debate.md's marker covers as committed", () => {
    const fm = reviewState({
      current_exchange: 2,
      current_phase: "awaiting_judge",
      artifact_version: 2,
    }).frontmatter;
    expect(reviewFormat.isRecordCommitted(fm, "rounds/r01-judgment.md")).toBe(true);
    expect(reviewFormat.isRecordCommitted(fm, "rounds/r02-critique.md")).toBe(true);
    expect(reviewFormat.isRecordCommitted(fm, "rounds/r02-judgment.md")).toBe(false);
    expect(reviewFormat.isRecordCommitted(fm, "artifact/v3.md")).toBe(false);
  });

  it("checkCommitted catches a hand-edited judgment that drops a classification", () => {
    const s = step(step(reviewState(), bug), judgeB);
    const edited = {
      ...s,
      records: s.records!.map((r) =>
        r.file === "rounds/r01-judgment.md"
          ? { ...r, frontmatter: { ...r.frontmatter, classifications: [] } }
          : r,
      ),
    };
    expect(reviewFormat.checkCommitted(edited).map((e) => e.path)).toContain(
      "rounds/r01-judgment.md:classifications",
    );
  });
});
