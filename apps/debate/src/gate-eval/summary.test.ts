import { describe, expect, it } from "vitest";
import type { CaseResult } from "./case-result.js";
import { renderEvalHtml, renderEvalMarkdown } from "./render.js";
import { scriptedSeats, summarizeEval } from "./summary.js";

const http = (base_url: string) => ({ adapter: "http", base_url, model: "m" }) as const;

describe("scriptedSeats", () => {
  it("true only when every seat is replay or an http seat on a loopback address", () => {
    expect(scriptedSeats({ critic: { adapter: "replay" }, judge: http("http://127.0.0.1:4000/v1") })).toBe(
      true,
    );
    expect(
      scriptedSeats({ critic: http("http://localhost:8080"), judges: [http("http://[::1]:9/v1")] }),
    ).toBe(true);
    expect(scriptedSeats({ critic: { adapter: "replay" }, judge: { adapter: "claude" } })).toBe(false);
    expect(scriptedSeats({ critic: http("https://api.example.com/v1") })).toBe(false);
    expect(scriptedSeats({ critic: http("http://127.0.0.1.example.com/v1") })).toBe(false);
    // No seats: the gate's defaults are real CLIs.
    expect(scriptedSeats({})).toBe(false);
  });
});

describe("summarizeEval and eval.md", () => {
  const result = (
    id: string,
    label: "bad" | "good",
    outcome: "blocked" | "pass" | "undecided",
  ): CaseResult => ({
    id,
    label,
    reason: outcome,
    thresholds: {
      P1: { outcome, ...(label === "bad" && outcome === "blocked" ? { pointed: "file" as const } : {}) },
    },
    votes: [],
    calls: 3,
    cost_usd: 0.01,
    unknown_cost_calls: 0,
    wall_ms: 2000,
    gate: { outcome, exit_code: 0, reason: outcome, findings: [], blocking: [], degraded: [] },
  });

  it("counts every figure with its cases; real seats carry no offline note; no cases, no figure", () => {
    const summary = summarizeEval(
      [result("a", "bad", "blocked"), result("b", "bad", "undecided"), result("c", "good", "pass")],
      ["P1"],
      false,
    );
    expect(summary.thresholds[0]!.pointed).toEqual({ n: 1, line: 0, file: 1, elsewhere: 0 });
    expect(summary.per_change).toEqual({
      n: 3,
      calls: 3,
      cost_usd: 0.01,
      unknown_cost_calls: 0,
      wall_ms: 2000,
    });
    const md = renderEvalMarkdown(summary);
    expect(md).not.toContain("not a model");
    expect(md).toContain("3 cases: 2 bad, 1 good.");
    // 1 of 1 blocked was bad: 100% [20.7%, 100%]; of 1 good change none blocked.
    expect(md).toContain("| precision (blocked changes that were bad) | 100.0% [20.7%, 100.0%] (1/1) |");
    expect(md).toContain("| undecided rate | 33.3% [6.1%, 79.2%] (1/3) |");
    expect(md).toContain(
      "| blocks pointing at the defect's line (±3) / file / elsewhere | 0 / 1 / 0 (of 1) |",
    );
    expect(md).toContain("- Per change: 3.0 seat calls, $0.0100, 2.0 s (mean of 3 cases)");
    const empty = renderEvalMarkdown(summarizeEval([result("c", "good", "pass")], ["P1"], true));
    expect(empty).toContain("| recall (bad changes blocked) | n/a (0/0) |");
    expect(empty).toContain("they measure the pipeline, not a model");
  });
  it("eval.html escapes every cell and carries no script", () => {
    const hostile = '<script>alert(1)</script>"&';
    const summary = summarizeEval(
      [{ ...result("a", "bad", "blocked"), thresholds: { [hostile]: { outcome: "blocked" } } }],
      [hostile],
      true,
    );
    const html = renderEvalHtml(summary);
    expect(html).not.toContain("<script");
    expect(html).toContain("block_on: [&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#38;]");
    expect(html).toContain("<td>recall (bad changes blocked)</td><td>100.0% [20.7%, 100.0%] (1/1)</td>");
  });
});
