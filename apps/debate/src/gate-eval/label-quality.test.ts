import { describe, expect, it } from "vitest";
import type { CaseResult } from "./case-result.js";
import { boundsUnderLabels, LABEL_QUALITY } from "./label-quality.js";
import { renderEvalHtml, renderEvalMarkdown } from "./render.js";
import { summarizeEval } from "./summary.js";

describe("boundsUnderLabels", () => {
  it("recall and false-positive rate over every count of wrong bad labels the interval allows (hand-computed)", () => {
    // 10 bad (6 blocked), 10 good (1 blocked); label precision in [0.6, 0.8]: 2 to 4 bad labels wrong.
    // 2 wrong: recall 4/8..6/8, FPR 1/12..3/12; 3 wrong: 3/7..6/7, 1/13..4/13; 4 wrong: 2/6..6/6, 1/14..5/14.
    const b = boundsUnderLabels(
      { bad: 10, badBlocked: 6, good: 10, goodBlocked: 1 },
      { k: 7, n: 10, value: 0.7, low: 0.6, high: 0.8 },
    )!;
    expect(b.recall[0]).toBeCloseTo(2 / 6, 10);
    expect(b.recall[1]).toBeCloseTo(1, 10);
    expect(b.false_positive_rate[0]).toBeCloseTo(1 / 14, 10);
    expect(b.false_positive_rate[1]).toBeCloseTo(5 / 14, 10);
    expect(boundsUnderLabels({ bad: 0, badBlocked: 0, good: 3, goodBlocked: 1 }, { k: 1, n: 2 })).toBe(
      undefined,
    );
  });
});

describe("eval.md and eval.html carry the labels' quality", () => {
  const result = (id: string, label: "bad" | "good", outcome: "blocked" | "pass"): CaseResult => ({
    id,
    label,
    reason: outcome,
    thresholds: { P1: { outcome } },
    votes: [],
    calls: 1,
    cost_usd: 0,
    unknown_cost_calls: 0,
    wall_ms: 1,
    gate: { outcome, exit_code: 0, reason: outcome, findings: [], blocking: [], degraded: [] },
  });
  it("says how labels were made, their measured precision, and recall/FPR ranges under it", () => {
    const s = summarizeEval(
      [result("a", "bad", "blocked"), result("b", "bad", "pass"), result("c", "good", "pass")],
      ["P1"],
      true,
    );
    expect(s.labels.precision).toMatchObject(LABEL_QUALITY.labels);
    expect(s.thresholds[0]!.under_labels).toBeDefined();
    const md = renderEvalMarkdown(s);
    expect(md).toContain("## Labels");
    expect(md).toContain("How the labels were made (by `gate eval build`");
    expect(md).toContain(
      `bad labels right ${((LABEL_QUALITY.labels.k / LABEL_QUALITY.labels.n) * 100).toFixed(1)}% [`,
    );
    expect(md).toContain("the labels are no ground truth");
    expect(md).toMatch(/\| recall if bad labels are as right as measured \| \d+\.\d% to \d+\.\d% \|/);
    expect(md).toMatch(/\| false-positive rate likewise \| \d+\.\d% to \d+\.\d% \|/);
    const html = renderEvalHtml(s);
    expect(html).toContain("<h2>Labels</h2>");
    expect(html).toContain("<td>recall if bad labels are as right as measured</td>");
  });
});
