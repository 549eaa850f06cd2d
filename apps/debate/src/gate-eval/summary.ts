import type { GatePolicy, SeatConfig } from "@debatekit/schema";
import type { CaseResult, Pointed } from "./case-result.js";
import { type Confusion, confusionOf, panelAgreement, type Rates, ratesOf } from "./metrics.js";

/** The figures of one severity threshold. */
export interface ThresholdSummary {
  threshold: string;
  confusion: Confusion;
  rates: Rates;
  /** Of the blocked bad cases whose defect the set names: where the blocking finding pointed. */
  pointed: Record<Pointed, number> & { n: number };
}

/** What `debate gate eval run --json` prints, and eval.md renders. Every figure carries its case count. */
export interface EvalSummary {
  cases: { n: number; bad: number; good: number };
  thresholds: ThresholdSummary[];
  agreement?: ReturnType<typeof panelAgreement>;
  /** Per change: seat calls, known cost (USD) and wall time, as mean over `n` cases; `unknown_cost_calls` > 0 means the real cost is higher. */
  per_change: { n: number; calls: number; cost_usd: number; unknown_cost_calls: number; wall_ms: number };
  /** True when every seat is scripted (replay, a loopback server): the figures measure the pipeline, not a model. */
  offline: boolean;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Sums the case results into the evaluation's figures. */
export function summarizeEval(
  results: readonly CaseResult[],
  thresholds: readonly string[],
  offline: boolean,
): EvalSummary {
  const agreement = panelAgreement(results.flatMap((r) => r.votes));
  return {
    cases: {
      n: results.length,
      bad: results.filter((r) => r.label === "bad").length,
      good: results.filter((r) => r.label === "good").length,
    },
    thresholds: thresholds.map((threshold) => {
      const at = results.map((r) => ({ label: r.label, ...r.thresholds[threshold]! }));
      const confusion = confusionOf(at);
      const located = at.filter((r) => r.label === "bad" && r.pointed !== undefined);
      const count = (p: Pointed) => located.filter((r) => r.pointed === p).length;
      return {
        threshold,
        confusion,
        rates: ratesOf(confusion),
        pointed: {
          n: located.length,
          line: count("line"),
          file: count("file"),
          elsewhere: count("elsewhere"),
        },
      };
    }),
    ...(agreement ? { agreement } : {}),
    per_change: {
      n: results.length,
      calls: mean(results.map((r) => r.calls)),
      cost_usd: mean(results.map((r) => r.cost_usd)),
      unknown_cost_calls: results.reduce((s, r) => s + r.unknown_cost_calls, 0),
      wall_ms: mean(results.map((r) => r.wall_ms)),
    },
    offline,
  };
}

/** Whether every seat of `policy` is scripted: replay, or an http seat on a loopback address. A policy without seats uses real CLIs. */
export function scriptedSeats(policy: GatePolicy): boolean {
  const seats = [
    policy.critic,
    policy.author,
    policy.judge,
    ...(policy.judges ?? []),
    policy.fallback_judge,
  ].filter((s): s is SeatConfig => s !== undefined);
  const loopback = (url: unknown) =>
    typeof url === "string" && /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);
  return (
    seats.length > 0 &&
    seats.every(
      (s) =>
        s.adapter === "replay" || (s.adapter === "http" && loopback((s as { base_url?: unknown }).base_url)),
    )
  );
}
