import { describe, expect, it } from "vitest";
import type { EvidenceSources } from "./evidence.js";
import {
  acceptCritique,
  acceptJudgment,
  buildDecision,
  critiqueContext,
  endRound,
  type ReviewRound,
  renderReviewSummary,
} from "./round.js";

const codeChange = `diff --git a/src/sum.ts b/src/sum.ts
--- a/src/sum.ts
+++ b/src/sum.ts
@@ -1,4 +1,4 @@
 export function sum(xs: number[]): number {
   let total = 0;
-  for (let i = 0; i < xs.length; i++) total += xs[i];
+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];
   return total;
`;
const codeSources: EvidenceSources = { artifact: codeChange };

const proposal = `# Proposal: cache sessions in Redis

## Approach
Move sessions from Postgres to a single Redis node with a 24h TTL.

## Tradeoffs
Faster reads; sessions are lost if the node restarts.
`;
const proposalSources: EvidenceSources = { artifact: proposal };

function judged(
  round: Omit<ReviewRound, "judgment" | "classified">,
  judgment: object,
  sources: EvidenceSources,
): ReviewRound {
  const r = acceptJudgment(JSON.stringify(judgment), round, sources);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { ...round, ...r.value };
}

function critique(text: string, round: number, earlier: ReviewRound[], sources: EvidenceSources) {
  const r = acceptCritique(text, round, earlier, sources);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

const guards = { mode: "auto" as const, maxRounds: 3, budgetMinutes: 20, spentMs: 0 };

describe("a review loop, offline: a code change with a real bug", () => {
  const c1 = critique(
    JSON.stringify({
      findings: [
        {
          severity: "P1",
          title: "Off-by-one drops the last element",
          detail: "The loop bound skips xs[xs.length - 1].",
          evidence: { file: "src/sum.ts", line: 3, quote: "i < xs.length - 1" },
          suggestion: "Use i < xs.length.",
        },
        {
          severity: "P1",
          title: "Overflow on large arrays",
          detail: "Made up.",
          evidence: { file: "src/sum.ts", line: 90 },
        },
      ],
      recommendation: "B",
      agree: false,
    }),
    1,
    [],
    codeSources,
  );

  it("verifies the real bug and demotes the unverifiable P1", () => {
    expect(c1.verified).toBe(1);
    expect(c1.critique.findings.map((f) => [f.id, f.severity, f.evidence_status])).toEqual([
      ["r01-f1", "P1", "verified"],
      ["r01-f2", "P2", "needs_evidence"],
    ]);
  });

  it("the judge's B is applied, the author materializes the accepted version, decision.json and summary.md agree", () => {
    const r1 = judged(
      c1,
      {
        classifications: [
          { finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 stops one short." },
          { finding_id: "r01-f2", verdict: "needs_evidence", reasoning: "No line 90." },
        ],
        recommendation: "B",
        reasons: ["A verified P1 must be fixed."],
      },
      codeSources,
    );
    const end = endRound({ ...guards, rounds: [r1] });
    expect(end).toEqual({
      kind: "author",
      choice: "B",
      task: "accepted",
      by: "auto",
      afterwards: "decision",
    });
    const skipped = endRound({ ...guards, rounds: [r1], skipMaterialize: true });
    expect(skipped).toEqual({ kind: "stop", reason: "decision", choice: "B", by: "auto" });
    const done: ReviewRound = { ...r1, applied: "B", author: { kind: "accepted", text: "fixed" } };
    const decision = buildDecision({
      debateId: "sum",
      rounds: [done],
      stop: "decision",
      choice: "B",
      by: "auto",
      finalVersion: 2,
    });
    expect(decision.ok && decision.value).toMatchObject({
      decision: "B",
      final_artifact: "artifact/v2.md",
      findings: { P1: 1, P2: 1, P3: 0, verified: 1 },
      unresolved: [],
      history: [{ round: 1, recommendation: "B", applied: "B" }],
    });
    const summary = renderReviewSummary(decision.ok ? decision.value : (undefined as never), [done]);
    expect(summary).toContain("B — Accept the critique (auto)");
    expect(summary).toContain("Verified by evidence: 1");
    expect(summary).toContain("- r01-f1 Off-by-one drops the last element (valid; evidence verified)");
  });

  it("a judge recommending B on nothing valid is refused", () => {
    const r = acceptJudgment(
      JSON.stringify({
        classifications: [
          { finding_id: "r01-f1", verdict: "invalid", reasoning: "x" },
          { finding_id: "r01-f2", verdict: "invalid", reasoning: "x" },
        ],
        recommendation: "B",
        reasons: ["x"],
      }),
      c1,
      codeSources,
    );
    expect(!r.ok && r.errors.map((e) => e.code)).toEqual(["JUDGE_RECOMMENDATION_RULE"]);
  });

  it("says a malformed finding id once (the shape), not again as an unknown finding, and cut short", () => {
    const r = acceptJudgment(
      JSON.stringify({
        classifications: [{ finding_id: "f".repeat(3000), verdict: "valid", reasoning: "x" }],
        recommendation: "B",
        reasons: ["x"],
      }),
      c1,
      codeSources,
    );
    const errors = r.ok ? [] : r.errors;
    expect(errors.map((e) => [e.code, e.path])).toEqual([
      ["ANSWER_SCHEMA", "classifications[0].finding_id"],
      ["JUDGE_FINDING_UNCLASSIFIED", "classifications"],
      ["JUDGE_FINDING_UNCLASSIFIED", "classifications"],
    ]);
    for (const e of errors) expect(e.message.length, e.code).toBeLessThan(600);
  });

  it("a judgment refused for its shape also says which findings it left unclassified, shape first", () => {
    const r = acceptJudgment(
      JSON.stringify({
        classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "x" }],
        recommendation: "B",
        reasons: "A verified P1 must be fixed.",
      }),
      c1,
      codeSources,
    );
    expect(!r.ok && r.errors.map((e) => [e.code, e.path])).toEqual([
      ["ANSWER_SCHEMA", "reasons"],
      ["JUDGE_FINDING_UNCLASSIFIED", "classifications"],
    ]);
  });
});

describe("a review loop, offline: a proposal over three rounds", () => {
  const r1c = critique(
    "## P1 - Must Reconsider\n- **Single Redis node loses every session on restart**: no replica. `single Redis node`\n\n## P3 - Nice to Strengthen\n- **Name the TTL owner**: who tunes 24h\n\n## Recommended Decision\nD\n",
    1,
    [],
    proposalSources,
  );
  const r1: ReviewRound = {
    ...judged(
      r1c,
      {
        classifications: [
          { finding_id: "r01-f1", verdict: "valid", reasoning: "Stated in Tradeoffs." },
          { finding_id: "r01-f2", verdict: "invalid", reasoning: "Out of scope." },
        ],
        recommendation: "D",
        reasons: ["The author should answer the restart risk."],
      },
      proposalSources,
    ),
    applied: "D",
    author: {
      kind: "rebuttal",
      text: "Sessions are re-creatable; a restart logs users out, which we accept.",
    },
  };

  it("the critic sees its previous findings with the judge's classification and the rebuttal", () => {
    const context = critiqueContext([r1]);
    expect(context).toContain(
      "r01-f1 [P1] Single Redis node loses every session on restart — judge: valid; evidence: verified",
    );
    expect(context).toContain("r01-f2 [P3] Name the TTL owner — judge: invalid");
    expect(context).toContain("a restart logs users out, which we accept");
  });

  it("past context.window, earlier rounds are compact: every finding with its verdict stays, the author's text is cut; the latest round is in full", () => {
    const long = (n: number) =>
      `Rebuttal of round ${n}: sessions are re-creatable.\n\n${"A long defence paragraph. ".repeat(40)}(end of round ${n})`;
    const rounds: ReviewRound[] = [1, 2, 3, 4, 5].map((n) => ({
      ...r1,
      round: n,
      author: { kind: "rebuttal", text: long(n) },
    }));
    for (const window of [1, 2, 3, 4, 7]) {
      for (let last = 1; last <= rounds.length; last++) {
        const context = critiqueContext(rounds.slice(0, last), window);
        // Every finding of every earlier round, with the judge's verdict.
        for (const r of rounds.slice(0, last)) {
          expect(context).toContain(`### Round ${r.round} (decision: D)`);
          expect(context).toContain(
            "r01-f1 [P1] Single Redis node loses every session on restart — judge: valid; evidence: verified",
          );
        }
        // The round the critic answers (the latest) is in full; at most `window` rounds are.
        expect(context).toContain(long(last));
        const full = rounds.slice(0, last).filter((r) => context.includes(`(end of round ${r.round})`));
        expect(full.length).toBeLessThanOrEqual(window);
        expect(full.length).toBeGreaterThanOrEqual(1);
        for (const r of rounds.slice(0, last)) {
          if (full.includes(r)) continue;
          expect(context).toContain(`Rebuttal of round ${r.round}: sessions are re-creatable.`);
        }
      }
    }
    // Append-only within a block: the next round's context starts with this one's (window 3, rounds 1-3).
    const two = critiqueContext(rounds.slice(0, 2), 3);
    expect(critiqueContext(rounds.slice(0, 3), 3).startsWith(two)).toBe(true);
    // The default window keeps four rounds in full.
    expect(critiqueContext(rounds.slice(0, 4))).toContain(long(1));
  });

  it("continues on D, then converges after two rounds with no new P1/P2 (reworded, in codex's [P1] form)", () => {
    expect(endRound({ ...guards, rounds: [r1c as ReviewRound, r1].slice(1) })).toMatchObject({
      kind: "author",
      choice: "D",
      afterwards: "continue",
    });
    const r2c = critique(
      "- [P1] Every session is lost when the one Redis node restarts\n  Still no replica.\n",
      2,
      [r1],
      proposalSources,
    );
    expect(r2c.form).toBe("bullets");
    expect(r2c.critique.findings[0]!.fingerprint).toBe(r1.critique.findings[0]!.fingerprint);
    const judge2 = {
      classifications: [{ finding_id: "r02-f1", verdict: "invalid", reasoning: "Answered by the rebuttal." }],
      recommendation: "D",
      reasons: ["Rebuttal stands."],
    };
    const r2: ReviewRound = {
      ...judged(r2c, judge2, proposalSources),
      applied: "D",
      author: { kind: "rebuttal", text: "Same." },
    };
    expect(endRound({ ...guards, rounds: [r1, r2] })).toMatchObject({
      kind: "author",
      afterwards: "continue",
    });
    const r3c = critique(
      JSON.stringify({
        findings: [
          { severity: "P1", title: "Restart of the single Redis node drops all sessions", detail: "" },
        ],
        agree: false,
      }),
      3,
      [r1, r2],
      proposalSources,
    );
    const r3 = judged(
      r3c,
      {
        classifications: [{ finding_id: "r03-f1", verdict: "invalid", reasoning: "Answered." }],
        recommendation: "D",
        reasons: ["Same."],
      },
      proposalSources,
    );
    expect(endRound({ ...guards, maxRounds: 5, rounds: [r1, r2, r3] })).toEqual({
      kind: "stop",
      reason: "converged",
      choice: "D",
      by: "auto",
    });
    expect(endRound({ ...guards, maxRounds: 3, rounds: [r1, r2, r3] })).toMatchObject({ kind: "stop" });
  });

  it("stops on max_rounds, on the budget before any call, and on structured agreement only", () => {
    expect(endRound({ ...guards, maxRounds: 1, rounds: [r1] })).toEqual({
      kind: "stop",
      reason: "max_rounds",
      choice: "D",
      by: "auto",
    });
    expect(endRound({ ...guards, spentMs: 20 * 60_000, rounds: [r1] })).toEqual({
      kind: "stop",
      reason: "budget",
      choice: "E",
    });
    const lgtm = critique(
      JSON.stringify({
        findings: [{ severity: "P3", title: "nit", detail: "", evidence: { quote: "24h TTL" } }],
        agree: true,
      }),
      2,
      [r1],
      proposalSources,
    );
    const r2 = judged(
      lgtm,
      {
        classifications: [{ finding_id: "r02-f1", verdict: "valid", reasoning: "ok" }],
        recommendation: "C",
        reasons: ["small"],
      },
      proposalSources,
    );
    expect(endRound({ ...guards, rounds: [r1, r2] })).toEqual({
      kind: "stop",
      reason: "agreed",
      choice: "A",
    });
    const flagOnP1 = critique(
      JSON.stringify({
        findings: [{ severity: "P1", title: "still broken", detail: "", evidence: { quote: "24h TTL" } }],
        agree: true,
      }),
      2,
      [r1],
      proposalSources,
    );
    const r2b = judged(
      flagOnP1,
      {
        classifications: [{ finding_id: "r02-f1", verdict: "valid", reasoning: "ok" }],
        recommendation: "C",
        reasons: ["x"],
      },
      proposalSources,
    );
    expect(endRound({ ...guards, rounds: [r1, r2b] })).toMatchObject({ kind: "author", choice: "C" });
  });

  it("manual mode waits for a person, then applies their choice", () => {
    expect(endRound({ ...guards, mode: "manual", rounds: [r1] })).toEqual({ kind: "wait" });
    expect(endRound({ ...guards, mode: "manual", manual: "A", rounds: [r1] })).toEqual({
      kind: "stop",
      reason: "decision",
      choice: "A",
      by: "manual",
    });
    expect(endRound({ ...guards, mode: "manual", manual: "C", rounds: [r1] })).toMatchObject({
      kind: "author",
      task: "compromise",
      by: "manual",
    });
  });
});
