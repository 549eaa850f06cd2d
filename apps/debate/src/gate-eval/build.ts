import type { GateEvalCase, GateEvalDefect } from "@debatekit/schema";
import { type FileDiff, isPunctuation } from "./cosmetic.js";
import { classifyFix, DEFAULT_FIX_PATTERNS, type FixDecision, type IssueLabels } from "./fix-commits.js";
import {
  blameOnParent,
  changeSize,
  commitDiff,
  type LoggedCommit,
  passCosmetic,
  readLog,
  removedByFix,
  revertedCommit,
  type TracedLine,
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
  /** Regular expressions (case-insensitive) of fix words a bug-fixing commit's subject has; default DEFAULT_FIX_PATTERNS. */
  patterns?: readonly string[];
  /** Also look for fix words in a commit's body (off by default: squashed pull requests list every commit). */
  fixInBody?: boolean;
  /** The tracker's labels per issue: a commit referring to an issue labelled as a bug is a fix. */
  issues?: IssueLabels;
  /** A commit touching more files than this is huge: never a fix nor a suspect (default 20). */
  maxFiles?: number;
  /** A commit changing more lines than this is huge (default 500). */
  maxLines?: number;
}

/** The labelled set and why some commits were left out (one line each). */
export interface BuiltSet {
  cases: GateEvalCase[];
  notes: string[];
  /** Every commit taken for a bug fix (merges and the root included), oldest first, and why. */
  fixes: Array<{ sha: string; subject: string; reasons: string[] }>;
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
  const taken: BuiltSet["fixes"] = [];
  const fixOptions = {
    patterns,
    ...(options.fixInBody ? { body: true } : {}),
    ...(options.issues ? { issues: options.issues } : {}),
  };
  const diffs = new Map<string, Promise<FileDiff[] | undefined>>();
  const diffOf = (sha: string) => {
    if (!diffs.has(sha)) diffs.set(sha, commitDiff(options.repo, sha));
    return diffs.get(sha)!;
  };
  // Oldest fix first: a change blamed by two fixes is labelled with the first that fixed it.
  for (const fix of [...log].reverse()) {
    const decision = classifyFix(fix, fixOptions);
    if (!decision.fix) continue;
    fixes.add(fix.sha);
    taken.push({ sha: fix.sha, subject: fix.subject, reasons: decision.reasons });
    const found = await suspectsOf(options.repo, fix, { huge, notes, diffOf });
    for (const [sha, lines] of found) {
      const suspect = byShort.get(sha) ?? [...byShort.values()].find((c) => c.sha.startsWith(sha));
      if (!suspect) {
        const where = options.since
          ? "outside the history read (--since)"
          : `not in the history of ${options.rev ?? "HEAD"}`;
        notes.push(`${short(fix.sha)}: blamed ${short(sha)}, ${where}: skipped`);
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
      bad.set(suspect.sha, badCase(options.repoRef, suspect, fix, decision, lines));
    }
  }
  const cases = [...bad.values()].slice(0, options.max ?? Number.POSITIVE_INFINITY);
  const good = await goodCases(options, log, new Set([...bad.keys(), ...fixes]), cases.length, huge);
  return { cases: [...cases, ...good], notes, fixes: taken };
}

/** What a fix blames on one commit: the lines (as that commit has them) and the cosmetic commits passed over to reach it. */
interface Suspect {
  defects: GateEvalDefect[];
  passed: string[];
}

type Huge = (sha: string) => Promise<{ files: number; lines: number } | undefined>;

/** The commits a fix blames (sha -> its lines); notes why a fix yields none. */
async function suspectsOf(
  repo: string,
  fix: LoggedCommit,
  tools: { huge: Huge; notes: string[]; diffOf: (sha: string) => Promise<FileDiff[] | undefined> },
): Promise<Map<string, Suspect>> {
  const { huge, notes } = tools;
  const found = new Map<string, Suspect>();
  const reverted = revertedCommit(fix);
  if (reverted) {
    // A revert names the change it undoes: that change is the suspect, with no line to point at.
    found.set(reverted, { defects: [], passed: [] });
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
    notes.push(
      `${short(fix.sha)}: only adds lines (or changes whitespace, comments, tests, docs or lock files): no suspect`,
    );
    return found;
  }
  const traced: TracedLine[] = [];
  const blamed = await blameOnParent(repo, fix.sha, removed);
  for (const line of blamed) traced.push(await passCosmetic(repo, line, tools.diffOf, line.fixed));
  for (const line of traced) {
    const s = found.get(line.suspect) ?? { defects: [], passed: [] };
    s.defects.push({ file: line.file, line: line.line });
    for (const p of line.passed) s.passed.push(`${short(p.sha)} (${p.kind})`);
    found.set(line.suspect, s);
  }
  // A suspect blamed only for lines like `}` is no suspect: such a line says nothing alone.
  for (const [sha] of found) {
    const lines = traced.filter((l) => l.suspect === sha);
    if (lines.every((l) => isPunctuation(l.text))) {
      found.delete(sha);
      notes.push(`${short(fix.sha)}: blamed ${short(sha)} only for punctuation lines: skipped`);
    }
  }
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
  decision: FixDecision,
  found: Suspect,
): GateEvalCase {
  const { defects, passed } = found;
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
      `a fix because ${decision.reasons.join("; ")}`,
      ...(passed.length > 0 ? [`passed over cosmetic changes: ${[...new Set(passed)].join(", ")}`] : []),
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
