import type { GateEvalCase, GateEvalDefect } from "@debatekit/schema";
import {
  blameOnParent,
  changeSize,
  DEFAULT_FIX_PATTERNS,
  isFixCommit,
  type LoggedCommit,
  readLog,
  removedByFix,
  revertedCommit,
} from "./szz.js";

/** What `debate gate eval build` reads. */
export interface BuildOptions {
  /** The repository on disk. */
  repo: string;
  /** How the cases name the repository (a path relative to the set file, or absolute). */
  repoRef: string;
  /** The history's tip (default HEAD). */
  rev?: string;
  /** Only commits since this date (git's syntax: 2024-01-01, "6 months ago"). */
  since?: string;
  /** At most this many bad cases (and as many good ones). */
  max?: number;
  /** Regular expressions (case-insensitive) a bug-fixing commit's message matches; default DEFAULT_FIX_PATTERNS. */
  patterns?: readonly string[];
  /** A commit touching more files than this is huge: never a fix nor a suspect (default 20). */
  maxFiles?: number;
  /** A commit changing more lines than this is huge (default 500). */
  maxLines?: number;
}

/** The labelled set and why some commits were left out (one line each). */
export interface BuiltSet {
  cases: GateEvalCase[];
  notes: string[];
}

const short = (sha: string) => sha.slice(0, 7);

/** Builds a labelled set from a repository's own history by SZZ, with as many good cases as bad ones. */
export async function buildEvalSet(options: BuildOptions): Promise<BuiltSet> {
  const patterns = (options.patterns ?? DEFAULT_FIX_PATTERNS).map((p) => new RegExp(p, "im"));
  const log = await readLog(options.repo, options.rev ?? "HEAD", options.since);
  const byShort = new Map(log.map((c) => [c.sha, c]));
  const notes: string[] = [];
  const huge = async (sha: string) => {
    const size = await changeSize(options.repo, sha);
    return size.files > (options.maxFiles ?? 20) || size.lines > (options.maxLines ?? 500) ? size : undefined;
  };
  const bad = new Map<string, GateEvalCase>();
  const fixes = new Set<string>();
  // Oldest fix first: a change blamed by two fixes is labelled with the first that fixed it.
  for (const fix of [...log].reverse().filter((c) => isFixCommit(c, patterns))) {
    fixes.add(fix.sha);
    const found = await suspectsOf(options.repo, fix, huge, notes);
    for (const [sha, lines] of found) {
      const suspect = byShort.get(sha) ?? [...byShort.values()].find((c) => c.sha.startsWith(sha));
      if (!suspect) {
        notes.push(`${short(fix.sha)}: blamed ${short(sha)}, outside the history read (--since): skipped`);
        continue;
      }
      const why = await unusable(suspect, huge);
      if (why) {
        notes.push(`${short(fix.sha)}: blamed ${short(sha)}, ${why}: skipped`);
        continue;
      }
      const known = bad.get(suspect.sha);
      if (known) {
        known.reasons.push(`also fixed by ${short(fix.sha)} "${fix.subject}"`);
        continue;
      }
      bad.set(suspect.sha, badCase(options.repoRef, suspect, fix, lines));
    }
  }
  const cases = [...bad.values()].slice(0, options.max ?? Number.POSITIVE_INFINITY);
  const good = await goodCases(options, log, new Set([...bad.keys(), ...fixes]), cases.length, huge);
  return { cases: [...cases, ...good], notes };
}

/** The commits a fix blames (sha -> the lines, as each suspect has them); notes why a fix yields none. */
async function suspectsOf(
  repo: string,
  fix: LoggedCommit,
  huge: (sha: string) => Promise<{ files: number; lines: number } | undefined>,
  notes: string[],
): Promise<Map<string, GateEvalDefect[]>> {
  const found = new Map<string, GateEvalDefect[]>();
  const reverted = revertedCommit(fix);
  if (reverted) {
    // A revert names the change it undoes: that change is the suspect, with no line to point at.
    found.set(reverted, []);
    return found;
  }
  if (fix.parents.length !== 1) {
    notes.push(
      `${short(fix.sha)}: a ${fix.parents.length === 0 ? "root" : "merge"} commit, never a fix: skipped`,
    );
    return found;
  }
  const size = await huge(fix.sha);
  if (size) {
    notes.push(`${short(fix.sha)}: huge (${size.files} files, ${size.lines} lines), never a fix: skipped`);
    return found;
  }
  const removed = await removedByFix(repo, fix.sha);
  if (removed.length === 0) {
    notes.push(`${short(fix.sha)}: only adds lines (or changes whitespace and comments): no suspect`);
    return found;
  }
  for (const line of await blameOnParent(repo, fix.sha, removed))
    found.set(line.suspect, [...(found.get(line.suspect) ?? []), { file: line.file, line: line.line }]);
  return found;
}

/** Why a commit cannot be a case (a merge, the root, huge), or undefined. */
async function unusable(
  commit: LoggedCommit,
  huge: (sha: string) => Promise<{ files: number; lines: number } | undefined>,
): Promise<string | undefined> {
  if (commit.parents.length > 1) return "a merge commit";
  if (commit.parents.length === 0) return "the root commit (no base to compare with)";
  const size = await huge(commit.sha);
  return size ? `huge (${size.files} files, ${size.lines} lines)` : undefined;
}

function badCase(
  repoRef: string,
  suspect: LoggedCommit,
  fix: LoggedCommit,
  defects: GateEvalDefect[],
): GateEvalCase {
  const where = defects.map((d) => `${d.file}:${d.line}`).join(", ");
  return {
    id: `bad-${short(suspect.sha)}`,
    repo: repoRef,
    base: suspect.parents[0]!,
    head: suspect.sha,
    label: "bad",
    fix: fix.sha,
    ...(defects.length > 0 ? { defects } : {}),
    reasons: [
      `fixed by ${short(fix.sha)} "${fix.subject}"`,
      defects.length > 0
        ? `the fix removed or changed ${where}, written by this change`
        : "the fix reverts this change",
    ],
  };
}

/**
 * `count` good cases: ordinary commits (not merges, the root, huge, a fix, or blamed by one), taken
 * evenly over the history so a set is the same every time it is built.
 */
async function goodCases(
  options: BuildOptions,
  log: readonly LoggedCommit[],
  excluded: ReadonlySet<string>,
  count: number,
  huge: (sha: string) => Promise<{ files: number; lines: number } | undefined>,
): Promise<GateEvalCase[]> {
  const candidates: LoggedCommit[] = [];
  for (const c of log) if (!excluded.has(c.sha) && !(await unusable(c, huge))) candidates.push(c);
  const step = candidates.length / Math.max(count, 1);
  const picked = Array.from(
    { length: Math.min(count, candidates.length) },
    (_, i) => candidates[Math.floor(i * step)]!,
  );
  return picked.map((c) => ({
    id: `good-${short(c.sha)}`,
    repo: options.repoRef,
    base: c.parents[0]!,
    head: c.sha,
    label: "good" as const,
    reasons: [`no fixing commit removed or changed a line of this change ("${c.subject}")`],
  }));
}
