import { escapeCell } from "./escape.js";
import { costText, headerRows, seatText, tokensText } from "./header.js";
import type { Report } from "./model.js";

const score = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));

/** report.md: the same sections as the HTML, as plain markdown (the chart and graph as tables). */
export function renderReportMarkdown(report: Report): string {
  const out: string[] = [`# ${report.title}`, ""];
  if (report.alerts.length > 0) {
    out.push("> [!WARNING]", ...report.alerts.map((a) => `> - ${escapeCell(a)}`), "");
  }
  out.push("| | |", "|---|---|", ...headerRows(report).map(([k, v]) => `| ${k} | ${escapeCell(v)} |`), "");
  out.push(
    "## Seats",
    "",
    "| Seat | Adapter / model | Calls | Failed | Tokens | Cost |",
    "|---|---|---|---|---|---|",
  );
  for (const s of report.seats)
    out.push(
      `| ${s.role} | ${escapeCell(seatText(s))} | ${s.calls} | ${s.failedCalls} | ${tokensText(s)} | ${costText(s.costUsd)} |`,
    );
  out.push("");
  const b = report.body;
  if (!b) return `${out.join("\n").trimEnd()}\n`;
  out.push("## Verdict", "", `**${escapeCell(b.verdict.headline)}**`, "");
  for (const d of b.verdict.details) out.push(`- **${d.label}**: ${escapeCell(d.text)}`);
  out.push("", "## Standing over time", "", b.chart.description, "");
  const [first, second] = b.chart.series;
  if (first && second) {
    out.push(`| ${b.chart.xLabel} | ${first.name} | ${second.name} |`, "|---|---|---|");
    for (const [i, p] of first.points.entries())
      out.push(`| ${p.x} | ${p.y} | ${second.points[i]?.y ?? "-"} |`);
    out.push("");
  }
  out.push("## Strongest arguments", "");
  for (const a of b.strongest)
    out.push(`- **${a.id}** (${score(a.score)}): ${escapeCell(a.title)} — ${a.why}`);
  out.push("", "## Weakest arguments", "");
  for (const a of b.weakest) out.push(`- **${a.id}** (${score(a.score)}): ${escapeCell(a.title)} — ${a.why}`);
  out.push("", "## Turning points", "");
  for (const t of b.turningPoints) out.push(`- **${escapeCell(t.label)}**: ${escapeCell(t.detail)}`);
  if (b.turningPoints.length === 0) out.push("- none");
  out.push(
    "",
    "## Argument graph",
    "",
    `${b.graph.nodes.length} nodes, ${b.graph.edges.length} edges (the HTML report draws it).`,
    "",
    "| From | Relation | To |",
    "|---|---|---|",
  );
  for (const e of b.graph.edges) out.push(`| ${e.from} | ${e.kind} (${escapeCell(e.label)}) | ${e.to} |`);
  out.push("", "## Judges' reasoning", "");
  for (const j of b.judges)
    out.push(`### ${escapeCell(j.heading)}`, "", `*${escapeCell(j.judge)}*`, "", j.text.trim(), "");
  return `${out.join("\n").trimEnd()}\n`;
}
