import { escapeHtml as h, markdownFence, escapeMarkdown as md } from "./escape.js";
import type { ArtifactFile, ArtifactLine, ArtifactNote, ReportArtifact, TranscriptSection } from "./model.js";
import { anchorOf, pieceHtml, pieceMarkdown } from "./transcript.js";

/** A file of at most this many lines is shown whole; a longer one as hunks around its notes and changed lines. */
export const WHOLE_FILE_LINES = 80;
/** Lines of context either side of a note's line (and of a changed line) in a hunk, and in a markdown excerpt. */
export const CONTEXT_LINES = 3;

/** The style of the artifact's page part (the diff's colours keep AA contrast in light and dark). */
export const ARTIFACT_STYLE = `
table.code { table-layout: fixed; font: .85rem/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table.code th { font-family: system-ui, sans-serif; }
table.code th:not(:last-child), table.code td.num { width: 3.5rem; }
table.code td { min-width: 0; padding: 0 .4rem; border: 0; }
table.code td.num { text-align: right; color: #555; user-select: none; }
table.code td.src { white-space: pre-wrap; overflow-wrap: anywhere; }
table.code tr.add { background: #e6ffec; } table.code tr.del { background: #ffebe9; }
table.code tr.noted td.num { font-weight: 700; }
table.code .mark { display: inline-block; width: 1ch; margin-right: .25rem; }
table.code tr.gap td { color: #555; background: #f2f2f2; font-style: italic; padding: .2rem .5rem; }
table.code tr.note-row td { padding: .4rem .5rem; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
article.finding { border: 1px solid #ccc; border-left: 6px solid #555; border-radius: 6px; padding: .25rem .75rem; margin: .5rem 0; overflow-wrap: anywhere; background: #fff; }
article.finding:target { outline: 3px solid #0d47a1; }
article.finding h4 { margin: .25rem 0; }
@media (prefers-color-scheme: dark) {
  table.code td.num, table.code tr.gap td { color: #bdbdbd; }
  table.code tr.add { background: #12361f; } table.code tr.del { background: #3d1518; }
  table.code tr.gap td { background: #1f1f1f; }
  article.finding { background: #181818; border-color: #555; }
}
@media print { article.finding, table.code tr { break-inside: avoid; } }
`;

const knownIds = (transcript: TranscriptSection[] | undefined) =>
  new Set((transcript ?? []).flatMap((s) => s.entries.map((e) => e.id)));

/** How a note placed apart says why. */
const apartMeta = (n: ArtifactNote): ArtifactNote => ({
  ...n,
  meta: `${n.meta ?? ""}${n.cites ? `; cites ${n.cites}, not a line of the artifact` : "; cites no line"}`,
});

/** A row shown: a line with the notes anchored on it, or a gap of lines not shown. */
type Shown = { row: ArtifactLine; notes: ArtifactNote[] } | { gap: ArtifactLine[] };

/** Where each note sits: the rows of each file as shown, and the notes that point at no line shown. */
export interface PlacedArtifact {
  files: Array<{ file: ArtifactFile; shown: Shown[]; numbered: "both" | "one" }>;
  apart: ArtifactNote[];
  /** The row each anchored note sits on (for markdown excerpts). */
  rowOf: Map<ArtifactNote, { file: ArtifactFile; index: number }>;
}

const lineOn = (row: ArtifactLine, side: "new" | "old" = "new") => (side === "old" ? row.oldLine : row.line);

/** Places the notes on their lines and cuts long files to hunks (rule: {@link WHOLE_FILE_LINES}, {@link CONTEXT_LINES}). */
export function placeNotes(artifact: ReportArtifact): PlacedArtifact {
  const rowOf: PlacedArtifact["rowOf"] = new Map();
  const apart: ArtifactNote[] = [];
  for (const note of artifact.notes) {
    const file = note.at && artifact.files.find((f) => f.path === note.at!.path);
    const index = file ? file.lines.findIndex((r) => lineOn(r, note.at!.side) === note.at!.line) : -1;
    if (file && index >= 0) rowOf.set(note, { file, index });
    else apart.push(note);
  }
  const files = artifact.files.map((file) => {
    const notesAt = new Map<number, ArtifactNote[]>();
    for (const [note, at] of rowOf)
      if (at.file === file) notesAt.set(at.index, [...(notesAt.get(at.index) ?? []), note]);
    const keep = (i: number) =>
      file.lines.length <= WHOLE_FILE_LINES ||
      file.lines
        .slice(Math.max(0, i - CONTEXT_LINES), i + CONTEXT_LINES + 1)
        .some((r, k) => r.mark !== undefined || notesAt.has(Math.max(0, i - CONTEXT_LINES) + k));
    const shown: Shown[] = [];
    file.lines.forEach((row, i) => {
      if (keep(i)) shown.push({ row, notes: notesAt.get(i) ?? [] });
      else {
        const last = shown.at(-1);
        if (last && "gap" in last) last.gap.push(row);
        else shown.push({ gap: [row] });
      }
    });
    const numbered = file.lines.some((r) => r.oldLine !== undefined && r.line !== undefined)
      ? ("both" as const)
      : ("one" as const);
    return { file, shown, numbered };
  });
  // A file with no note and no changed line says nothing: it is left out when long.
  return {
    files: files.filter((f) => f.shown.some((s) => "row" in s)),
    apart,
    rowOf,
  };
}

/** The page anchor of a note: its id made safe (ids are model text). */
export function noteAnchorOf(id: string): string {
  return anchorOf(id).replace(/^entry-/, "note-");
}

const gapText = (gap: ArtifactLine[]) => {
  const nums = gap.map((r) => r.line ?? r.oldLine).filter((n) => n !== undefined);
  return `${gap.length} line${gap.length === 1 ? "" : "s"} not shown${nums.length > 0 ? ` (${nums[0]}-${nums.at(-1)})` : ""}`;
};

function noteHtml(note: ArtifactNote, known: ReadonlySet<string>): string {
  const entries = note.entries.map((id) =>
    known.has(id) ? `<a href="#${anchorOf(id)}">${h(id)}</a>` : h(id),
  );
  return [
    `<article class="finding" id="${noteAnchorOf(note.id)}"${note.color ? ` style="border-left-color:${h(note.color)}"` : ""}>`,
    `<h4>${h(note.title)}</h4>`,
    note.meta ? `<p class="meta">${h(note.meta)}</p>` : "",
    entries.length > 0 ? `<p class="meta">In the debate: ${entries.join(", ")}</p>` : "",
    ...note.pieces.map(pieceHtml),
    "</article>",
  ]
    .filter(Boolean)
    .join("\n");
}

function rowHtml(
  file: ArtifactFile,
  { row, notes }: { row: ArtifactLine; notes: ArtifactNote[] },
  both: boolean,
  known: ReadonlySet<string>,
): string {
  const kind = row.mark === "+" ? " add" : row.mark === "-" ? " del" : "";
  // A line's number links to the first note that points at it on that side of the change.
  const num = (n: number | undefined, side: "new" | "old") => {
    const first = notes.find((x) => !both || (x.at?.side ?? "new") === side);
    return n === undefined ? "" : first ? `<a href="#${noteAnchorOf(first.id)}">${n}</a>` : String(n);
  };
  const data = `data-path="${h(file.path)}"${row.line === undefined ? "" : ` data-line="${row.line}"`}${row.oldLine === undefined ? "" : ` data-old-line="${row.oldLine}"`}`;
  const cells = both
    ? `<td class="num">${num(row.oldLine, "old")}</td><td class="num">${num(row.line, "new")}</td>`
    : `<td class="num">${num(row.line ?? row.oldLine, "new")}</td>`;
  const mark = row.mark ? `<span class="mark">${row.mark}</span>` : "";
  return [
    `<tr class="line${kind}${notes.length > 0 ? " noted" : ""}" ${data}>${cells}<td class="src">${mark}${h(row.text)}</td></tr>`,
    ...notes.map((n) => `<tr class="note-row"><td colspan="${both ? 3 : 2}">${noteHtml(n, known)}</td></tr>`),
  ].join("\n");
}

/** The artifact as a code-review page: each file's lines numbered, each note in a row under its line, the rest apart. */
export function renderArtifactHtml(artifact: ReportArtifact, transcript?: TranscriptSection[]): string {
  const placed = placeNotes(artifact);
  const known = knownIds(transcript);
  const out = [
    `<p>${h(artifact.description)} Files of up to ${WHOLE_FILE_LINES} lines are shown whole; longer ones as hunks of ${CONTEXT_LINES} lines around each finding and each changed line.</p>`,
  ];
  placed.files.forEach(({ file, shown, numbered }, i) => {
    const both = numbered === "both";
    out.push(
      `<section aria-labelledby="artifact-file-${i}"><h3 id="artifact-file-${i}"><code>${h(file.path)}</code></h3>`,
      `<table class="code"><thead><tr>${both ? '<th scope="col">Old</th><th scope="col">New</th>' : '<th scope="col">Line</th>'}<th scope="col">Text</th></tr></thead><tbody>`,
      ...shown.map((s) =>
        "gap" in s
          ? `<tr class="gap"><td colspan="${both ? 3 : 2}">⋯ ${h(gapText(s.gap))}</td></tr>`
          : rowHtml(file, s, both, known),
      ),
      "</tbody></table></section>",
    );
  });
  if (placed.apart.length > 0)
    out.push(
      `<section aria-labelledby="artifact-apart"><h3 id="artifact-apart">${h(artifact.apartTitle)}</h3>`,
      ...placed.apart.map((n) => noteHtml(apartMeta(n), known)),
      "</section>",
    );
  return out.join("\n");
}

/** One note in markdown: its heading and meta, an excerpt of its file around its line (fenced), its full text. */
function noteMarkdown(note: ArtifactNote, placed: PlacedArtifact, known: ReadonlySet<string>): string[] {
  const out = [`<a id="${noteAnchorOf(note.id)}"></a>`, "", `#### ${md(note.title)}`, ""];
  const at = placed.rowOf.get(note);
  const where = at
    ? `${at.file.path}:${note.at!.line}${note.at!.side === "old" ? " (before the change)" : ""}: `
    : "";
  if (note.meta) out.push(`*${md(`${where}${note.meta}`)}*`, "");
  if (note.entries.length > 0)
    out.push(
      `In the debate: ${note.entries.map((id) => (known.has(id) ? `[${md(id)}](#${anchorOf(id)})` : md(id))).join(", ")}`,
      "",
    );
  if (at) {
    const rows = at.file.lines.slice(Math.max(0, at.index - CONTEXT_LINES), at.index + CONTEXT_LINES + 1);
    const width = String(Math.max(0, ...rows.map((r) => r.line ?? r.oldLine ?? 0))).length;
    const diff = at.file.lines.some((r) => r.mark !== undefined);
    out.push(
      markdownFence(
        rows.map(
          (r) =>
            `${r.mark ?? " "} ${String(r.line ?? r.oldLine ?? "").padStart(width)}${r === at.file.lines[at.index] ? " >" : "  "} ${r.text}`,
        ),
        diff ? "diff" : "text",
      ),
      "",
    );
  }
  for (const p of note.pieces) out.push(...pieceMarkdown(p));
  return out;
}

/** The same in markdown: per file, each anchored note with a fenced excerpt around its line; then the notes apart. */
export function renderArtifactMarkdown(artifact: ReportArtifact, transcript?: TranscriptSection[]): string[] {
  const placed = placeNotes(artifact);
  const known = knownIds(transcript);
  const out = [
    `${md(artifact.description)} Each finding below shows ${CONTEXT_LINES} lines either side of its line (marked \`>\`).`,
    "",
  ];
  for (const { file } of placed.files) {
    const notes = artifact.notes
      .filter((n) => placed.rowOf.get(n)?.file === file)
      .sort((a, c) => placed.rowOf.get(a)!.index - placed.rowOf.get(c)!.index);
    if (notes.length === 0) continue;
    out.push(`### ${md(file.path)}`, "");
    for (const n of notes) out.push(...noteMarkdown(n, placed, known));
  }
  if (placed.apart.length > 0) {
    out.push(`### ${md(artifact.apartTitle)}`, "");
    for (const n of placed.apart) out.push(...noteMarkdown(apartMeta(n), placed, known));
  }
  return out;
}
