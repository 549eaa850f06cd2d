import { escapeMarkdownBlock, escapeHtml as h, escapeMarkdown as md } from "./escape.js";
import type { Report, TranscriptEntry, TranscriptPiece, TranscriptSection } from "./model.js";

/** The page anchor of an entry: its id with anything but letters, digits, `.`, `-` and `_` made `_` (ids are model text). */
export function anchorOf(id: string): string {
  return `entry-${id.replace(/[^A-Za-z0-9._-]/g, "_")}`;
}

const VERB = { attack: "attacks", defense: "defends", repeat: "repeats" } as const;

/**
 * The short summary at the top: the verdict, the points it rests on (the strongest), and the
 * degraded causes when the result rests on less than was configured.
 */
export function summaryLines(report: Report): string[] {
  const b = report.body;
  if (!b) return [];
  const lines = [`Result: ${b.verdict.headline}.`];
  // What decided it are the side ahead's strongest points (the verdict names the side); with no side
  // ahead, the strongest of either side are only that, the strongest.
  const winner = b.verdict.winner;
  const points = (winner ? b.strongest.filter((a) => a.side === winner) : b.strongest).slice(0, 3);
  if (points.length > 0)
    lines.push(
      `${winner ? `Decided by the ${winner}'s strongest` : "Strongest"} ${b.itemName ?? "arguments"}: ${points
        .map((a) => `${a.id} (${a.title})`)
        .join("; ")}.`,
    );
  if (report.degraded) lines.push(`Rests on less than configured: ${report.degraded.causes.join("; ")}.`);
  return lines;
}

function paragraphsHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${h(p.trim())}</p>`)
    .join("");
}

/** A labelled piece of model text in HTML: a quote as a captioned blockquote, else paragraphs after its label. */
export function pieceHtml(p: TranscriptPiece): string {
  return p.quote
    ? `<figure><figcaption>${h(p.label)}</figcaption><blockquote>${h(p.text)}</blockquote></figure>`
    : `<div class="piece"><strong>${h(p.label)}:</strong> ${paragraphsHtml(p.text)}</div>`;
}

/** The same in markdown: the label in bold, the text as escaped paragraphs under it (a quote too: a `>` line of ours would read like one of the model's). */
export function pieceMarkdown(p: TranscriptPiece): string[] {
  return [`**${md(p.label)}:**`, "", escapeMarkdownBlock(p.text), ""];
}

function entryHtml(e: TranscriptEntry, known: ReadonlySet<string>): string {
  const side = e.side === "proposition" ? "prop" : "opp";
  const links = e.links.map((l) => {
    const target = known.has(l.target)
      ? `<a class="link-${l.kind}" href="#${anchorOf(l.target)}">${h(l.target)}</a>`
      : `${h(l.target)} (not in this debate)`;
    return `<li>${VERB[l.kind]} ${target} <small>(${h(l.label)})</small></li>`;
  });
  return [
    `<article class="entry entry-${side}" id="${anchorOf(e.id)}">`,
    `<h4><span class="${side}">${h(e.id)}</span> ${h(e.title)}</h4>`,
    e.meta ? `<p class="meta">${h(e.meta)}</p>` : "",
    links.length > 0 ? `<ul class="links">${links.join("")}</ul>` : "",
    ...e.pieces.map(pieceHtml),
    ...e.judgements.map(
      (j) =>
        `<aside class="judgement"><strong>${h(j.heading)}</strong> <small>${h(j.judge)}</small>${paragraphsHtml(j.text)}</aside>`,
    ),
    "</article>",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The debate as a document in HTML: one `h3` per unit, one article per entry (anchored), links to their targets. */
export function renderTranscriptHtml(sections: TranscriptSection[]): string {
  const known = new Set(sections.flatMap((s) => s.entries.map((e) => e.id)));
  return sections
    .map((s) =>
      [
        `<section aria-labelledby="${anchorOf(s.id)}-title"><h3 id="${anchorOf(s.id)}-title">${h(s.title)}</h3>`,
        ...s.notes.map(
          (n) =>
            `<div class="note"><strong>${h(n.heading)}</strong> <small>${h(n.judge)}</small>${paragraphsHtml(n.text)}</div>`,
        ),
        ...s.entries.map((e) => entryHtml(e, known)),
        "</section>",
      ].join("\n"),
    )
    .join("\n");
}

/** The same document in markdown: an HTML anchor per entry (our own, from {@link anchorOf}), every text escaped. */
export function renderTranscriptMarkdown(sections: TranscriptSection[]): string[] {
  const known = new Set(sections.flatMap((s) => s.entries.map((e) => e.id)));
  const out: string[] = [];
  for (const s of sections) {
    out.push(`### ${md(s.title)}`, "");
    for (const n of s.notes)
      out.push(`**${md(n.heading)}** (${md(n.judge)})`, "", escapeMarkdownBlock(n.text), "");
    for (const e of s.entries) {
      out.push(`<a id="${anchorOf(e.id)}"></a>`, "", `#### ${md(e.id)}: ${md(e.title)}`, "");
      if (e.meta) out.push(`*${md(e.meta)}*`, "");
      for (const l of e.links)
        out.push(
          `- ${VERB[l.kind]} ${known.has(l.target) ? `[${md(l.target)}](#${anchorOf(l.target)})` : `${md(l.target)} (not in this debate)`} (${md(l.label)})`,
        );
      if (e.links.length > 0) out.push("");
      for (const p of e.pieces) out.push(...pieceMarkdown(p));
      for (const j of e.judgements)
        out.push(`**${md(j.heading)}** (${md(j.judge)})`, "", escapeMarkdownBlock(j.text), "");
    }
  }
  return out;
}
