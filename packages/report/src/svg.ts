import { scaleLinear } from "d3-scale";
import { escapeHtml } from "./escape.js";
import type { ChartPoint, ReportSide, StandingChart } from "./model.js";

/** Side colours: both pass WCAG AA (4.5:1) on white and carry white text. */
export const SIDE_COLOR: Record<ReportSide, string> = { proposition: "#1b5e20", opposition: "#b71c1c" };
const DASH = ' stroke-dasharray="6 4"';
/** A series' colour and dash: its own, else its side's (the opposition's line is dashed, for readers who do not see colour). */
function seriesLook(s: StandingChart["series"][number]): { color: string; dash: string } {
  const color = s.color ?? (s.side ? SIDE_COLOR[s.side] : "#333");
  return { color, dash: (s.dash ?? s.side === "opposition") ? DASH : "" };
}
/** A coordinate to one decimal, as SVG text. */
export const f = (n: number) => (Math.round(n * 10) / 10).toString();

/** Round ticks for an axis over [lo, hi] (d3-scale's nice() and ticks()): the domain widened to round ends, and the ticks in it. */
export function axisTicks(lo: number, hi: number, count = 5): { domain: [number, number]; ticks: number[] } {
  const scale = scaleLinear()
    .domain([lo, hi === lo ? lo + 1 : hi])
    .nice(count);
  const [a, b] = scale.domain() as [number, number];
  return { domain: [a, b], ticks: scale.ticks(count) };
}

/** A tick's label: d3's tickFormat writes a typographic minus; a plain one keeps the label a number for every reader. */
export function tickLabel(v: number): string {
  return String(Number(v.toFixed(6)));
}

/** Points of several series at the same spot stand side by side, 9 px apart, so none hides another (review: P1 under P2). */
function dodge(chart: StandingChart): (series: number, p: ChartPoint) => number {
  const at = new Map<string, number[]>();
  chart.series.forEach((s, i) => {
    for (const p of s.points) {
      const key = `${p.x} ${p.y}`;
      at.set(key, [...(at.get(key) ?? []), i]);
    }
  });
  return (series, p) => {
    const same = at.get(`${p.x} ${p.y}`) ?? [series];
    return (same.indexOf(series) - (same.length - 1) / 2) * 9;
  };
}

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
  // The first and last points stand 16 px inside the plot: a point moved aside (dodge) stays off the tick labels.
  const inset = 16;
  const x = (v: number) =>
    m.left +
    inset +
    (xs.length <= 1
      ? (W - m.left - m.right) / 2 - inset
      : (xs.indexOf(v) / (xs.length - 1)) * (W - m.left - m.right - 2 * inset));
  const y = (v: number) => yScale(v);
  const parts: string[] = [
    `<svg id="${id}" class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${id}-title">${escapeHtml(chart.title)}</title>`,
    `<desc id="${id}-desc">${escapeHtml(chart.description)}</desc>`,
  ];
  for (const v of ticks) {
    parts.push(
      `<line x1="${m.left}" x2="${W - m.right}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#d0d0d0"/>`,
      `<text class="tick-y" x="${m.left - 6}" y="${f(y(v) + 4)}" text-anchor="end" font-size="11" fill="#333">${tickLabel(v)}</text>`,
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
  const dx = dodge(chart);
  chart.series.forEach((s, i) => {
    const { color, dash } = seriesLook(s);
    const px = (p: ChartPoint) => x(p.x) + dx(i, p);
    const d = s.points.map((p, k) => `${k === 0 ? "M" : "L"}${f(px(p))},${f(y(p.y))}`).join(" ");
    parts.push(
      `<g class="series" data-name="${escapeHtml(s.name)}"${s.side ? ` data-side="${s.side}"` : ""}>`,
    );
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2.5"${dash}/>`);
    // Ringed in white: where two points still touch, the edge between them shows.
    for (const p of s.points)
      parts.push(
        `<circle class="point" cx="${f(px(p))}" cy="${f(y(p.y))}" r="5" fill="${color}" stroke="#fff" stroke-width="1.5"><title>${escapeHtml(`${s.name}, ${p.label}: ${p.y}`)}</title></circle>`,
      );
    parts.push("</g>");
  });
  const legendY = 4;
  parts.push('<g class="legend">');
  chart.series.forEach((s, i) => {
    const lx = m.left + i * 130;
    const { color, dash } = seriesLook(s);
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${legendY + 8}" y2="${legendY + 8}" stroke="${color}" stroke-width="2.5"${dash}/>`,
      `<text x="${lx + 28}" y="${legendY + 12}" font-size="12" fill="#222">${escapeHtml(s.name)}</text>`,
    );
  });
  parts.push("</g>", "</svg>");
  return parts.join("\n");
}
