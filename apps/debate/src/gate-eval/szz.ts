// SZZ (Sliwerski, Zimmermann, Zeller): a bug-fixing commit's removed or changed lines, blamed on the
// fix's parent, name the commits that introduced the bug. Pure parsing here; git.ts runs git.
import { unquoteGitPath } from "@debatekit/core";
import { git } from "./git.js";

/** One commit of the history, as `git log` gives it. */
export interface LoggedCommit {
  sha: string;
  parents: string[];
  subject: string;
  body: string;
}

/** A line a fix removed or changed, as the fix's parent has it. */
export interface RemovedLine {
  file: string;
  line: number;
  text: string;
}

/** A commit blamed for a line a fix removed: where the line was in that commit. */
export interface BlamedLine {
  suspect: string;
  file: string;
  line: number;
  text: string;
}

/** What matches a bug-fixing commit message by default: fix words, `Fixes #N` links, reverts. */
export const DEFAULT_FIX_PATTERNS = [
  "\\bfix(e[sd])?\\b",
  "\\bbug\\b",
  "\\b(close[sd]?|resolve[sd]?) #\\d+",
  '^Revert "',
  "This reverts commit [0-9a-f]{7,40}",
];

const FIELD = "\x1f";
const RECORD = "\x1e";

/** Parses `git log --format=%H%x1f%P%x1f%s%x1f%B%x1e`. */
export function parseLog(text: string): LoggedCommit[] {
  return text
    .split(RECORD)
    .map((record) => record.replace(/^\n+/, ""))
    .filter((record) => record.length > 0)
    .map((record) => {
      const [sha = "", parents = "", subject = "", body = ""] = record.split(FIELD);
      return { sha, parents: parents.split(" ").filter(Boolean), subject, body: body.trim() };
    });
}

/** The commits reachable from `rev` (newest first), optionally only those since `since` (git's date syntax). */
export async function readLog(repo: string, rev: string, since?: string): Promise<LoggedCommit[]> {
  const format = `--format=%H${"%x1f"}%P${"%x1f"}%s${"%x1f"}%B${"%x1e"}`;
  return parseLog(await git(repo, "log", format, ...(since ? [`--since=${since}`] : []), rev, "--"));
}

/** Whether `commit`'s message matches one of `patterns` (case-insensitive, multi-line regular expressions). */
export function isFixCommit(commit: LoggedCommit, patterns: readonly RegExp[]): boolean {
  const message = `${commit.subject}\n${commit.body}`;
  return patterns.some((p) => p.test(message));
}

/** The commit a revert's message names (`This reverts commit X.`), if any. */
export function revertedCommit(commit: LoggedCommit): string | undefined {
  return /This reverts commit ([0-9a-f]{7,40})/.exec(commit.body)?.[1];
}

/** A line that carries no behaviour: blank or a comment (`//`, `#`, `/*`, `*`, `--`). */
export function isCommentOrBlank(text: string): boolean {
  const t = text.trim();
  return t === "" || /^(\/\/|#|\/\*|\*|--|<!--)/.test(t);
}

/**
 * The lines a `git diff --unified=0` removed or changed, numbered as the old side has it (a hunk
 * that only adds lines contributes nothing). Comment-only and blank lines are left out.
 */
export function parseRemovedLines(diff: string): RemovedLine[] {
  const out: RemovedLine[] = [];
  let file: string | undefined;
  let line = 0;
  for (const text of diff.split("\n")) {
    if (text.startsWith("--- ")) {
      file = text === "--- /dev/null" ? undefined : unquoteGitPath(text.slice(4)).replace(/^a\//, "");
      continue;
    }
    if (text.startsWith("+++ ")) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(text);
    if (hunk) {
      line = Number(hunk[1]);
      continue;
    }
    if (text.startsWith("-") && file !== undefined) {
      const body = text.slice(1);
      if (!isCommentOrBlank(body)) out.push({ file, line, text: body });
      line++;
    }
  }
  return out;
}

/** Parses `git blame --porcelain`: for each line, the commit it comes from and its line and file there. */
export function parseBlame(text: string): BlamedLine[] {
  const files = new Map<string, string>();
  const out: BlamedLine[] = [];
  let current: { suspect: string; line: number } | undefined;
  for (const row of text.split("\n")) {
    const head = /^([0-9a-f]{40}) (\d+) \d+/.exec(row);
    if (head) {
      current = { suspect: head[1]!, line: Number(head[2]) };
      continue;
    }
    if (row.startsWith("filename ") && current)
      files.set(current.suspect, unquoteGitPath(row.slice("filename ".length)));
    if (row.startsWith("\t") && current) {
      out.push({ ...current, file: files.get(current.suspect) ?? "", text: row.slice(1) });
      current = undefined;
    }
  }
  return out;
}

/** The size of a commit's change: files touched and lines added plus removed (binary files count as one line). */
export async function changeSize(repo: string, sha: string): Promise<{ files: number; lines: number }> {
  const stat = await git(repo, "diff", "--numstat", `${sha}^`, sha, "--");
  const rows = stat.split("\n").filter(Boolean);
  const lines = rows.reduce((sum, row) => {
    const [added, removed] = row.split("\t");
    return sum + (added === "-" ? 1 : Number(added) + Number(removed));
  }, 0);
  return { files: rows.length, lines };
}

/** The lines `fix` removed or changed (whitespace ignored), as its parent has them. */
export async function removedByFix(repo: string, fix: string): Promise<RemovedLine[]> {
  return parseRemovedLines(
    await git(
      repo,
      "diff",
      "--unified=0",
      "--no-color",
      "--no-ext-diff",
      "-w",
      "--no-renames",
      `${fix}^`,
      fix,
      "--",
    ),
  );
}

/** Blames `lines` on `fix`'s parent (whitespace ignored), one `git blame` per file. */
export async function blameOnParent(
  repo: string,
  fix: string,
  lines: readonly RemovedLine[],
): Promise<BlamedLine[]> {
  const byFile = new Map<string, number[]>();
  for (const l of lines) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l.line]);
  const out: BlamedLine[] = [];
  for (const [file, numbers] of byFile) {
    const ranges = numbers.flatMap((n) => ["-L", `${n},${n}`]);
    out.push(...parseBlame(await git(repo, "blame", "--porcelain", "-w", ...ranges, `${fix}^`, "--", file)));
  }
  return out;
}
