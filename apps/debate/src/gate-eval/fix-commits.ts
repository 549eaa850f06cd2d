// Which commits fix a bug: decided by the subject line (conventional-commit types, fix words), never
// by a squashed pull request's body unless asked; issue references count with a fix word, or with a
// bug label from the tracker's data. Pure functions: no git here.
import type { LoggedCommit } from "./szz.js";

/** Fix words a subject line may carry: fix, fixes, fixed, fixing, bug, bugfix, hotfix. */
export const DEFAULT_FIX_PATTERNS = ["\\b(hot|bug)?fix(e[sd]|ing)?\\b", "\\bbugs?\\b"];

/** Conventional-commit types that are never a fix, whatever the message says. */
export const NOT_FIX_TYPES = ["feat", "docs", "chore", "test", "build", "ci", "perf", "refactor", "style"];

/** Scopes of a `fix(...)` that are no bug fix: dependency bumps, docs, tests, CI. */
export const NOT_FIX_SCOPES = ["deps", "deps-dev", "docs", "readme", "test", "tests", "ci", "release"];

/** How a commit was judged: a fix or not, and why (each reason one short sentence). */
export interface FixDecision {
  fix: boolean;
  reasons: string[];
}

/** An issue tracker's labels: issue number -> its labels. */
export type IssueLabels = ReadonlyMap<number, readonly string[]>;

export interface FixOptions {
  /** Case-insensitive regular expressions of fix words; default DEFAULT_FIX_PATTERNS. */
  patterns: readonly RegExp[];
  /** Also look in the body (off by default: squashed pull requests list every commit's subject). */
  body?: boolean;
  /** The tracker's data: a commit referring to an issue labelled as a bug is a fix. */
  issues?: IssueLabels;
}

/** A conventional-commit subject's parts (`fix(parser)!: text`), or undefined. */
export function conventional(subject: string): { type: string; scope?: string; text: string } | undefined {
  const m = /^([a-z]+)(?:\(([^)]*)\))?!?:\s*(.*)$/i.exec(subject.trim());
  if (!m) return undefined;
  return { type: m[1]!.toLowerCase(), ...(m[2] ? { scope: m[2].toLowerCase() } : {}), text: m[3]! };
}

/** The subject a revert names: `Revert "x"` or `revert: x`, or undefined when it is no revert. */
export function revertedSubject(subject: string): string | undefined {
  const quoted = /^Revert "(.*)"\s*$/.exec(subject.trim());
  if (quoted) return quoted[1];
  const c = conventional(subject);
  return c?.type === "revert" ? c.text.replace(/^"(.*)"$/, "$1") : undefined;
}

/** Issue numbers a text refers to (`#12`, `fixes #12`, `owner/repo#12`). */
export function issueRefs(text: string): number[] {
  return [
    ...new Set([...text.matchAll(/(?:^|[\s(,[])(?:[\w.-]+\/[\w.-]+)?#(\d+)\b/g)].map((m) => Number(m[1]))),
  ];
}

const BUG_LABEL = /\b(bug|defect|regression|crash)\b/i;

/** Whether the subject (the text after a conventional type, if any) has a fix word. */
function fixWord(text: string, patterns: readonly RegExp[]): RegExp | undefined {
  return patterns.find((p) => p.test(text));
}

/** Decides whether `commit` fixes a bug, by its subject line first. */
export function classifyFix(commit: LoggedCommit, options: FixOptions): FixDecision {
  const reverted = revertedSubject(commit.subject);
  if (reverted !== undefined) {
    // A revert of a fix says the fix was wrong: the fix is the suspect. Other reverts are policy.
    const inner = classifyFix({ ...commit, subject: reverted, body: "" }, { patterns: options.patterns });
    return inner.fix
      ? { fix: true, reasons: [`subject: a revert of a fix ("${reverted}")`] }
      : { fix: false, reasons: [`subject: a revert of a change that is no fix ("${reverted}")`] };
  }
  const c = conventional(commit.subject);
  if (c && NOT_FIX_TYPES.includes(c.type))
    return { fix: false, reasons: [`subject: type ${c.type}, never a fix`] };
  if (c?.type === "fix" && c.scope && NOT_FIX_SCOPES.includes(c.scope))
    return { fix: false, reasons: [`subject: fix(${c.scope}), a ${c.scope} change, not a bug fix`] };
  if (c?.type === "fix" && /^revert\b/i.test(c.text))
    return { fix: false, reasons: [`subject: a revert ("${c.text}") that names no fix it undoes`] };
  if (c?.type === "fix") return { fix: true, reasons: [`subject: type fix${c.scope ? `(${c.scope})` : ""}`] };
  // Any other type ("types:", "oops:") is read with the rest of the subject.
  const word = fixWord(commit.subject, options.patterns);
  if (word) return { fix: true, reasons: [`subject: matches /${word.source}/`] };
  const labelled = bugIssue(commit, options);
  if (labelled) return { fix: true, reasons: [labelled] };
  if (options.body) {
    const line = commit.body
      .split("\n")
      .slice(commit.body.startsWith(commit.subject) ? 1 : 0)
      .find((l) => fixWord(l, options.patterns) && !/^\s*[-*]?\s*(feat|docs|chore|test|build|ci)\b/i.test(l));
    if (line) return { fix: true, reasons: [`body (--fix-in-body): "${line.trim().slice(0, 120)}"`] };
  }
  return { fix: false, reasons: ["subject: no fix word"] };
}

/** A reason when the commit refers to an issue the tracker labels as a bug. */
function bugIssue(commit: LoggedCommit, options: FixOptions): string | undefined {
  if (!options.issues) return undefined;
  const text = options.body ? `${commit.subject}\n${commit.body}` : commit.subject;
  for (const n of issueRefs(text)) {
    const label = options.issues.get(n)?.find((l) => BUG_LABEL.test(l));
    if (label) return `the tracker labels #${n} "${label}" (--issues)`;
  }
  return undefined;
}

/**
 * Reads an issue tracker's export: JSON Lines, one issue a line, `{"number": 12, "labels": ["bug"]}`
 * (labels may also be objects with a `name`, as GitHub's API gives them). Errors name the line and field.
 */
export function parseIssueLabels(text: string, file: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const where = `${file}:${i + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      throw new Error(`${where}: not JSON`);
    }
    const { number, labels } = (data ?? {}) as { number?: unknown; labels?: unknown };
    if (!Number.isInteger(number) || (number as number) < 1)
      throw new Error(`${where}: field \`number\` must be a positive integer`);
    if (!Array.isArray(labels)) throw new Error(`${where}: field \`labels\` must be a list`);
    const names = labels.map((l: unknown) =>
      typeof l === "object" && l ? (l as { name?: unknown }).name : l,
    );
    if (names.some((n) => typeof n !== "string"))
      throw new Error(`${where}: field \`labels\` must hold strings or objects with a string \`name\``);
    out.set(number as number, names as string[]);
  });
  return out;
}
