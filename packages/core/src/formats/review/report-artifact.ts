import type { ReviewFinding } from "@debatekit/schema";
import type {
  ArtifactFile,
  ArtifactLine,
  ArtifactNote,
  ReportArtifact,
  TranscriptPiece,
} from "../../report-model.js";
import { artifactFileLines } from "./evidence.js";
import type { ClassifiedFinding } from "./judgment.js";
import type { ReviewRound } from "./round.js";
import { artifactFile, type ReviewState, repositoryFiles } from "./state.js";

/** A finding as a round holds it: the judge's classification when judged. */
export type Finding = ReviewFinding & { id: string; verdict?: ClassifiedFinding["verdict"] };
/** A finding followed across rounds (one fingerprint): every round it came up in, in order. */
export type FollowedFinding = { seen: Array<{ round: number; f: Finding }> };

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function numbered(text: string): ArtifactLine[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines.map((t, i) => ({ line: i + 1, text: t }));
}

/**
 * A unified diff's rows per file, in order, each with its number on both sides (the hunk headers
 * say where a hunk starts, its line counts where it ends, so nothing after a hunk is taken for code).
 */
function diffRows(artifact: string): Map<string, ArtifactLine[]> {
  const files = new Map<string, ArtifactLine[]>();
  let rows: ArtifactLine[] | undefined;
  let oldPath: string | undefined;
  let at = { old: 0, new: 0 };
  let left = { old: 0, new: 0 };
  for (const text of artifact.split(/\r?\n/)) {
    if (rows && (left.old > 0 || left.new > 0)) {
      const mark = text[0] ?? " ";
      if (mark === "\\") continue; // "\ No newline at end of file"
      if (mark === " " || mark === "-" || mark === "+") {
        rows.push({
          ...(mark !== "+" ? { oldLine: at.old++ } : {}),
          ...(mark !== "-" ? { line: at.new++ } : {}),
          ...(mark === " " ? {} : { mark }),
          text: text.slice(1),
        });
        if (mark !== "+") left.old--;
        if (mark !== "-") left.new--;
        continue;
      }
      left = { old: 0, new: 0 }; // a broken hunk ends here
    }
    const minus = /^--- (?:a\/)?(.+?)\s*$/.exec(text);
    if (minus) oldPath = minus[1];
    const plus = /^\+\+\+ (?:b\/)?(.+?)\s*$/.exec(text);
    if (plus) {
      const path = plus[1] === "/dev/null" ? oldPath : plus[1];
      rows = path && path !== "/dev/null" ? (files.get(path) ?? []) : undefined;
      if (path && rows) files.set(path, rows);
    }
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (hunk && rows) {
      at = { old: Number(hunk[1]), new: Number(hunk[3]) };
      left = { old: Number(hunk[2] ?? 1), new: Number(hunk[4] ?? 1) };
    }
  }
  return files;
}

/**
 * The whole file at the revision with the diff's rows in place: a removed line sits before the line
 * that follows it in the old file, and an unchanged line outside the hunks gets its old number too.
 */
function wholeFile(rows: ArtifactLine[], text: string): ArtifactLine[] {
  const out: ArtifactLine[] = [];
  let old = 0;
  let i = 0;
  const take = () => {
    const row = rows[i++]!;
    if (row.oldLine !== undefined) old = row.oldLine;
    out.push(row);
  };
  for (const { line, text: code } of numbered(text)) {
    while (rows[i]?.mark === "-" && rows[i]!.oldLine === old + 1) take();
    if (rows[i]?.line === line) take();
    else out.push({ line, oldLine: ++old, text: code });
  }
  while (i < rows.length) take();
  return out;
}

/** The files the reviewed artifact shows, every line numbered: a diff over the whole file when the repository's copy is in it; else the text itself. */
function reviewedFiles(state: ReviewState, findings: Finding[]): ArtifactFile[] {
  const bodyOf = (file: string) => (state.records ?? []).find((r) => r.file === file)?.body;
  const original = bodyOf(artifactFile(1)) ?? "";
  const repo = repositoryFiles(original);
  const files: ArtifactFile[] = [];
  const has = (path: string) => files.some((f) => f.path === path);
  for (const [path, rows] of diffRows(original))
    files.push({ path, lines: repo.has(path) ? wholeFile(rows, repo.get(path)!) : rows });
  for (const [path, text] of repo) if (!has(path)) files.push({ path, lines: numbered(text) });
  for (const m of original.matchAll(/^# File (.+)$/gm)) {
    const path = m[1]!.trim();
    const lines = artifactFileLines(original, path);
    if (lines && !has(path)) files.push({ path, lines: [...lines].map(([line, text]) => ({ line, text })) });
  }
  if (files.length === 0) files.push({ path: artifactFile(1), lines: numbered(original) });
  // A later version (the author's) is shown only when a finding cites it.
  for (const f of findings) {
    const path = f.evidence?.file;
    const text = path && /^artifact\/v\d+\.md$/.test(path) && !has(path) ? bodyOf(path) : undefined;
    if (text !== undefined) files.push({ path: path!, lines: numbered(text) });
  }
  return files;
}

/** The first line (on the evidence's side) where a quote starts, in the file it names or in any file. */
function quoteLine(files: ArtifactFile[], f: Finding): ArtifactNote["at"] {
  const ev = f.evidence!;
  const side = ev.side ?? "new";
  const mark = side === "new" ? "+" : "-";
  const quote = squash(
    ev
      .quote!.split("\n")
      .map((l) => (l.startsWith(mark) ? l.slice(1) : l))
      .join("\n"),
  );
  const extra = ev.quote!.trim().split("\n").length - 1;
  for (const file of files.filter((x) => !ev.file || x.path === ev.file)) {
    const rows = file.lines.filter((r) => (side === "new" ? r.line : r.oldLine) !== undefined);
    for (let i = 0; i < rows.length; i++) {
      const window = rows.slice(i, i + extra + 1).map((r) => r.text);
      if (quote !== "" && squash(window.join("\n")).includes(quote))
        return { path: file.path, line: (side === "new" ? rows[i]!.line : rows[i]!.oldLine)!, side };
    }
  }
  return undefined;
}

/** Where a finding points: its file and line as cited (a text's bare `artifact` is its first file), else where its quote starts. */
function anchorAt(files: ArtifactFile[], f: Finding): ArtifactNote["at"] {
  const ev = f.evidence;
  if (!ev) return undefined;
  const path = ev.file?.replace(/^(\.\/)+/, "");
  const file = path === "artifact" && !files.some((x) => x.path === path) ? files[0]!.path : path;
  if (file && ev.line !== undefined)
    return { path: file, line: ev.line, ...(ev.side ? { side: ev.side } : {}) };
  return ev.quote ? quoteLine(files, { ...f, evidence: { ...ev, ...(file ? { file } : {}) } }) : undefined;
}

/** What became of a finding: dismissed, left without evidence, addressed by the author's version, or open. */
function resolution(rounds: ReviewRound[], seen: FollowedFinding["seen"], complete: boolean): string {
  const last = seen.at(-1)!;
  if (last.f.verdict === "invalid") return `dismissed by the judge in round ${last.round}`;
  if (last.f.verdict === "needs_evidence")
    return `set aside in round ${last.round}: its evidence was not shown`;
  if (!last.f.verdict) return "not judged yet";
  const fixed = rounds.find(
    (r) => r.round >= last.round && r.author !== undefined && r.author.kind !== "rebuttal",
  );
  if (fixed) return `addressed in round ${fixed.round} by the author's ${fixed.author!.kind} version`;
  return complete ? "still open when the review ended" : "open";
}

const EVIDENCE_STATUS = {
  verified: "verified by the engine: found where cited",
  unverified: "not checked: it cites nothing to check",
  needs_evidence: "not verified: the engine did not find it where cited",
} as const;

const citation = (f: Finding) =>
  f.evidence?.file
    ? `${f.evidence.file}${f.evidence.line === undefined ? "" : `:${f.evidence.line}`}`
    : undefined;

/** One wording of a finding: its description (under its round's title when it came up again), evidence and suggestion. */
function wordingPieces(f: Finding, round: number, again: boolean): TranscriptPiece[] {
  const ev = f.evidence;
  const status = f.evidence_status ? EVIDENCE_STATUS[f.evidence_status] : "not checked";
  const cited = citation(f);
  return [
    { label: again ? `Round ${round}, ${f.id} (${f.severity}): ${f.title}` : "Description", text: f.detail },
    ev?.quote
      ? { label: `Evidence${cited ? ` at ${cited}` : ""}, ${status}`, text: ev.quote, quote: true }
      : { label: "Evidence", text: cited ? `cites ${cited}, ${status}` : "none given" },
    ...(f.suggestion ? [{ label: "Suggestion", text: f.suggestion }] : []),
  ];
}

/** A finding's full text as a note: each round's wording, the judge's classification and the author's answer. */
function notePieces(rounds: ReviewRound[], { seen }: FollowedFinding, judge: string): TranscriptPiece[] {
  const pieces: TranscriptPiece[] = [];
  for (const { round, f } of seen) {
    const r = rounds.find((x) => x.round === round)!;
    const c = r.judgment?.classifications.find((x) => x.finding_id === f.id);
    pieces.push(...wordingPieces(f, round, seen.length > 1));
    if (f.verdict)
      pieces.push({
        label: `The judge, round ${round} (${judge}): ${f.verdict.replace("_", " ")}`,
        text: c?.reasoning || "no reasoning given",
      });
    if (r.author)
      pieces.push({
        label: `The author's answer, round ${round}`,
        text:
          r.author.kind === "rebuttal"
            ? r.author.text
            : `wrote the ${r.author.kind} version (in full in the debate, round ${round})`,
      });
  }
  return pieces;
}

/** The reviewed artifact with every distinct finding anchored at its line (once, however many rounds raised it). */
export function reviewArtifact(
  state: ReviewState,
  rounds: ReviewRound[],
  followed: FollowedFinding[],
  colors: Record<ReviewFinding["severity"], string>,
  judge: string,
): ReportArtifact {
  const complete = state.frontmatter.current_phase === "complete";
  const files = reviewedFiles(
    state,
    followed.flatMap((d) => d.seen.map((s) => s.f)),
  );
  const notes = followed.map((d): ArtifactNote => {
    const first = d.seen[0]!;
    const last = d.seen.at(-1)!.f;
    // The latest wording that points somewhere: a repeat may have lost its quote.
    const pointing = [...d.seen].reverse().find((s) => anchorAt(files, s.f))?.f ?? last;
    const at = anchorAt(files, pointing);
    const cites = citation(pointing);
    const severities = [...new Set(d.seen.map((s) => s.f.severity))].join(" → ");
    const rounds_ = d.seen.map((s) => s.round);
    return {
      id: first.f.id,
      title: `${last.severity} ${last.title}`,
      meta: `${severities}, raised in round ${first.round}${rounds_.length > 1 ? ` (again in ${rounds_.slice(1).join(", ")})` : ""}, ${resolution(rounds, d.seen, complete)}${first.f.id.includes("-j") ? ", added by the judge" : ""}`,
      color: colors[last.severity],
      ...(at ? { at } : {}),
      ...(cites ? { cites } : {}),
      pieces: notePieces(rounds, d, judge),
      entries: d.seen.map((s) => s.f.id),
    };
  });
  const change = files.some((f) => f.path !== artifactFile(1));
  return {
    title: change ? "The change with the findings on it" : "The text with the findings on it",
    description: `The artifact as reviewed (artifact/v1.md${change ? ": the change over each file at the revision" : ""}), each finding at the line it cites or where its quote starts; a finding raised again in later rounds appears once.`,
    files,
    notes,
    apartTitle: "Findings that point at no line of the artifact",
  };
}
