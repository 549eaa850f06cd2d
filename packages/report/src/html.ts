import { ARTIFACT_STYLE, renderArtifactHtml } from "./artifact.js";
import { escapeHtml as h } from "./escape.js";
import { edgeText, layoutGraph, renderGraphLegend, renderGraphSvg } from "./graph.js";
import { headerRows, reliabilityOf, seatRows, usageRows } from "./header.js";
import type { FormatReport, RankedArgument, Report } from "./model.js";
import { renderChartSvg, SIDE_COLOR } from "./svg.js";
import { anchorOf, renderTranscriptHtml, summaryLines } from "./transcript.js";

/** The page style every debatekit report shares (the debate report, the tournament's leaderboard). */
export const BASE_STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #ddd; }
th { background: #f2f2f2; }
.scroll { overflow-x: auto; }
.scroll:focus { outline: 3px solid #0d47a1; }
.degraded { border: 3px solid #7a4a00; background: #fff4e0; color: #3d2500; padding: .5rem 1rem; border-radius: 6px; margin-top: 1rem; }
.degraded h2 { margin-top: .25rem; border: 0; }
.alert { border: 2px solid #8a1c1c; background: #fdecea; color: #5f1111; padding: .5rem 1rem; border-radius: 6px; }
`;

const STYLE = `${BASE_STYLE}${ARTIFACT_STYLE}
h3 { font-size: 1rem; margin-bottom: .25rem; }
td { overflow-wrap: break-word; min-width: 6rem; }
th { white-space: nowrap; }
th[scope="row"] { white-space: normal; min-width: 4rem; }
.verdict { font-size: 1.15rem; font-weight: 600; }
.prop { color: ${SIDE_COLOR.proposition}; } .opp { color: ${SIDE_COLOR.opposition}; }
svg.chart { width: 100%; height: auto; min-width: 30rem; display: block; }
svg.graph { display: block; max-width: none; }
svg.graph a:focus rect, svg.graph a:hover rect { stroke: #ffb300; stroke-width: 3; }
ul.graph-legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: .25rem 0 .5rem; }
ul.graph-legend svg { vertical-align: middle; }
blockquote { margin: .25rem 0 1rem; padding-left: .75rem; border-left: 3px solid #999; white-space: pre-wrap; }
.summary { font-size: 1.05rem; }
nav.toc ol { columns: 2 14rem; }
article.entry { border-left: 4px solid ${SIDE_COLOR.proposition}; padding: .25rem 0 .25rem .75rem; margin: 1rem 0; overflow-wrap: anywhere; }
article.entry-opp { border-left-color: ${SIDE_COLOR.opposition}; }
article.entry:target { outline: 3px solid #0d47a1; }
article.entry h4 { margin: .25rem 0; }
.meta { margin: 0; color: #444; font-size: .9rem; }
.piece p, .note p, .judgement p { margin: .25rem 0; white-space: pre-wrap; }
figure { margin: .5rem 0; }
figcaption { font-size: .9rem; color: #444; }
.judgement { background: #eef3fb; border-radius: 6px; padding: .4rem .75rem; margin: .5rem 0; }
.note { background: #f5f5f5; border-radius: 6px; padding: .4rem .75rem; margin: .5rem 0; }
ul.links { margin: .25rem 0; padding-left: 1.25rem; }
@media (prefers-color-scheme: dark) {
  :root { color-scheme: dark; }
  body { color: #e8e8e8; background: #121212; }
  th { background: #262626; } th, td { border-color: #444; } h2 { border-color: #555; }
  a { color: #8ab4f8; }
  .prop { color: #81c784; } .opp { color: #ef9a9a; }
  .meta, figcaption { color: #bdbdbd; }
  .judgement { background: #1a2533; } .note { background: #1f1f1f; }
  .alert { background: #3b1414; color: #ffdad6; } .degraded { background: #3a2a10; color: #ffe0b2; }
  /* The charts draw dark ink: they keep a light card of their own. */
  svg.chart, svg.graph { background: #fff; border-radius: 6px; }
}
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .scroll { overflow: visible; }
  h2, h3, h4 { break-after: avoid; }
  tr, figure, .judgement, .note, svg { break-inside: avoid; }
  /* Paper does not scroll: the graph shrinks to the page's width. */
  svg.graph { max-width: 100%; height: auto; }
  article.entry:target { outline: none; }
}
@media (max-width: 40rem) { main { padding: .5rem; } th, td { padding: .3rem; font-size: .9rem; } }
`;

function ranked(list: RankedArgument[]): string {
  if (list.length === 0) return "<p>None.</p>";
  return `<ol>${list
    .map(
      (a) =>
        `<li><strong class="${a.side === "proposition" ? "prop" : "opp"}">${h(a.id)}</strong>${a.score === undefined ? "" : ` (${a.score.toFixed(2)})`}: ${h(a.title)} <small>— ${h(a.why)}</small></li>`,
    )
    .join("")}</ol>`;
}

function table(t: { id: string; columns: string[]; rows: string[][] }, label = t.id): string {
  return `<div class="scroll" tabindex="0" role="region" aria-labelledby="${label}"><table id="${t.id}-table"><thead><tr>${t.columns
    .map((c) => `<th scope="col">${h(c)}</th>`)
    .join("")}</tr></thead><tbody>${t.rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${h(c)}</th>` : `<td>${h(c)}</td>`)).join("")}</tr>`,
    )
    .join("")}</tbody></table></div>`;
}

/** The graph with what it shows in words, its legend, and each node a link to its entry in the transcript. */
function graphSection(b: FormatReport): string {
  if (b.graph.nodes.length === 0) return "<p>Nothing to draw yet.</p>";
  const layout = layoutGraph(b.graph, { unit: b.chart.xLabel });
  const c = layout.collapsed;
  const ranked = b.graph.nodes.every((n) => n.rank !== undefined);
  const what = c
    ? `Too many to draw one by one (${c.nodes} arguments, ${c.edges} links), so one box per ${h(c.unit)}, earliest on the left: its count of ${h(b.sideNames.proposition)} + ${h(b.sideNames.opposition)} arguments; each arrow stands for the links between two ${h(c.unit)}s (hover for the count); each box links to the ${h(c.unit)}'s first argument.`
    : b.graphLegend
      ? h(b.graphLegend)
      : `${b.graph.nodes.length} arguments (<span class="prop">${h(b.sideNames.proposition)}</span> green, <span class="opp">${h(b.sideNames.opposition)}</span> red), ${b.graph.edges.length} links${ranked ? `, earliest ${h(b.chart.xLabel)} on the left` : ""}. Each node links to its argument in the debate above; hover for its claim.`;
  const entries = new Set((b.transcript ?? []).flatMap((s) => s.entries.map((e) => e.id)));
  const description = c
    ? `${c.nodes} nodes in ${layout.nodes.length} ${c.unit}s, ${c.edges} edges.`
    : `${b.graph.nodes.length} nodes and ${b.graph.edges.length} edges: ${b.graph.edges.map(edgeText).join("; ")}.`;
  return [
    `<p>${what}</p>`,
    renderGraphLegend(b.graph.edges.map((e) => e.kind)),
    `<div class="scroll" tabindex="0" role="region" aria-labelledby="graph">${renderGraphSvg(
      layout,
      description,
      {
        href: (id) => (entries.has(id) ? `#${anchorOf(id)}` : undefined),
      },
    )}</div>`,
  ].join("\n");
}

const TOC = "<!-- contents -->";

/** The table of contents: every section heading of the page, in order (its text is already escaped). */
function tableOfContents(parts: string[]): string {
  const items = [...parts.join("\n").matchAll(/<h2 id="([^"]+)">(.*?)<\/h2>/g)]
    .filter((m) => m[1] !== "alerts" && m[1] !== "degraded-title")
    .map((m) => `<li><a href="#${m[1]}">${m[2]}</a></li>`);
  return `<nav class="toc" aria-labelledby="toc"><h2 id="toc">Contents</h2><ol>${items.join("")}</ol></nav>`;
}

/** report.html: one self-contained page (styles and SVG inline, no script, no request). */
export function renderReportHtml(report: Report): string {
  const b = report.body;
  const parts: string[] = [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(report.title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
  ];
  if (report.degraded)
    parts.push(
      `<section class="degraded" id="degraded" aria-labelledby="degraded-title"><h2 id="degraded-title">Degraded result</h2><p>This result rests on less than was configured:</p><ul>${report.degraded.causes.map((c) => `<li>${h(c)}</li>`).join("")}</ul></section>`,
    );
  parts.push(`<h1>${h(report.title)}</h1>`);
  if (report.alerts.length > 0)
    parts.push(
      `<section class="alert" role="alert" aria-labelledby="alerts"><h2 id="alerts">Read this first</h2><ul>${report.alerts.map((a) => `<li>${h(a)}</li>`).join("")}</ul></section>`,
    );
  // What a reader came for first: who won and on what, then where everything else is.
  if (b)
    parts.push(
      `<section class="summary" aria-label="Summary">${summaryLines(report)
        .map((l) => `<p>${h(l)}</p>`)
        .join("")}</section>`,
      TOC,
    );
  parts.push(
    '<div class="scroll"><table id="header-table"><tbody>',
    ...headerRows(report).map(([k, v]) => `<tr><th scope="row">${h(k)}</th><td>${h(v)}</td></tr>`),
    "</tbody></table></div>",
    '<h2 id="seats">Seats</h2>',
    table({ id: "seats", ...seatRows(report) }),
  );
  if (b) {
    const items = b.itemName ?? "arguments";
    parts.push(
      '<h2 id="verdict">Verdict</h2>',
      `<p class="verdict">${h(b.verdict.headline)}</p>`,
      `<dl>${b.verdict.details.map((d) => `<dt>${h(d.label)}</dt><dd>${h(d.text)}</dd>`).join("")}</dl>`,
    );
    if (b.artifact)
      parts.push(
        `<h2 id="artifact">${h(b.artifact.title)}</h2>`,
        renderArtifactHtml(b.artifact, b.transcript),
      );
    if (b.transcript)
      parts.push(
        '<h2 id="transcript">The debate, in order</h2>',
        `<p>Every ${h(items === "arguments" ? "argument" : items.replace(/s$/, ""))} in full, with what it answers and the judge's word on it.</p>`,
        renderTranscriptHtml(b.transcript),
      );
    for (const t of b.tables ?? [])
      parts.push(
        `<h2 id="${t.id}">${h(t.title)}</h2>`,
        t.caption ? `<p>${h(t.caption)}</p>` : "",
        t.rows.length > 0 ? table(t) : "<p>None.</p>",
      );
    parts.push(
      `<h2 id="standing">${h(b.chartHeading ?? "Standing over time")}</h2>`,
      `<div class="scroll" tabindex="0" role="region" aria-labelledby="standing">${renderChartSvg(b.chart)}</div>`,
      `<h2 id="strongest">Strongest ${h(items)}</h2>`,
      ranked(b.strongest),
      `<h2 id="weakest">Weakest ${h(items)}</h2>`,
      ranked(b.weakest),
      '<h2 id="turning">Turning points</h2>',
      b.turningPoints.length === 0
        ? "<p>None.</p>"
        : `<ul>${b.turningPoints.map((t) => `<li><strong>${h(t.label)}</strong>: ${h(t.detail)}</li>`).join("")}</ul>`,
      `<h2 id="graph">${items === "arguments" ? "Argument graph" : `Graph of the ${h(items)}`}</h2>`,
      graphSection(b),
      b.judges.length > 0 ? '<h2 id="judges">Judges\' reasoning</h2>' : "",
      ...b.judges.map(
        (j) =>
          `<h3>${h(j.heading)}</h3><p><em>${h(j.judge)}</em></p><blockquote>${h(j.text.trim())}</blockquote>`,
      ),
    );
  }
  const r = reliabilityOf(report);
  parts.push(
    '<h2 id="reliability">Judges\' reliability</h2>',
    `<p>${h(r.summary)}</p>`,
    r.rows.length > 0
      ? `<dl>${r.rows.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join("")}</dl>`
      : "",
    '<h2 id="usage">Usage</h2>',
    `<p>Tokens, cost and time per seat, from ${h(report.usageSource)}; "-" where the CLI did not report it.</p>`,
    table({ id: "usage", ...usageRows(report) }),
  );
  const n = report.narrative;
  if (n)
    parts.push(
      '<h2 id="narrative">Narrative analysis</h2>',
      n.ok
        ? `<p><em>Written by the reporter seat (${h(n.seat)}); checked: every id it cites exists${n.cited.length > 0 ? ` (${h(n.cited.join(", "))})` : ""}. The sections above are computed, this one is a model's reading of them.</em></p>${n.text
            .trim()
            .split(/\n\s*\n/)
            .map((p) => `<p>${h(p.trim())}</p>`)
            .join("")}`
        : `<p class="alert">The reporter seat (${h(n.seat)}) gave no usable analysis: ${h(n.error)}. The report above is complete without it.</p>`,
    );
  parts.push("</main>", "</body>", "</html>");
  const at = parts.indexOf(TOC);
  if (at >= 0) parts[at] = tableOfContents(parts);
  return `${parts.filter(Boolean).join("\n")}\n`;
}
