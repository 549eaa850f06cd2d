import { escapeHtml } from "@debatekit/report/escape";
import type { Proportion } from "./metrics.js";
import type { EvalSummary, ThresholdSummary } from "./summary.js";

/** The one line offline figures carry. */
export const OFFLINE_NOTE =
  "These figures come from scripted seats (replay or a loopback model server): they measure the pipeline, not a model. Give the policy real seats (e.g. critic: { adapter: codex }, judge: { adapter: claude }) to measure a model.";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const range = (b: readonly [number, number]) => `${pct(b[0])} to ${pct(b[1])}`;

/** "66.7% [20.8%, 93.9%] (2/3)", or "n/a (0/0)": never a figure without its count. */
export function formatProportion(p: Proportion): string {
  if (p.value === undefined) return `n/a (0/${p.n})`;
  return `${pct(p.value)} [${pct(p.low!)}, ${pct(p.high!)}] (${p.k}/${p.n})`;
}

/** What every face shows of one threshold: a title, the confusion matrix rows and the figures. */
interface ThresholdView {
  title: string;
  confusion: string[][];
  figures: string[][];
}

/** What every face shows of an evaluation, as text cells (faces escape them for their medium). */
interface EvalView {
  title: string;
  note?: string;
  counts: string;
  labels: string[];
  thresholds: ThresholdView[];
  facts: string[];
}

const CONFUSION_HEAD = ["label \\ gate", "blocked", "passed", "undecided", "cases"];
const FIGURE_HEAD = ["figure (95% Wilson interval)", "value"];

function thresholdView(t: ThresholdSummary): ThresholdView {
  const m = t.confusion;
  const row = (label: "bad" | "good") => {
    const { blocked, pass, undecided } = m[label];
    return [label, blocked, pass, undecided, blocked + pass + undecided].map(String);
  };
  const pointed =
    t.pointed.n === 0
      ? "n/a (0 blocked bad cases with a known defect)"
      : `${t.pointed.line} / ${t.pointed.file} / ${t.pointed.elsewhere} (of ${t.pointed.n})`;
  return {
    title: `block_on: [${t.threshold.split(",").join(", ")}]`,
    confusion: [row("bad"), row("good")],
    figures: [
      ["precision (blocked changes that were bad)", formatProportion(t.rates.precision)],
      ["recall (bad changes blocked)", formatProportion(t.rates.recall)],
      ["false-positive rate (good changes blocked)", formatProportion(t.rates.false_positive_rate)],
      ["undecided rate", formatProportion(t.rates.undecided_rate)],
      ["blocks pointing at the defect's line (±3) / file / elsewhere", pointed],
      ...(t.under_labels
        ? [
            ["recall if bad labels are as right as measured", range(t.under_labels.recall)],
            ["false-positive rate likewise", range(t.under_labels.false_positive_rate)],
          ]
        : []),
    ],
  };
}

function evalView(s: EvalSummary): EvalView {
  const a = s.agreement;
  const agreement = a
    ? `${a.method === "cohen" ? "Cohen's" : "Fleiss'"} kappa ${a.kappa === undefined ? "n/a" : a.kappa.toFixed(2)} (${a.judges} judges, ${a.items} judged rounds)`
    : "n/a (one judge: no panel)";
  const p = s.per_change;
  const unknown = p.unknown_cost_calls > 0 ? ` + ${p.unknown_cost_calls} call(s) of unknown cost` : "";
  return {
    title: "debatekit gate evaluation",
    ...(s.offline ? { note: OFFLINE_NOTE } : {}),
    counts: `${s.cases.n} cases: ${s.cases.bad} bad, ${s.cases.good} good.`,
    labels: labelFacts(s),
    thresholds: s.thresholds.map(thresholdView),
    facts: [
      `Judge agreement: ${agreement}`,
      `Per change: ${p.calls.toFixed(1)} seat calls, $${p.cost_usd.toFixed(4)}${unknown}, ${(p.wall_ms / 1000).toFixed(1)} s (mean of ${p.n} cases)`,
    ],
  };
}

/** What the report says of its labels: how they were made, how often right, what that does to the figures. */
function labelFacts(s: EvalSummary): string[] {
  const l = s.labels;
  return [
    `How the labels were made (by \`gate eval build\`; a hand-written set has its own): ${l.method}`,
    `Measured on ${l.oracle}: bad labels right ${formatProportion(l.precision)}; commits taken for fixes that fix a bug ${formatProportion(l.fix_precision)}.`,
    'So the labels are no ground truth: a blocked "bad" case may be a good change, and recall and the false-positive rate lie in the ranges given under each threshold (a wrong bad label taken as a good change; good labels taken as right).',
  ];
}

const mdRow = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;

/** eval.md: the figures per severity threshold, the judges' agreement, cost and time per change. */
export function renderEvalMarkdown(s: EvalSummary): string {
  const v = evalView(s);
  return [
    `# ${v.title}`,
    "",
    ...(v.note ? [`> ${v.note}`, ""] : []),
    v.counts,
    "",
    "## Labels",
    "",
    ...v.labels.map((f) => `- ${f}`),
    "",
    ...v.thresholds.flatMap((t) => [
      `## ${t.title}`,
      "",
      mdRow(CONFUSION_HEAD),
      "| --- | ---: | ---: | ---: | ---: |",
      ...t.confusion.map(mdRow),
      "",
      mdRow(FIGURE_HEAD),
      "| --- | --- |",
      ...t.figures.map(mdRow),
      "",
    ]),
    "## Judges and cost",
    "",
    ...v.facts.map((f) => `- ${f}`),
    "",
  ].join("\n");
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}
table{border-collapse:collapse;margin:0 0 1.5rem;width:100%}th,td{border:1px solid #bbb;padding:.3rem .4rem;text-align:left;overflow-wrap:anywhere}
td.n{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding:.3rem 0}
.note{border-left:4px solid #8a5a00;background:#fff6e0;padding:.5rem 1rem}
@media (max-width:30rem){body{font-size:13px;padding:0 .5rem}th,td{padding:.2rem .25rem}}`;

function htmlTable(
  caption: string,
  head: readonly string[],
  rows: readonly string[][],
  numeric: boolean,
): string {
  const cell = (text: string, i: number) =>
    `<td${numeric && i > 0 ? ' class="n"' : ""}>${escapeHtml(text)}</td>`;
  return [
    `<table><caption>${escapeHtml(caption)}</caption>`,
    `<thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("")}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${r.map(cell).join("")}</tr>`).join("")}</tbody></table>`,
  ].join("\n");
}

/** eval.html: the same figures as eval.md, one self-contained page (no script, no request). */
export function renderEvalHtml(s: EvalSummary): string {
  const v = evalView(s);
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
    `<title>${escapeHtml(v.title)}</title><style>${STYLE}</style></head><body><main>`,
    `<h1>${escapeHtml(v.title)}</h1>`,
    ...(v.note ? [`<p class="note">${escapeHtml(v.note)}</p>`] : []),
    `<p>${escapeHtml(v.counts)}</p>`,
    "<h2>Labels</h2>",
    `<ul>${v.labels.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>`,
    ...v.thresholds.flatMap((t) => [
      `<section><h2>${escapeHtml(t.title)}</h2>`,
      htmlTable("Gate outcome by label", CONFUSION_HEAD, t.confusion, true),
      htmlTable("Figures", FIGURE_HEAD, t.figures, false),
      "</section>",
    ]),
    "<h2>Judges and cost</h2>",
    `<ul>${v.facts.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>`,
    "</main></body></html>",
    "",
  ].join("\n");
}
