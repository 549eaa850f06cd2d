// SZZ (Sliwerski, Zimmermann, Zeller): a bug-fixing commit's removed or changed lines, blamed on the
// fix's parent, name the commits that introduced the bug. Pure parsing here; git.ts runs git.
import { unquoteGitPath } from "@debatekit/core";
import {
  cosmeticOrigin,
  type FileDiff,
  isInertLine,
  isNonCodePath,
  type Origin,
  parseDiff,
  type TokenChange,
  tokensFixed,
  untouchedOrigin,
} from "./cosmetic.js";
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
  /** When the fix edited the line in place: the tokens it took out and put in (the defect is among them). */
  fixed?: TokenChange;
}

/** A commit blamed for a line a fix removed: where the line was in that commit. */
export interface BlamedLine {
  suspect: string;
  file: string;
  line: number;
  text: string;
  /** The line's number in the blamed revision (the fix's parent). */
  final: number;
}

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

/** The commit a revert's message names (`This reverts commit X.`), if any. */
export function revertedCommit(commit: LoggedCommit): string | undefined {
  return /This reverts commit ([0-9a-f]{7,40})/.exec(commit.body)?.[1];
}

/** A line that carries no behaviour: blank or a comment (`//`, `#`, `/*`, `*`, `--`). */
export function isCommentOrBlank(text: string): boolean {
  const t = text.trim();
  return t === "" || /^(\/\/|#|\/\*|\*|--|<!--)/.test(t);
}

/** Parses `git blame --porcelain`: for each line, the commit it comes from and its line and file there. */
export function parseBlame(text: string): BlamedLine[] {
  const files = new Map<string, string>();
  const out: BlamedLine[] = [];
  let current: { suspect: string; line: number; final: number } | undefined;
  for (const row of text.split("\n")) {
    const head = /^([0-9a-f]{40}) (\d+) (\d+)/.exec(row);
    if (head) {
      current = { suspect: head[1]!, line: Number(head[2]), final: Number(head[3]) };
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

/** Options of git diff and git blame on a handed repository: no external diff or text conversion. */
const DIFF = ["--unified=0", "--no-color", "--no-ext-diff", "--no-textconv"];

/**
 * The lines `fix` removed or changed, as its parent has them: whitespace ignored, renames followed (a
 * renamed file's unchanged lines are not removed), and nothing from files that carry no behaviour
 * (tests, docs, lock files) nor blank or comment lines.
 */
export async function removedByFix(repo: string, fix: string): Promise<RemovedLine[]> {
  const files = parseDiff(await git(repo, "diff", ...DIFF, "-w", "-M", `${fix}^`, fix, "--"));
  return files.flatMap((f) =>
    f.oldPath === undefined || isNonCodePath(f.oldPath)
      ? []
      : f.hunks.flatMap((h) =>
          h.removed
            .filter((r) => !isCommentOrBlank(r.text) && !isInertLine(f.oldPath!, r.text))
            .map((r) => {
              const fixed = tokensFixed(h, r.text);
              return { file: f.oldPath!, ...r, ...(fixed ? { fixed } : {}) };
            }),
        ),
  );
}

/** `git blame` of one line at `rev`: whitespace, moves and copies ignored (-w -M -C). */
export async function blameLine(
  repo: string,
  rev: string,
  file: string,
  line: number,
): Promise<BlamedLine[]> {
  return parseBlame(
    await git(repo, "blame", "--porcelain", "-w", "-M", "-C", "-L", `${line},${line}`, rev, "--", file),
  );
}

/** Blames `lines` on `fix`'s parent (whitespace, moves and copies ignored), one `git blame` per file. */
export async function blameOnParent(
  repo: string,
  fix: string,
  lines: readonly RemovedLine[],
): Promise<Array<BlamedLine & { fixed?: TokenChange }>> {
  const byFile = new Map<string, number[]>();
  for (const l of lines) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l.line]);
  const out: BlamedLine[] = [];
  for (const [file, numbers] of byFile) {
    const ranges = numbers.flatMap((n) => ["-L", `${n},${n}`]);
    const blamed = parseBlame(
      await git(repo, "blame", "--porcelain", "-w", "-M", "-C", ...ranges, `${fix}^`, "--", file),
    );
    for (const b of blamed) {
      const asked = lines.find((l) => l.file === file && l.line === b.final);
      out.push({ ...b, ...(asked?.fixed ? { fixed: asked.fixed } : {}) });
    }
  }
  return out;
}

/** A blamed line followed past cosmetic changes, and the commits passed over (why, for the reasons). */
export interface TracedLine extends BlamedLine {
  passed: Array<{ sha: string; kind: Origin["kind"] | "did not write what the fix changed" }>;
}

/**
 * Follows a blamed line back while the commit blamed for it changed it only cosmetically (whitespace,
 * formatting, a move, an identifier renamed, a type alias expanded): the commit before it wrote the
 * behaviour. At most `hops` steps; a root commit ends the walk (its line stays blamed on it).
 */
export async function passCosmetic(
  repo: string,
  blamed: BlamedLine,
  diffOf: (sha: string) => Promise<FileDiff[] | undefined>,
  fixed?: TokenChange,
  hops = 5,
): Promise<TracedLine> {
  let at: TracedLine = { ...blamed, passed: [] };
  for (let i = 0; i < hops; i++) {
    const files = await diffOf(at.suspect);
    const cosmetic = files && cosmeticOrigin(files, at.file, at.line);
    const untouched =
      files && !cosmetic && fixed ? untouchedOrigin(files, at.file, at.line, fixed) : undefined;
    const origin =
      cosmetic ?? (untouched && { ...untouched, kind: "did not write what the fix changed" as const });
    if (!origin) break;
    const [before] = await blameLine(repo, `${at.suspect}^`, origin.file, origin.line).catch(() => []);
    if (!before) break;
    at = { ...before, passed: [...at.passed, { sha: at.suspect, kind: origin.kind }] };
  }
  return at;
}

/** A commit's own diff against its first parent (no whitespace ignored: formatting is judged here), or undefined for a root. */
export async function commitDiff(repo: string, sha: string): Promise<FileDiff[] | undefined> {
  const parents = (await git(repo, "rev-list", "--parents", "-n", "1", sha, "--")).trim().split(" ");
  if (parents.length < 2) return undefined;
  return parseDiff(await git(repo, "diff", ...DIFF, "-M", `${sha}^`, sha, "--"));
}
