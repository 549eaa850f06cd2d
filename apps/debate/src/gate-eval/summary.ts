import type { GatePolicy, SeatConfig } from "@debatekit/schema";
import type { CaseResult, Pointed } from "./case-result.js";
import {
  type Bounds,
  boundsUnderLabels,
  fixPrecision,
  LABEL_METHOD,
  LABEL_QUALITY,
  labelPrecision,
} from "./label-quality.js";
import {
  type Confusion,
  confusionOf,
  type Proportion,
  panelAgreement,
  type Rates,
  ratesOf,
} from "./metrics.js";

/** The figures of one severity threshold. */
export interface ThresholdSummary {
  threshold: string;
  confusion: Confusion;
  rates: Rates;
  /** Of the blocked bad cases whose defect the set names: where the blocking finding pointed. */
  pointed: Record<Pointed, number> & { n: number };
  /** Recall and false-positive rate if the bad labels are only as right as measured on the oracle. */
  under_labels?: { recall: Bounds; false_positive_rate: Bounds };
}

/** How the labels were made and how often they are right, as measured on the shipped oracle. */
export interface LabelSummary {
  method: string;
  oracle: string;
  /** Bad labels whose blamed commit wrote the defect. */
  precision: Proportion;
  /** Commits taken for bug fixes that fix a bug. */
  fix_precision: Proportion;
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
  labels: LabelSummary;
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
      const bad = confusion.bad.blocked + confusion.bad.pass + confusion.bad.undecided;
      const good = confusion.good.blocked + confusion.good.pass + confusion.good.undecided;
      const under = boundsUnderLabels(
        { bad, badBlocked: confusion.bad.blocked, good, goodBlocked: confusion.good.blocked },
        labelPrecision(),
      );
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
        ...(under ? { under_labels: under } : {}),
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
    labels: {
      method: LABEL_METHOD,
      oracle: LABEL_QUALITY.oracle,
      precision: labelPrecision(),
      fix_precision: fixPrecision(),
    },
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
