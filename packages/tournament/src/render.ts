// leaderboard.md and a self-contained leaderboard.html (no script, no request) from a Leaderboard (pure).
import { axisTicks, BASE_STYLE, escapeCell as c, escapeHtml as h, tickLabel } from "@debatekit/report";
import type { Leaderboard, Tally } from "./leaderboard.js";
import type { RatedPlayer } from "./ratings.js";
import { describeSpend } from "./results.js";

const r0 = (x: number) => Math.round(x).toString();
const pct = (t: Tally) => (t.games === 0 ? "-" : `${Math.round((100 * t.score) / t.games)}% (n=${t.games})`);
const frac = (a: { agree: number; n: number }) =>
  a.n === 0 ? "-" : `${Math.round((100 * a.agree) / a.n)}% (${a.agree}/${a.n})`;

function ratingRows(list: readonly RatedPlayer[]): string[] {
  return list.map(
    (p, i) =>
      `| ${i + 1} | ${c(p.name)} | ${r0(p.rating)} | ${r0(p.low)} to ${r0(p.high)} | ${p.games} | ${p.score} |`,
  );
}

/** One line under each table saying what its rows and figures are (shared by both pages). */
const NOTE = {
  ratings:
    "One row per player, best first: its rating, the 95% interval around it, the debates it played that were decided, and its points (a win 1, a tie 1/2).",
  headToHead: (shaded: boolean) =>
    `Points of the row's player against the column's (wins + half the ties) out of the debates between them${shaded ? "; the shade repeats the share: blue, the row's player won more, orange, it lost more" : ""}.`,
  sides: (first: string, second: string) =>
    `Each player's points as a share of its decided debates as the ${first} and as the ${second} (n: how many).`,
  judges: (first: string) =>
    `Each judge: the debates it decided, and the share of them in which it gave the ${first} the win.`,
  panel: (swap: boolean) =>
    `Each judge of the panel: how often it voted with the panel's majority${swap ? ", and how often its vote named a different side when the sides were swapped" : ""} (agree/n).`,
  pairs: "Each pair of judges: how often both gave the same vote (agree/n).",
  accuracy:
    "Each judge: the share of its decided debates on a motion with a known answer where it gave the win to the side that answer supports.",
  correctness:
    'Each player rated as two entrants: "(correct)" is the player when it argued the side the motion\'s known answer supports, "(incorrect)" when it argued the other side; a player that wins as "(incorrect)" persuades judges away from the answer.',
  debates:
    "Every debate of the tournament, failed ones first: its players on each side, its judge, its status and winner; the id links to the debate's own report.",
} as const;

/** What the panel figures count, in words (shared by both pages). */
function panelIntro(p: NonNullable<Leaderboard["panel"]>): string {
  const flips = p.swap
    ? ` Every judge was also asked with the sides in the other order: ${frac(p.flips)} of the judges' paired ballots named different sides (a flipped judge votes tie).`
    : " The judges were asked in one order only (no swap): no order-flip figures.";
  return `Every debate was judged by a panel of ${p.judges.length}; ${p.steps} judged step(s) of ${p.debates} debate(s). Each figure counts the judged steps behind it (agree/n); the majority is the side with the most votes (a tie vote counts for neither; no majority, no figure).${flips}`;
}

/** leaderboard.md. */
/** How long a motion's text the debates table shows; the whole text is in tournament.md (and the page's tooltip). */
const MOTION_CHARS = 90;

/** A debate's motion as the table shows it: its id and its text, shortened at a word (`m01: This house would…`). */
function motionCell(d: Leaderboard["debates"][number]): string {
  if (!d.motionText) return d.motion;
  const text = d.motionText.replace(/\s+/g, " ").trim();
  if (text.length <= MOTION_CHARS) return `${d.motion}: ${text}`;
  const cut = text.slice(0, MOTION_CHARS - 1);
  const word = cut.lastIndexOf(" ");
  return `${d.motion}: ${(word > MOTION_CHARS / 2 ? cut.slice(0, word) : cut).trimEnd()}…`;
}

export function renderLeaderboardMarkdown(lb: Leaderboard): string {
  const lines: string[] = [`# Leaderboard: ${lb.id}`, ""];
  if (lb.failed.length > 0) {
    lines.push(`**${lb.failed.length} debate(s) failed** (not counted in the ratings):`, "");
    for (const f of lb.failed)
      lines.push(`- [${c(f.id)}](debates/${f.id}/) ${c(f.code)}: ${c(f.message).slice(0, 200)}`);
    lines.push("");
  }
  lines.push(
    `${lb.format} format; ${lb.counts.total} debates: ${lb.counts.done} done, ${lb.counts.failed} failed, ${lb.counts.remaining} not finished; ${lb.counts.decided} decided. Spend: ${describeSpend(lb)}.`,
    "",
    "## Ratings",
    "",
    `Bradley-Terry, maximum likelihood (Elo scale, mean 1000), 95% interval from ${lb.samples} bootstrap resamples of the debates (seed ${lb.seed}).`,
    "",
    NOTE.ratings,
    "",
    "| # | player | rating | 95% interval | debates | points |",
    "| --- | --- | --- | --- | --- | --- |",
    ...ratingRows(lb.ratings),
    "",
    "## Head to head",
    "",
    NOTE.headToHead(false),
    "",
    `| player \\ against | ${lb.headToHead.players.map(c).join(" | ")} |`,
    `| --- |${lb.headToHead.players.map(() => " --- |").join("")}`,
    ...lb.headToHead.players.map(
      (p, i) =>
        `| ${c(p)} | ${lb.headToHead.players.map((_, j) => (i === j ? "-" : `${lb.headToHead.score[i]![j]}/${lb.headToHead.games[i]![j]}`)).join(" | ")} |`,
    ),
    "",
    "## Side bias",
    "",
    `The ${lb.sideNames.first} won ${pct(lb.sides.first)} of the decided debates.`,
    "",
    NOTE.sides(lb.sideNames.first, lb.sideNames.second),
    "",
    `| player | as ${lb.sideNames.first} | as ${lb.sideNames.second} |`,
    "| --- | --- | --- |",
    ...lb.sides.perPlayer.map((p) => `| ${c(p.name)} | ${pct(p.first)} | ${pct(p.second)} |`),
    "",
    "## Judges",
    "",
    NOTE.judges(lb.sideNames.first),
    "",
    `| judge | debates decided | gave the ${lb.sideNames.first} the win |`,
    "| --- | --- | --- |",
    ...lb.judges.map((j) => `| ${c(j.name)} | ${j.decided} | ${pct(j.first)} |`),
    "",
  );
  if (lb.panel) {
    const p = lb.panel;
    lines.push(
      "## Judge panel",
      "",
      panelIntro(p),
      "",
      NOTE.panel(p.swap),
      "",
      `| judge | agreed with the panel's majority |${p.swap ? " flipped with the order |" : ""}`,
      `| --- | --- |${p.swap ? " --- |" : ""}`,
      ...p.judges.map((j) => `| ${c(j.name)} | ${frac(j.majority)} |${p.swap ? ` ${frac(j.flips)} |` : ""}`),
      "",
      NOTE.pairs,
      "",
      "| judges | voted the same |",
      "| --- | --- |",
      ...p.pairs.map((q) => `| ${c(q.a)} and ${c(q.b)} | ${frac(q)} |`),
      "",
    );
  }
  if (lb.correctness) {
    const o = lb.correctness.overall;
    lines.push(
      "## Correct and incorrect sides",
      "",
      `Judge accuracy (the judge sided with the known answer): ${o.decided === 0 ? "-" : `${Math.round((100 * o.correct) / o.decided)}%`} (${o.correct}/${o.decided}).`,
      "",
      NOTE.accuracy,
      "",
      "| judge | accuracy | debates |",
      "| --- | --- | --- |",
      ...lb.correctness.judgeAccuracy.map(
        (j) =>
          `| ${c(j.judge)} | ${j.decided ? `${Math.round((100 * j.correct) / j.decided)}%` : "-"} | ${j.decided} |`,
      ),
      "",
      NOTE.correctness,
      "",
      "| # | player (side) | rating | 95% interval | debates | points |",
      "| --- | --- | --- | --- | --- | --- |",
      ...ratingRows(lb.correctness.ratings.filter((p) => p.games > 0)),
      "",
    );
  }
  lines.push(
    "## Debates",
    "",
    NOTE.debates,
    "",
    `| debate | motion | ${lb.sideNames.first} | ${lb.sideNames.second} | judge | status | winner |`,
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...[...lb.debates]
      .sort((a, b) => Number(b.status === "failed") - Number(a.status === "failed"))
      .map(
        (d) =>
          `| [${c(d.id)}](debates/${d.id}/report.md) | ${c(motionCell(d))} | ${c(d.first)} | ${c(d.second)} | ${c(d.judge)} | ${d.status}${d.degraded ? ` (${c(d.degraded)})` : ""} | ${c(d.winner ?? "-")} |`,
      ),
    "",
  );
  return `${lines.join("\n").trimEnd()}\n`;
}

const STYLE = `${BASE_STYLE}
th { white-space: nowrap; }
svg.chart { width: 100%; height: auto; max-width: 720px; min-width: 30rem; display: block; }
a { color: #0b4ea2; }
p.note { margin: .25rem 0; color: #333; }
table.heat td { text-align: center; color: #1a1a1a; font-variant-numeric: tabular-nums; }
`;

/** The rating chart: one row per player, the interval as a bar, the rating as a dot, on an axis with round ticks. */
export function renderRatingChart(list: readonly RatedPlayer[]): string {
  const rowH = 28;
  // Room for the longest name at 13 px (about 7.5 px a character), no more than 200 px.
  const left = Math.min(200, 16 + Math.ceil(7.5 * Math.max(0, ...list.map((p) => p.name.length))));
  const width = 720;
  const plot = width - left - 60;
  const height = list.length * rowH + 44;
  const { domain, ticks } = axisTicks(
    Math.min(...list.map((p) => p.low), ...list.map((p) => p.rating)),
    Math.max(...list.map((p) => p.high), ...list.map((p) => p.rating)),
    6,
  );
  const [lo, hi] = domain;
  const x = (v: number) => left + ((v - lo) / (hi - lo)) * plot;
  const bottom = 20 + list.length * rowH;
  // The grid goes first, so bars and dots draw over it.
  const axis = ticks
    .map(
      (t) =>
        `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="14" y2="${bottom}" stroke="#d0d0d0"/><text class="tick-x" x="${x(t).toFixed(1)}" y="${bottom + 16}" font-size="11" fill="#333" text-anchor="middle">${tickLabel(t)}</text>`,
    )
    .join("");
  const rows = list
    .map((p, i) => {
      const y = 20 + i * rowH + rowH / 2;
      return `<g class="player"><text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="13">${h(p.name)}</text><line x1="${x(p.low).toFixed(1)}" x2="${x(p.high).toFixed(1)}" y1="${y}" y2="${y}" stroke="#5b7fb8" stroke-width="6" stroke-linecap="round"><title>${h(`${p.name}: 95% interval ${r0(p.low)} to ${r0(p.high)}`)}</title></line><circle cx="${x(p.rating).toFixed(1)}" cy="${y}" r="6" fill="#0b3a7a"><title>${h(`${p.name}: ${r0(p.rating)}`)}</title></circle><text x="${(x(p.high) + 8).toFixed(1)}" y="${y + 4}" font-size="12">${r0(p.rating)}</text></g>`;
    })
    .join("");
  return `<svg class="chart" role="img" aria-label="Ratings with 95% intervals" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">${axis}${rows}</svg>`;
}

/**
 * A table in a keyboard-scrollable region named by `label` (narrow screens scroll it sideways), with
 * its one-line note above it and tied to it. A row's first cell heads the row; a cell already
 * written as its own `<td ...>` (a heat map's, with its shade) is kept as it is.
 */
function table(label: string, note: string, head: string[], rows: string[][], className = ""): string {
  const id = `note-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return `<p class="note" id="${id}">${h(note)}</p><div class="scroll" tabindex="0" role="region" aria-label="${h(label)}" aria-describedby="${id}"><table${className ? ` class="${className}"` : ""}><thead><tr>${head.map((x) => `<th scope="col">${x}</th>`).join("")}</tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr>${r.map((x, i) => (i === 0 ? `<th scope="row">${x}</th>` : x.startsWith("<td") ? x : `<td>${x}</td>`)).join("")}</tr>`,
    )
    .join("")}</tbody></table></div>`;
}

const ratingTable = (list: readonly RatedPlayer[], label: string, note: string) =>
  table(
    label,
    note,
    ["#", "player", "rating", "95% interval", "debates", "points"],
    list.map((p, i) => [
      String(i + 1),
      h(p.name),
      r0(p.rating),
      `${r0(p.low)} to ${r0(p.high)}`,
      String(p.games),
      String(p.score),
    ]),
  );

/** A cell's shade for a share of points: white at one half, bluer toward all won, more orange toward all lost; light enough for dark text. */
function heatColor(share: number): string {
  const away = Math.abs(share - 0.5) * 2;
  return `hsl(${share >= 0.5 ? 210 : 28} ${Math.round(70 * away)}% ${Math.round(97 - 25 * away)}%)`;
}

/** Head to head as a heat map: each cell the row's points against the column out of their games, its shade the share. */
function headToHeadTable(lb: Leaderboard): string {
  const { players, score, games } = lb.headToHead;
  return table(
    "Head to head",
    NOTE.headToHead(true),
    ["player \\ against", ...players.map(h)],
    players.map((p, i) => [
      h(p),
      ...players.map((q, j) => {
        if (i === j) return "-";
        const n = games[i]![j]!;
        const won = score[i]![j]!;
        const shade = n === 0 ? "" : ` style="background:${heatColor(won / n)}"`;
        return `<td data-row="${h(p)}" data-column="${h(q)}"${shade}>${won}/${n}</td>`;
      }),
    ]),
    "heat",
  );
}

/** leaderboard.html: one self-contained page. */
export function renderLeaderboardHtml(lb: Leaderboard): string {
  const parts: string[] = [`<h1>Leaderboard: ${h(lb.id)}</h1>`];
  if (lb.failed.length > 0) {
    parts.push(
      `<div class="alert" id="failed"><p><strong>${lb.failed.length} debate(s) failed</strong> (not counted in the ratings):</p><ul>${lb.failed
        .map(
          (f) =>
            `<li><a href="debates/${encodeURIComponent(f.id)}/report.html">${h(f.id)}</a> ${h(f.code)}: ${h(f.message.slice(0, 200))}</li>`,
        )
        .join("")}</ul></div>`,
    );
  }
  const first = lb.sideNames.first;
  const second = lb.sideNames.second;
  parts.push(
    `<p>${h(lb.format)} format; ${lb.counts.total} debates: ${lb.counts.done} done, ${lb.counts.failed} failed, ${lb.counts.remaining} not finished; ${lb.counts.decided} decided. Spend: ${h(describeSpend(lb))}.</p>`,
    `<h2>Ratings</h2><p>Bradley-Terry, maximum likelihood (Elo scale, mean 1000), 95% interval from ${lb.samples} bootstrap resamples of the debates (seed ${lb.seed}).</p>`,
    // A phone scrolls the chart sideways rather than shrink its labels out of reach.
    `<div class="scroll" tabindex="0" role="region" aria-label="Ratings chart">${renderRatingChart(lb.ratings)}</div>`,
    ratingTable(lb.ratings, "Ratings", NOTE.ratings),
    `<h2>Head to head</h2>`,
    headToHeadTable(lb),
    `<h2>Side bias</h2><p>The ${h(first)} won ${pct(lb.sides.first)} of the decided debates.</p>`,
    table(
      "Side bias",
      NOTE.sides(first, second),
      ["player", `as ${h(first)}`, `as ${h(second)}`],
      lb.sides.perPlayer.map((p) => [h(p.name), pct(p.first), pct(p.second)]),
    ),
    `<h2>Judges</h2>`,
    table(
      "Judges",
      NOTE.judges(first),
      ["judge", "debates decided", `gave the ${h(first)} the win`],
      lb.judges.map((j) => [h(j.name), String(j.decided), pct(j.first)]),
    ),
  );
  if (lb.panel) {
    const p = lb.panel;
    parts.push(
      `<h2>Judge panel</h2><p>${h(panelIntro(p))}</p>`,
      table(
        "Judge panel",
        NOTE.panel(p.swap),
        ["judge", "agreed with the panel's majority", ...(p.swap ? ["flipped with the order"] : [])],
        p.judges.map((j) => [h(j.name), frac(j.majority), ...(p.swap ? [frac(j.flips)] : [])]),
      ),
      table(
        "Pairwise agreement",
        NOTE.pairs,
        ["judges", "voted the same"],
        p.pairs.map((q) => [`${h(q.a)} and ${h(q.b)}`, frac(q)]),
      ),
    );
  }
  if (lb.correctness) {
    const o = lb.correctness.overall;
    parts.push(
      `<h2>Correct and incorrect sides</h2><p>Judge accuracy (the judge sided with the known answer): ${o.decided === 0 ? "-" : `${Math.round((100 * o.correct) / o.decided)}%`} (${o.correct}/${o.decided}).</p>`,
      table(
        "Judge accuracy",
        NOTE.accuracy,
        ["judge", "accuracy", "debates"],
        lb.correctness.judgeAccuracy.map((j) => [
          h(j.judge),
          j.decided ? `${Math.round((100 * j.correct) / j.decided)}%` : "-",
          String(j.decided),
        ]),
      ),
      ratingTable(
        lb.correctness.ratings.filter((p) => p.games > 0),
        "Ratings on the correct and the incorrect side",
        NOTE.correctness,
      ),
    );
  }
  parts.push(
    `<h2>Debates</h2>`,
    table(
      "Debates",
      NOTE.debates,
      ["debate", "motion", h(first), h(second), "judge", "status", "winner"],
      [...lb.debates]
        .sort((a, b) => Number(b.status === "failed") - Number(a.status === "failed"))
        .map((d) => [
          `<a href="debates/${encodeURIComponent(d.id)}/report.html">${h(d.id)}</a>`,
          d.motionText ? `<span title="${h(d.motionText)}">${h(motionCell(d))}</span>` : h(d.motion),
          h(d.first),
          h(d.second),
          h(d.judge),
          `${h(d.status)}${d.degraded ? ` (${h(d.degraded)})` : ""}`,
          h(d.winner ?? "-"),
        ]),
    ),
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Leaderboard: ${h(lb.id)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${parts.join("\n")}
</main>
</body>
</html>
`;
}
