import dagre from "@dagrejs/dagre";
import { scaleLinear } from "d3-scale";
import { escapeHtml } from "./escape.js";
import type { GraphEdge, GraphNode, ReportSide, StandingChart } from "./model.js";

/** Side colours: both pass WCAG AA (4.5:1) on white and carry white text. */
export const SIDE_COLOR: Record<ReportSide, string> = { proposition: "#1b5e20", opposition: "#b71c1c" };
const DASH = ' stroke-dasharray="6 4"';
/** A series' colour and dash: its own, else its side's (the opposition's line is dashed, for readers who do not see colour). */
function seriesLook(s: StandingChart["series"][number]): { color: string; dash: string } {
  const color = s.color ?? (s.side ? SIDE_COLOR[s.side] : "#333");
  return { color, dash: (s.dash ?? s.side === "opposition") ? DASH : "" };
}
const f = (n: number) => (Math.round(n * 10) / 10).toString();

/** The standing chart as an inline SVG: one line per side, a marked point per exchange or round. */
export function renderChartSvg(chart: StandingChart, id = "standing-chart"): string {
  const W = 960;
  const H = 320;
  // The legend has its own band above the plot, so it never covers a point.
  const m = { left: 52, right: 16, top: 34, bottom: 44 };
  const all = chart.series.flatMap((s) => s.points);
  const xs = [...new Set(all.map((p) => p.x))].sort((a, b) => a - b);
  const lo = Math.min(0, ...all.map((p) => p.y));
  const hi = Math.max(0, ...all.map((p) => p.y));
  // d3's nice() widens the domain to round ends; counts get whole-number ticks only.
  const yScale = scaleLinear()
    // A count's top point keeps a whole step of headroom.
    .domain([lo, chart.yInteger ? Math.max(hi + 1, lo + 2) : hi === lo ? lo + 1 : hi])
    .range([H - m.bottom, m.top])
    .nice(5);
  const ticks = yScale.ticks(5).filter((t) => !chart.yInteger || Number.isInteger(t));
  // d3's tickFormat writes a typographic minus; a plain one keeps the label a number for every reader.
  const format = (v: number) => String(Number(v.toFixed(6)));
  const x = (v: number) =>
    m.left +
    (xs.length <= 1
      ? (W - m.left - m.right) / 2
      : (xs.indexOf(v) / (xs.length - 1)) * (W - m.left - m.right));
  const y = (v: number) => yScale(v);
  const parts: string[] = [
    `<svg id="${id}" class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">${escapeHtml(chart.title)}</title>`,
    `<desc id="${id}-desc">${escapeHtml(chart.description)}</desc>`,
  ];
  for (const v of ticks) {
    parts.push(
      `<line x1="${m.left}" x2="${W - m.right}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#d0d0d0"/>`,
      `<text class="tick-y" x="${m.left - 6}" y="${f(y(v) + 4)}" text-anchor="end" font-size="11" fill="#333">${format(v)}</text>`,
    );
  }
  parts.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${f(y(0))}" y2="${f(y(0))}" stroke="#555"/>`);
  for (const v of xs)
    parts.push(
      `<text x="${f(x(v))}" y="${H - m.bottom + 16}" text-anchor="middle" font-size="11" fill="#333">${v}</text>`,
    );
  parts.push(
    `<text x="${(m.left + W - m.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="12" fill="#333">${escapeHtml(chart.xLabel)}</text>`,
  );
  chart.series.forEach((s, i) => {
    const { color, dash } = seriesLook(s);
    // Each later series draws smaller dots ringed in white: a point under another stays visible around it.
    const r = Math.max(2.5, 6 - i * 1.5);
    const d = s.points.map((p, i) => `${i === 0 ? "M" : "L"}${f(x(p.x))},${f(y(p.y))}`).join(" ");
    parts.push(
      `<g class="series" data-name="${escapeHtml(s.name)}"${s.side ? ` data-side="${s.side}"` : ""}>`,
    );
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2.5"${dash}/>`);
    for (const p of s.points)
      parts.push(
        `<circle class="point" cx="${f(x(p.x))}" cy="${f(y(p.y))}" r="${r}" fill="${color}"${i > 0 ? ' stroke="#fff" stroke-width="1.5"' : ""}><title>${escapeHtml(`${s.name}, ${p.label}: ${p.y}`)}</title></circle>`,
      );
    parts.push("</g>");
  });
  const legendY = 4;
  chart.series.forEach((s, i) => {
    const lx = m.left + i * 130;
    const { color, dash } = seriesLook(s);
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${legendY + 8}" y2="${legendY + 8}" stroke="${color}" stroke-width="2.5"${dash}/>`,
      `<text x="${lx + 28}" y="${legendY + 12}" font-size="12" fill="#222">${escapeHtml(s.name)}</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n");
}

/** A laid-out graph: node centres and edge polylines, computed by dagre. */
export interface GraphLayout {
  width: number;
  height: number;
  nodes: Array<GraphNode & { x: number; y: number; width: number; height: number }>;
  edges: Array<GraphEdge & { points: Array<{ x: number; y: number }> }>;
}

const NODE_W = 104;
const NODE_H = 44;

/** Lays the argument graph out with dagre: targets above, the arguments acting on them below. */
export function layoutGraph(graph: { nodes: GraphNode[]; edges: GraphEdge[] }): GraphLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  // network-simplex ranks best but grows fast; past a few hundred arguments longest-path keeps a report under a second.
  g.setGraph({
    rankdir: "TB",
    nodesep: 18,
    ranksep: 46,
    marginx: 8,
    marginy: 8,
    ranker: graph.nodes.length > 300 ? "longest-path" : "network-simplex",
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_W, height: NODE_H });
  // Laid out target -> actor so earlier arguments rank above the ones answering them.
  graph.edges.forEach((e, i) => {
    g.setEdge(e.to, e.from, {}, `e${i}`);
  });
  dagre.layout(g);
  const info = g.graph();
  return {
    width: Math.ceil(info.width ?? NODE_W),
    height: Math.ceil(info.height ?? NODE_H),
    nodes: graph.nodes.map((n) => {
      const p = g.node(n.id);
      return { ...n, x: p.x, y: p.y, width: NODE_W, height: NODE_H };
    }),
    edges: graph.edges.map((e, i) => ({
      ...e,
      points: [
        ...((g.edge({ v: e.to, w: e.from, name: `e${i}` }) as { points?: Array<{ x: number; y: number }> })
          ?.points ?? []),
      ].reverse(),
    })),
  };
}

const EDGE_COLOR = { attack: "#a34700", defense: "#0d47a1", repeat: "#555555" } as const;
const EDGE_DASH = {
  attack: "",
  defense: ' stroke-dasharray="5 3"',
  repeat: ' stroke-dasharray="2 3"',
} as const;
const EDGE_VERB = { attack: "attacks", defense: "defends", repeat: "repeats" } as const;

/** One edge in words: `prop_001 attacks opp_000`. */
export function edgeText(e: GraphEdge): string {
  return `${e.from} ${EDGE_VERB[e.kind]} ${e.to}`;
}

/** The argument graph as an inline SVG: one node per argument (score inside), arrows from actor to target. */
export function renderGraphSvg(layout: GraphLayout, description: string, id = "argument-graph"): string {
  const parts: string[] = [
    `<svg id="${id}" class="graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">Argument graph</title>`,
    `<desc id="${id}-desc">${escapeHtml(description)}</desc>`,
    "<defs>",
    ...(["attack", "defense", "repeat"] as const).map(
      (k) =>
        `<marker id="${id}-arrow-${k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${EDGE_COLOR[k]}"/></marker>`,
    ),
    "</defs>",
  ];
  for (const e of layout.edges) {
    if (e.points.length === 0) continue;
    const d = e.points.map((p, i) => `${i === 0 ? "M" : "L"}${f(p.x)},${f(p.y)}`).join(" ");
    parts.push(
      `<path class="edge" data-kind="${e.kind}" d="${d}" fill="none" stroke="${EDGE_COLOR[e.kind]}" stroke-width="1.8"${EDGE_DASH[e.kind]} marker-end="url(#${id}-arrow-${e.kind})"><title>${escapeHtml(`${edgeText(e)} (${e.label})`)}</title></path>`,
    );
  }
  for (const n of layout.nodes) {
    const x = n.x - n.width / 2;
    const y = n.y - n.height / 2;
    const score = n.score === undefined ? "" : n.score.toFixed(2);
    parts.push(
      `<g class="node" data-id="${escapeHtml(n.id)}" data-side="${n.side}"><title>${escapeHtml(`${n.id}: ${n.title}${score ? ` (score ${score})` : ""}`)}</title>`,
      `<rect x="${f(x)}" y="${f(y)}" width="${n.width}" height="${n.height}" rx="6" fill="${n.color ?? SIDE_COLOR[n.side]}"/>`,
      `<text x="${f(n.x)}" y="${f(score ? n.y - 3 : n.y + 4)}" text-anchor="middle" font-size="12" font-weight="600" fill="#fff">${escapeHtml(n.id)}</text>`,
      score
        ? `<text x="${f(n.x)}" y="${f(n.y + 13)}" text-anchor="middle" font-size="11" fill="#fff">${score}</text>`
        : "",
      "</g>",
    );
  }
  parts.push("</svg>");
  return parts.filter(Boolean).join("\n");
}
