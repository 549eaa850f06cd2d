import type { ReviewFinding } from "@debatekit/schema";

/**
 * What evidence is checked against: the artifact's text and, for a git scope, the repository's files
 * at the scope's revision (read by the caller; core does no I/O). `file` returns undefined for a
 * file that does not exist there.
 */
export interface EvidenceSources {
  artifact: string;
  /**
   * Path as the artifact names it (`src/a.ts`) -> its text at the revision (absent when not a git
   * scope); the review's state also serves `artifact/vN.md` for a version that shows no file.
   */
  file?: (path: string) => string | undefined;
}

/** Findings after evidence checking, and how many were verified. */
export interface VerifiedFindings {
  findings: ReviewFinding[];
  verified: number;
}

/** How many lines either side of the cited line a quote may start (a longer quote may run on past the window). */
export const EVIDENCE_WINDOW = 2;

/** The side of a change a piece of evidence is on: the file at the revision, or before the change. */
export type EvidenceSide = "new" | "old";

/** A file's lines by number (1-based); a diff shows only some of them. */
type Lines = Map<number, string>;

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function contains(haystack: string, needle: string): boolean {
  return squash(haystack).includes(squash(needle));
}

function linesOf(text: string): Lines {
  const all = text.split(/\r?\n/);
  if (all.at(-1) === "") all.pop();
  return new Map(all.map((t, i) => [i + 1, t]));
}

const textOf = (lines: Lines) => [...lines.values()].join("\n");

/**
 * The files an artifact shows, each with the lines of its new side and of its old side: a diff's
 * hunks (numbered as the hunk headers say, each hunk ending where its line counts say, so nothing
 * after it is taken for the file) and `# File PATH` fenced blocks (new side only). Everything else
 * in the artifact (its title, the fences, headings) is the tool's framing, no file's text.
 */
function shownFiles(artifact: string): Map<string, Record<EvidenceSide, Lines>> {
  const files = new Map<string, Record<EvidenceSide, Lines>>();
  const of = (path: string | undefined) => {
    if (!path || path === "/dev/null") return undefined;
    if (!files.has(path)) files.set(path, { new: new Map(), old: new Map() });
    return files.get(path)!;
  };
  let oldPath: string | undefined;
  let oldFile: Record<EvidenceSide, Lines> | undefined;
  let newFile: Record<EvidenceSide, Lines> | undefined;
  let at = { old: 0, new: 0 };
  let left = { old: 0, new: 0 };
  for (const text of artifact.split(/\r?\n/)) {
    if (left.old > 0 || left.new > 0) {
      const mark = text[0] ?? " ";
      if (mark === "\\") continue; // "\ No newline at end of file"
      if (mark === " " || mark === "-") oldFile?.old.set(at.old++, text.slice(1));
      if (mark === " " || mark === "+") newFile?.new.set(at.new++, text.slice(1));
      if (mark === " " || mark === "-") left.old--;
      if (mark === " " || mark === "+") left.new--;
      if (mark === " " || mark === "-" || mark === "+") continue;
      left = { old: 0, new: 0 }; // a broken hunk ends here
    }
    const minus = /^--- (?:a\/)?(.+?)\s*$/.exec(text);
    if (minus) oldPath = minus[1];
    const plus = /^\+\+\+ (?:b\/)?(.+?)\s*$/.exec(text);
    if (plus) {
      oldFile = of(oldPath);
      newFile = of(plus[1]);
    }
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (hunk && (oldFile || newFile)) {
      at = { old: Number(hunk[1]), new: Number(hunk[3]) };
      left = { old: Number(hunk[2] ?? 1), new: Number(hunk[4] ?? 1) };
    }
    if (/^diff --git /.test(text)) oldPath = oldFile = newFile = undefined;
  }
  for (const m of artifact.matchAll(/^# File (.+)\n\n(`{3,})[^\n]*\n([\s\S]*?)\n\2[ \t]*$/gm)) {
    const file = of(m[1]!.trim());
    if (file && file.new.size === 0) file.new = linesOf(m[3]!);
  }
  return files;
}

// verifyFindings checks every finding against the same artifact: parse it once.
let lastShown: { artifact: string; files: ReturnType<typeof shownFiles> } | undefined;
function shownFilesOnce(artifact: string): ReturnType<typeof shownFiles> {
  if (lastShown?.artifact !== artifact) lastShown = { artifact, files: shownFiles(artifact) };
  return lastShown.files;
}

/** The lines of `path` as the artifact shows them on one side of the change (a diff's hunks, or a `# File PATH` block). */
export function artifactFileLines(
  artifact: string,
  path: string,
  side: EvidenceSide = "new",
): Map<number, string> | undefined {
  const lines = shownFilesOnce(artifact).get(path)?.[side];
  return lines && lines.size > 0 ? lines : undefined;
}

/** Whether the artifact shows files (a diff, a file): then only their text is evidence, never the framing around them. */
export function artifactShowsFiles(artifact: string): boolean {
  return shownFiles(artifact).size > 0;
}

/**
 * The cited file's lines on one side: the new side from the repository at the revision, else as
 * the artifact shows it; the old side as the artifact's diff shows it. An artifact that shows no
 * file (a proposal, a text) is itself the file `artifact/...`.
 */
function citedLines(sources: EvidenceSources, path: string, side: EvidenceSide): Lines | undefined {
  const repo = side === "new" ? sources.file?.(path) : undefined;
  if (repo !== undefined) return linesOf(repo);
  const shown = artifactFileLines(sources.artifact, path, side);
  if (shown) return shown;
  const isArtifact = path === "artifact" || path.startsWith("artifact/");
  if (side === "new" && isArtifact && shownFilesOnce(sources.artifact).size === 0)
    return linesOf(sources.artifact);
  return undefined;
}

/** Whether `quote` starts within EVIDENCE_WINDOW lines of `line` (running on past the window by its own extra lines). */
function quoteNear(lines: Lines, line: number, quote: string): boolean {
  const extra = quote.trim().split(/\r?\n/).length - 1;
  const near: string[] = [];
  for (let n = line - EVIDENCE_WINDOW; n <= line + EVIDENCE_WINDOW + extra; n++) {
    const text = lines.get(n);
    if (text !== undefined) near.push(text);
  }
  return contains(near.join("\n"), quote);
}

/** Whether a quote with no file appears in a file the artifact shows (or in the artifact, when it shows none). */
function quoteShown(sources: EvidenceSources, quote: string, side: EvidenceSide): boolean {
  const files = shownFilesOnce(sources.artifact);
  if (files.size === 0) return side === "new" && contains(sources.artifact, quote);
  for (const path of files.keys()) {
    const lines = citedLines(sources, path, side);
    if (lines && contains(textOf(lines), quote)) return true;
  }
  return false;
}

/**
 * Checks one finding's evidence against the cited file at the cited revision: the new side (the
 * file at the revision), or the old side (before the change) when the evidence says `side: old`. A
 * `file:line` must exist there, a `quote` must appear there (whitespace-insensitive; a line's diff
 * mark of that side, `+` or `-`, dropped), starting
 * within EVIDENCE_WINDOW lines of the cited line when one is given. A quote with no file must appear
 * in one of the files the artifact shows. The tool's own framing of the artifact is no evidence.
 */
export function evidenceHolds(sources: EvidenceSources, evidence: ReviewFinding["evidence"]): boolean {
  if (!evidence || (!evidence.file && !evidence.quote)) return false;
  const side = evidence.side ?? "new";
  const quote = evidence.quote && withoutDiffMarks(evidence.quote, side);
  if (!evidence.file) return quoteShown(sources, quote!, side);
  const lines = citedLines(sources, evidence.file, side);
  if (!lines) return false;
  if (evidence.line !== undefined)
    return lines.has(evidence.line) && (!quote || quoteNear(lines, evidence.line, quote));
  return !quote || contains(textOf(lines), quote);
}

/**
 * The text a finding's evidence points at, to tell whether it changed between two revisions: the
 * cited lines (EVIDENCE_WINDOW either side of the cited line) of the cited file on the cited side,
 * the whole file when no line is given, the whole artifact when no file is; undefined when the
 * cited file is not there.
 */
export function evidenceAnchor(
  sources: EvidenceSources,
  evidence: ReviewFinding["evidence"],
): string | undefined {
  if (!evidence?.file) return evidence?.quote !== undefined ? sources.artifact : undefined;
  const lines = citedLines(sources, evidence.file, evidence.side ?? "new");
  if (!lines) return undefined;
  if (evidence.line === undefined) return textOf(lines);
  const near: string[] = [];
  for (let n = evidence.line - EVIDENCE_WINDOW; n <= evidence.line + EVIDENCE_WINDOW; n++)
    near.push(lines.get(n) ?? "");
  return near.join("\n");
}

/** A quote copied from the diff with its lines' `+` (new side) or `-` (old side) marks, as the file has it. */
function withoutDiffMarks(quote: string, side: EvidenceSide): string {
  const mark = side === "new" ? "+" : "-";
  return quote
    .split("\n")
    .map((line) => (line.startsWith(mark) ? line.slice(1) : line))
    .join("\n");
}

/**
 * Marks each finding `verified` or `needs_evidence` (docs/architecture.md#formats): a finding whose file:line or quote
 * is not found, or that gives none, cannot stay P1 (it becomes P2).
 */
export function verifyFindings(
  findings: readonly ReviewFinding[],
  sources: EvidenceSources,
): VerifiedFindings {
  let verified = 0;
  const out = findings.map((f): ReviewFinding => {
    if (evidenceHolds(sources, f.evidence)) {
      verified++;
      return { ...f, evidence_status: "verified" };
    }
    return { ...f, severity: f.severity === "P1" ? "P2" : f.severity, evidence_status: "needs_evidence" };
  });
  return { findings: out, verified };
}
