import { renderArtifactMarkdown } from "./artifact.js";
import { escapeMarkdownBlock, escapeMarkdown as md } from "./escape.js";
import { edgeText } from "./graph.js";
import { headerRows, reliabilityOf, seatRows, usageRows } from "./header.js";
import type { Report } from "./model.js";
import { renderTranscriptMarkdown, summaryLines } from "./transcript.js";

const score = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));

function table(t: { columns: string[]; rows: string[][] }): string[] {
  return [
    `| ${t.columns.map(md).join(" | ")} |`,
    `|${t.columns.map(() => "---").join("|")}|`,
    ...t.rows.map((r) => `| ${r.map(md).join(" | ")} |`),
  ];
}

/** report.md: the same sections as the HTML, as plain markdown (the chart and graph as tables). */
export function renderReportMarkdown(report: Report): string {
  const out: string[] = [];
  if (report.degraded)
    out.push(
      "> [!CAUTION]",
      "> **Degraded result**: this result rests on less than was configured:",
      ...report.degraded.causes.map((c) => `> - ${md(c)}`),
      "",
    );
  out.push(`# ${md(report.title)}`, "");
  if (report.alerts.length > 0) {
    out.push("> [!WARNING]", ...report.alerts.map((a) => `> - ${md(a)}`), "");
  }
  // What a reader came for first: who won and on what.
  for (const line of summaryLines(report)) out.push(md(line), "");
  out.push("| | |", "|---|---|", ...headerRows(report).map(([k, v]) => `| ${k} | ${md(v)} |`), "");
  out.push("## Seats", "", ...table(seatRows(report)), "");
  const b = report.body;
  if (b) {
    out.push("## Verdict", "", `**${md(b.verdict.headline)}**`, "");
    for (const d of b.verdict.details) out.push(`- **${md(d.label)}**: ${md(d.text)}`);
    out.push("");
    if (b.artifact)
      out.push(`## ${md(b.artifact.title)}`, "", ...renderArtifactMarkdown(b.artifact, b.transcript));
    if (b.transcript) out.push("## The debate, in order", "", ...renderTranscriptMarkdown(b.transcript));
    for (const t of b.tables ?? []) {
      out.push(`## ${md(t.title)}`, "");
      if (t.caption) out.push(md(t.caption), "");
      out.push(...(t.rows.length > 0 ? table(t) : ["None."]), "");
    }
    out.push(`## ${md(b.chartHeading ?? "Standing over time")}`, "", md(b.chart.description), "");
    const xs = [...new Set(b.chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, c) => a - c);
    if (b.chart.series.length > 0 && xs.length > 0)
      out.push(
        ...table({
          columns: [b.chart.xLabel, ...b.chart.series.map((s) => s.name)],
          rows: xs.map((x) => [
            String(x),
            ...b.chart.series.map((s) => String(s.points.find((p) => p.x === x)?.y ?? "-")),
          ]),
        }),
        "",
      );
    const items = b.itemName ?? "arguments";
    out.push(`## Strongest ${items}`, "");
    for (const a of b.strongest)
      out.push(`- **${md(a.id)}** (${score(a.score)}): ${md(a.title)} — ${md(a.why)}`);
    if (b.strongest.length === 0) out.push("- none");
    out.push("", `## Weakest ${items}`, "");
    for (const a of b.weakest)
      out.push(`- **${md(a.id)}** (${score(a.score)}): ${md(a.title)} — ${md(a.why)}`);
    if (b.weakest.length === 0) out.push("- none");
    out.push("", "## Turning points", "");
    for (const t of b.turningPoints) out.push(`- **${md(t.label)}**: ${md(t.detail)}`);
    if (b.turningPoints.length === 0) out.push("- none");
    out.push(
      "",
      items === "arguments" ? "## Argument graph" : `## Graph of the ${items}`,
      "",
      `${b.graph.nodes.length} nodes, ${b.graph.edges.length} edges (the HTML report draws it).`,
      "",
    );
    if (b.graph.edges.length > 0)
      out.push(
        ...table({
          columns: ["From", "Relation", "To"],
          rows: b.graph.edges.map((e) => [e.from, `${edgeText(e).split(" ")[1]} (${e.label})`, e.to]),
        }),
        "",
      );
    if (b.judges.length > 0) out.push("## Judges' reasoning", "");
    for (const j of b.judges)
      out.push(`### ${md(j.heading)}`, "", `*${md(j.judge)}*`, "", escapeMarkdownBlock(j.text), "");
  }
  const r = reliabilityOf(report);
  out.push("## Judges' reliability", "", md(r.summary), "");
  for (const [k, v] of r.rows) out.push(`- **${md(k)}**: ${md(v)}`);
  if (r.rows.length > 0) out.push("");
  out.push(
    "## Usage",
    "",
    `Tokens, cost and time per seat, from ${report.usageSource}; "-" where the CLI did not report it.`,
    "",
    ...table(usageRows(report)),
    "",
  );
  const n = report.narrative;
  if (n) {
    out.push("## Narrative analysis", "");
    if (n.ok)
      out.push(
        `*Written by the reporter seat (${md(n.seat)}); checked: every id it cites exists. The sections above are computed, this one is a model's reading of them.*`,
        "",
        escapeMarkdownBlock(n.text),
      );
    else
      out.push(
        `The reporter seat (${md(n.seat)}) gave no usable analysis: ${md(n.error)}. The report above is complete without it.`,
      );
  }
  return `${out.join("\n").trimEnd()}\n`;
}
