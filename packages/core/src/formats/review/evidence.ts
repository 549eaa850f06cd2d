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

/**
 * A path as a diff header or `git blame --porcelain` prints it: unquoted when git quoted it (a
 * C-style string for a name with `"`, `\\` or a control character; UTF-8 bytes as octal escapes when
 * core.quotePath is on), and without the tab git ends a header with when the name has a space.
 */
export function unquoteGitPath(text: string): string {
  const raw = text.endsWith("\t") ? text.slice(0, -1) : text;
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const named: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  for (let i = 0; i < body.length; ) {
    const esc = /^\\([0-7]{3}|.)/su.exec(body.slice(i, i + 4));
    if (esc) {
      const e = esc[1]!;
      if (e.length === 3) bytes.push(Number.parseInt(e, 8));
      else bytes.push(...(named[e] !== undefined ? [named[e]!] : new TextEncoder().encode(e)));
      i += esc[0].length;
      continue;
    }
    const ch = String.fromCodePoint(body.codePointAt(i)!);
    bytes.push(...new TextEncoder().encode(ch));
    i += ch.length;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A diff header's path (`--- a/x`, `+++ "b/r\\303\\251.ts"`): unquoted, its `a/` or `b/` dropped. */
function headerPath(text: string, prefix: "a/" | "b/"): string {
  const path = unquoteGitPath(text);
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** A line that is only a comment (`//`, `/*`, `* `, `# `, `-- `, `<!--`): no code a quote can stand on. */
export function isCommentLine(text: string): boolean {
  return /^(\/\/|\/\*|\*\/|\*(\s|$)|#(\s|$)|--\s|<!--|;;)/.test(text.trim());
}

/** Whether a finding is about a comment itself (a wrong or misleading comment): its quote may stand on comment lines. */
export function aboutComment(text: string): boolean {
  return /\b(comments?|docstrings?|jsdoc|tsdoc|doc-?comments?)\b/i.test(text);
}

/** Prose (the artifact's own versions, a markdown or text file): it has no comments, every line counts. */
const isProse = (path: string) =>
  path === "artifact" || path.startsWith("artifact/") || /\.(md|markdown|mdx|txt|rst|adoc)$/i.test(path);

/** The lines of `path` a quote may stand on: comment-only lines of code left out (the others keep their numbers). */
function codeLines(lines: Lines, path: string): Lines {
  if (isProse(path)) return lines;
  return new Map([...lines].filter(([, text]) => !isCommentLine(text)));
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
    const minus = /^--- (.+)$/.exec(text);
    if (minus) oldPath = headerPath(minus[1]!, "a/");
    const plus = /^\+\+\+ (.+)$/.exec(text);
    if (plus) {
      oldFile = of(oldPath);
      newFile = of(headerPath(plus[1]!, "b/"));
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

/**
 * The line near `line` where `quote` starts: the cited line itself when the quote starts there,
 * else the nearest line of the window whose text holds the quote's first line and from which the
 * quote runs on. Called only once {@link quoteNear} holds.
 */
function quoteStart(lines: Lines, line: number, quote: string): number {
  const first = quote.trim().split(/\r?\n/)[0] ?? "";
  const extra = quote.trim().split(/\r?\n/).length - 1;
  for (let d = 0; d <= EVIDENCE_WINDOW; d++) {
    for (const n of d === 0 ? [line] : [line - d, line + d]) {
      const text = lines.get(n);
      if (text === undefined || !contains(text, first)) continue;
      const from: string[] = [];
      for (let k = n; k <= line + EVIDENCE_WINDOW + extra; k++) {
        const t = lines.get(k);
        if (t !== undefined) from.push(t);
      }
      if (contains(from.join("\n"), quote)) return n;
    }
  }
  return line;
}

/** Whether a quote with no file appears in a file the artifact shows (or in the artifact, when it shows none). */
function quoteShown(sources: EvidenceSources, quote: string, side: EvidenceSide, comments: boolean): boolean {
  const files = shownFilesOnce(sources.artifact);
  if (files.size === 0) return side === "new" && contains(sources.artifact, quote);
  for (const path of files.keys()) {
    const lines = citedLines(sources, path, side);
    if (lines && contains(textOf(comments ? lines : codeLines(lines, path)), quote)) return true;
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
 * A quote stands on code lines only: a comment near the cited line is no evidence of what the code
 * does, unless the finding (`about`: its title and detail) is about a comment.
 */
export function evidenceHolds(
  sources: EvidenceSources,
  evidence: ReviewFinding["evidence"],
  about = "",
): boolean {
  if (!evidence || (!evidence.file && !evidence.quote)) return false;
  const side = evidence.side ?? "new";
  const quote = evidence.quote && withoutDiffMarks(evidence.quote, side);
  const comments = aboutComment(about);
  if (!evidence.file) return quoteShown(sources, quote!, side, comments);
  const lines = citedLines(sources, evidence.file, side);
  if (!lines) return false;
  const quotable = comments ? lines : codeLines(lines, evidence.file);
  if (evidence.line !== undefined)
    return lines.has(evidence.line) && (!quote || quoteNear(quotable, evidence.line, quote));
  return !quote || contains(textOf(quotable), quote);
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
/**
 * The line a finding's evidence really stands on: the line where its quote starts, when the quote
 * holds near (not on) the cited line; else the cited line. Only for evidence that {@link evidenceHolds}.
 */
export function evidenceLine(
  sources: EvidenceSources,
  evidence: NonNullable<ReviewFinding["evidence"]>,
  about = "",
): number | undefined {
  if (evidence.line === undefined || !evidence.file || !evidence.quote) return evidence.line;
  const side = evidence.side ?? "new";
  const lines = citedLines(sources, evidence.file, side);
  if (!lines) return evidence.line;
  const quotable = aboutComment(about) ? lines : codeLines(lines, evidence.file);
  return quoteStart(quotable, evidence.line, withoutDiffMarks(evidence.quote, side));
}

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
    const about = `${f.title}\n${f.detail ?? ""}`;
    if (f.evidence && evidenceHolds(sources, f.evidence, about)) {
      verified++;
      // The finding names the line the quote was found on, so every face shows the code checked.
      const line = evidenceLine(sources, f.evidence, about);
      const evidence = line === f.evidence.line ? f.evidence : { ...f.evidence, line };
      return { ...f, evidence, evidence_status: "verified" };
    }
    return { ...f, severity: f.severity === "P1" ? "P2" : f.severity, evidence_status: "needs_evidence" };
  });
  return { findings: out, verified };
}
