import type { Proportion } from "./metrics.js";
import type { EvalSummary, ThresholdSummary } from "./summary.js";

/** The one line offline figures carry. */
export const OFFLINE_NOTE =
  "These figures come from scripted seats (replay or a loopback model server): they measure the pipeline, not a model. Give the policy real seats (e.g. critic: { adapter: codex }, judge: { adapter: claude }) to measure a model.";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** "66.7% [20.8%, 93.9%] (2/3)", or "n/a (0 cases)": never a figure without its count. */
export function formatProportion(p: Proportion): string {
  if (p.value === undefined) return `n/a (0/${p.n})`;
  return `${pct(p.value)} [${pct(p.low!)}, ${pct(p.high!)}] (${p.k}/${p.n})`;
}

function thresholdSection(t: ThresholdSummary): string[] {
  const m = t.confusion;
  const row = (label: "bad" | "good") =>
    `| ${label} | ${m[label].blocked} | ${m[label].pass} | ${m[label].undecided} | ${m[label].blocked + m[label].pass + m[label].undecided} |`;
  return [
    `## block_on: [${t.threshold.split(",").join(", ")}]`,
    "",
    "| label \\ gate | blocked | passed | undecided | cases |",
    "| --- | ---: | ---: | ---: | ---: |",
    row("bad"),
    row("good"),
    "",
    "| figure (95% Wilson interval) | value |",
    "| --- | --- |",
    `| precision (blocked changes that were bad) | ${formatProportion(t.rates.precision)} |`,
    `| recall (bad changes blocked) | ${formatProportion(t.rates.recall)} |`,
    `| false-positive rate (good changes blocked) | ${formatProportion(t.rates.false_positive_rate)} |`,
    `| undecided rate | ${formatProportion(t.rates.undecided_rate)} |`,
    `| blocks pointing at the defect's line (±3) / file / elsewhere | ${t.pointed.n === 0 ? "n/a (0 blocked bad cases with a known defect)" : `${t.pointed.line} / ${t.pointed.file} / ${t.pointed.elsewhere} (of ${t.pointed.n})`} |`,
    "",
  ];
}

/** eval.md: the figures per severity threshold, the judges' agreement, cost and time per change. */
export function renderEvalMarkdown(s: EvalSummary): string {
  const a = s.agreement;
  const agreement = a
    ? `${a.method === "cohen" ? "Cohen's" : "Fleiss'"} kappa ${a.kappa === undefined ? "n/a" : a.kappa.toFixed(2)} (${a.judges} judges, ${a.items} judged rounds)`
    : "n/a (one judge: no panel)";
  const cost = `${s.per_change.calls.toFixed(1)} seat calls, $${s.per_change.cost_usd.toFixed(4)}${s.per_change.unknown_cost_calls > 0 ? ` + ${s.per_change.unknown_cost_calls} call(s) of unknown cost` : ""}, ${(s.per_change.wall_ms / 1000).toFixed(1)} s (mean of ${s.per_change.n} cases)`;
  return [
    "# debatekit gate evaluation",
    "",
    ...(s.offline ? [`> ${OFFLINE_NOTE}`, ""] : []),
    `${s.cases.n} cases: ${s.cases.bad} bad, ${s.cases.good} good.`,
    "",
    ...s.thresholds.flatMap(thresholdSection),
    "## Judges and cost",
    "",
    `- Judge agreement: ${agreement}`,
    `- Per change: ${cost}`,
    "",
  ].join("\n");
}
