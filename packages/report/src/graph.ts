// The argument graph: laid out from left to right by exchange (dagre), drawn as inline SVG with
// short titles and links to the transcript; past COLLAPSE_AT nodes, one box per exchange instead.
import dagre from "@dagrejs/dagre";
import { escapeHtml } from "./escape.js";
import type { GraphEdge, GraphNode, ReportSide } from "./model.js";
import { f, SIDE_COLOR } from "./svg.js";

/** Past this many nodes the graph is drawn one box per rank (exchange, round): a page of thousands of boxes reads as noise and weighs megabytes. */
export const COLLAPSE_AT = 400;

/** A placed node; a collapsed box (one per rank) carries its count per side and the first node it stands for. */
export interface LaidNode extends GraphNode {
  x: number;
  y: number;
  width: number;
  height: number;
  counts?: Record<ReportSide, number>;
  first?: string;
}

/** A laid-out graph: node centres and the points each edge's line bends around. */
export interface GraphLayout {
  width: number;
  height: number;
  nodes: LaidNode[];
  edges: Array<GraphEdge & { points: Array<{ x: number; y: number }> }>;
  /** Drawn one box per rank: `unit` names the rank (`exchange`). */
  collapsed?: { unit: string; nodes: number; edges: number };
}

const NODE_W = 150;
const NODE_H = 58;
/** Characters of a title per line in a node (11 px text in a 150 px box). */
const LINE_CHARS = 22;

/**
 * Lays the graph out. Nodes that all carry a `rank` stand in one column per rank, earliest on the
 * left; past {@link COLLAPSE_AT} such nodes, one box per rank with the links between ranks counted.
 */
export function layoutGraph(
  graph: { nodes: GraphNode[]; edges: GraphEdge[] },
  options: { unit?: string } = {},
): GraphLayout {
  const ranked = graph.nodes.length > 0 && graph.nodes.every((n) => n.rank !== undefined);
  if (ranked && graph.nodes.length > COLLAPSE_AT) return layoutCollapsed(graph, options.unit ?? "exchange");
  return layoutWithDagre(graph, ranked);
}

/**
 * A dagre ranker that stands each node in its column (its rank's index): the layout's columns are
 * the debate's exchanges, not what dagre would infer from the edges. dagre's later steps keep a
 * layer between two ranks for edge labels, hence two ranks per column; its nesting root (the only
 * node not ours) goes before the first. dagre 3 calls a function given as `ranker` in its place.
 */
function rankByColumn(column: ReadonlyMap<string, number>) {
  return (g: InstanceType<typeof dagre.graphlib.Graph>) => {
    const step = 2 * ((g.graph() as { nodeRankFactor?: number }).nodeRankFactor ?? 1);
    for (const v of g.nodes()) (g.node(v) as { rank?: number }).rank = step * (column.get(v) ?? -1);
  };
}

/** The point where the line from a box's centre toward `to` leaves the box. */
function boxExit(n: LaidNode, to: { x: number; y: number }): { x: number; y: number } {
  const dx = to.x - n.x;
  const dy = to.y - n.y;
  const t = Math.min(
    dx === 0 ? Infinity : n.width / 2 / Math.abs(dx),
    dy === 0 ? Infinity : n.height / 2 / Math.abs(dy),
  );
  return Number.isFinite(t) ? { x: n.x + dx * t, y: n.y + dy * t } : { x: n.x, y: n.y };
}

function layoutWithDagre(graph: { nodes: GraphNode[]; edges: GraphEdge[] }, ranked: boolean): GraphLayout {
  const ranks = [...new Set(graph.nodes.map((n) => n.rank ?? 0))].sort((a, b) => a - b);
  const column = ranked ? new Map(graph.nodes.map((n) => [n.id, ranks.indexOf(n.rank!)])) : undefined;
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({
    rankdir: "LR",
    nodesep: 14,
    ranksep: 44,
    marginx: 8,
    marginy: 8,
    // Without columns, network-simplex ranks best but grows fast; past a few hundred nodes longest-path keeps a report under a second.
    ranker: column
      ? (rankByColumn(column) as unknown as string)
      : graph.nodes.length > 300
        ? "longest-path"
        : "network-simplex",
  });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_W, height: NODE_H });
  // Laid out target -> actor so what is answered stands left of the answer. An edge that points
  // forward in time (or within a column) cannot be laid out in fixed columns: it is drawn straight.
  const routed = graph.edges.map((e, i) => {
    const ok = !column || (column.get(e.from) ?? -1) > (column.get(e.to) ?? Infinity);
    if (ok) g.setEdge(e.to, e.from, {}, `e${i}`);
    return ok;
  });
  dagre.layout(g);
  const info = g.graph();
  const nodes: LaidNode[] = graph.nodes.map((n) => {
    const p = g.node(n.id);
    return { ...n, x: p.x, y: p.y, width: NODE_W, height: NODE_H };
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return {
    width: Math.ceil(info.width ?? NODE_W),
    height: Math.ceil(info.height ?? NODE_H),
    nodes,
    edges: graph.edges.map((e, i) => {
      if (routed[i]) {
        const laid = g.edge({ v: e.to, w: e.from, name: `e${i}` }) as {
          points?: Array<{ x: number; y: number }>;
        };
        return { ...e, points: [...(laid?.points ?? [])].reverse() };
      }
      const a = byId.get(e.from);
      const b = byId.get(e.to);
      return { ...e, points: a && b ? [boxExit(a, b), boxExit(b, a)] : [] };
    }),
  };
}

const GROUP_W = 92;
const GROUP_H = 44;
const GROUP_GAP = 28;
const ARC_MAX = 90;

/** One box per rank in a row, earliest on the left; links between ranks counted per kind and drawn as arcs (attacks above, the rest below). */
function layoutCollapsed(graph: { nodes: GraphNode[]; edges: GraphEdge[] }, unit: string): GraphLayout {
  const ranks = [...new Set(graph.nodes.map((n) => n.rank!))].sort((a, b) => a - b);
  const index = new Map(ranks.map((r, k) => [r, k]));
  const rankOf = new Map(graph.nodes.map((n) => [n.id, n.rank!]));
  const links = new Map<string, { from: number; to: number; kind: GraphEdge["kind"]; count: number }>();
  for (const e of graph.edges) {
    const from = rankOf.get(e.from);
    const to = rankOf.get(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from} ${to} ${e.kind}`;
    const link = links.get(key) ?? { from, to, kind: e.kind, count: 0 };
    link.count += 1;
    links.set(key, link);
  }
  // An arc rises with the distance it spans, up to ARC_MAX; the row leaves just the room its arcs take.
  const bend = (l: { from: number; to: number }) =>
    Math.min(ARC_MAX, 16 + (Math.abs(index.get(l.from)! - index.get(l.to)!) * (GROUP_W + GROUP_GAP)) / 4);
  const room = (above: boolean) =>
    Math.max(0, ...[...links.values()].filter((l) => (l.kind === "attack") === above).map(bend));
  const above = room(true);
  const y = 8 + above + GROUP_H / 2;
  const nodes: LaidNode[] = ranks.map((r, k) => ({
    id: `${unit} ${r}`,
    side: "proposition",
    title: `${unit} ${r}`,
    rank: r,
    color: "#37474f",
    counts: { proposition: 0, opposition: 0 },
    x: 8 + k * (GROUP_W + GROUP_GAP) + GROUP_W / 2,
    y,
    width: GROUP_W,
    height: GROUP_H,
  }));
  for (const n of graph.nodes) {
    const box = nodes[index.get(n.rank!)!]!;
    box.counts![n.side] += 1;
    box.first ??= n.id;
  }
  const edges: GraphLayout["edges"] = [...links.values()].map((l) => {
    const a = nodes[index.get(l.from)!]!;
    const b = nodes[index.get(l.to)!]!;
    const up = l.kind === "attack" ? -1 : 1;
    const edgeY = y + (up * GROUP_H) / 2;
    // A quadratic's control point twice as far out as the arc's top.
    const mid = { x: (a.x + b.x) / 2, y: edgeY + up * 2 * bend(l) };
    return {
      from: a.id,
      to: b.id,
      kind: l.kind,
      label: `${l.count} link${l.count === 1 ? "" : "s"}`,
      points: [{ x: a.x, y: edgeY }, mid, { x: b.x, y: edgeY }],
    };
  });
  return {
    width: 16 + ranks.length * (GROUP_W + GROUP_GAP) - GROUP_GAP,
    height: 16 + above + GROUP_H + room(false),
    nodes,
    edges,
    collapsed: { unit, nodes: graph.nodes.length, edges: graph.edges.length },
  };
}

const EDGE_COLOR = { attack: "#a34700", defense: "#0d47a1", repeat: "#555555" } as const;
const EDGE_DASH = { attack: "", defense: "5 3", repeat: "2 3" } as const;
const EDGE_VERB = { attack: "attacks", defense: "defends", repeat: "repeats" } as const;
const dashOf = (k: GraphEdge["kind"]) => (EDGE_DASH[k] ? ` stroke-dasharray="${EDGE_DASH[k]}"` : "");

/** One edge in words: `prop_001 attacks opp_000`. */
export function edgeText(e: GraphEdge): string {
  return `${e.from} ${EDGE_VERB[e.kind]} ${e.to}`;
}

/** A title in at most two lines of a node, broken at spaces where it can, ending in an ellipsis when cut. */
export function titleLines(title: string, chars = LINE_CHARS): string[] {
  const lines: string[] = [];
  let rest = title.replace(/\s+/g, " ").trim();
  while (rest && lines.length < 2) {
    const cut = rest.length <= chars ? rest.length : rest.lastIndexOf(" ", chars);
    const at = cut > 0 ? cut : chars;
    lines.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest) lines[1] = `${lines[1]!.slice(0, chars - 1).trimEnd()}…`;
  return lines;
}

function edgeSvg(e: GraphLayout["edges"][number], id: string): string {
  if (e.points.length === 0) return "";
  return `<path class="edge" data-kind="${e.kind}" d="${smoothPath(e.points)}" fill="none" stroke="${EDGE_COLOR[e.kind]}" stroke-width="1.8"${dashOf(e.kind)} marker-end="url(#${id}-arrow-${e.kind})"><title>${escapeHtml(`${edgeText(e)} (${e.label})`)}</title></path>`;
}

/** A line through `points` with its bends rounded: each inner point is a quadratic control point, the curve passing through the midpoints between them. */
function smoothPath(points: Array<{ x: number; y: number }>): string {
  const at = (p: { x: number; y: number }) => `${f(p.x)},${f(p.y)}`;
  if (points.length < 3) return points.map((p, i) => `${i === 0 ? "M" : "L"}${at(p)}`).join(" ");
  const parts = [`M${at(points[0]!)}`];
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i]!;
    const next = points[i + 1]!;
    const end = i === points.length - 2 ? next : { x: (p.x + next.x) / 2, y: (p.y + next.y) / 2 };
    parts.push(`Q${at(p)} ${at(end)}`);
  }
  return parts.join(" ");
}

function nodeSvg(n: LaidNode, href: string | undefined): string {
  const x = n.x - n.width / 2;
  const y = n.y - n.height / 2;
  const score = n.score === undefined ? "" : n.score.toFixed(2);
  const lines = n.counts
    ? [n.id, `${n.counts.proposition} + ${n.counts.opposition}`]
    : [score ? `${n.id} · ${score}` : n.id, ...titleLines(n.title)];
  const hover = n.counts
    ? `${n.id}: ${n.counts.proposition} + ${n.counts.opposition} arguments`
    : `${n.id}: ${n.title}${n.detail ? `\n${n.detail}` : ""}${score ? `\n(score ${score})` : ""}`;
  const top = n.y - ((lines.length - 1) * 14) / 2 + 4;
  const g = [
    `<g class="node" data-id="${escapeHtml(n.id)}" data-side="${n.side}"><title>${escapeHtml(hover)}</title>`,
    `<rect x="${f(x)}" y="${f(y)}" width="${n.width}" height="${n.height}" rx="6" fill="${n.color ?? SIDE_COLOR[n.side]}"/>`,
    ...lines.map(
      (l, i) =>
        `<text x="${f(n.x)}" y="${f(top + i * 14)}" text-anchor="middle" font-size="${i === 0 ? 12 : 11}"${i === 0 ? ' font-weight="600"' : ""} fill="#fff">${escapeHtml(l)}</text>`,
    ),
    "</g>",
  ].join("");
  return href ? `<a href="${escapeHtml(href)}">${g}</a>` : g;
}

/**
 * The argument graph as an inline SVG: one node per argument (id, score and a short title; the
 * full title and claim on hover), arrows from actor to target. `href` gives a node's link (its
 * argument in the transcript); a collapsed box links to the first argument it stands for.
 */
export function renderGraphSvg(
  layout: GraphLayout,
  description: string,
  options: { id?: string; href?: (nodeId: string) => string | undefined } = {},
): string {
  const id = options.id ?? "argument-graph";
  const href = options.href ?? (() => undefined);
  const parts: string[] = [
    `<svg id="${id}" class="graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="group" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">Argument graph</title>`,
    `<desc id="${id}-desc">${escapeHtml(description)}</desc>`,
    "<defs>",
    ...(["attack", "defense", "repeat"] as const).map(
      (k) =>
        `<marker id="${id}-arrow-${k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${EDGE_COLOR[k]}"/></marker>`,
    ),
    "</defs>",
    ...layout.edges.map((e) => edgeSvg(e, id)),
    ...layout.nodes.map((n) => nodeSvg(n, href(n.first ?? n.id))),
    "</svg>",
  ];
  return parts.filter(Boolean).join("\n");
}

/** The legend under the graph: a sample line for each kind of link it draws, named. */
export function renderGraphLegend(kinds: ReadonlyArray<GraphEdge["kind"]>): string {
  const shown = (["attack", "defense", "repeat"] as const).filter((k) => kinds.includes(k));
  if (shown.length === 0) return "";
  return `<ul class="graph-legend">${shown
    .map(
      (k) =>
        `<li><svg width="40" height="10" aria-hidden="true"><line x1="0" x2="40" y1="5" y2="5" stroke="${EDGE_COLOR[k]}" stroke-width="2.5"${dashOf(k)}/></svg> ${EDGE_VERB[k]}</li>`,
    )
    .join("")}</ul>`;
}
