// Refactoring-aware SZZ, the pure half: a unified diff's hunks, which files carry no behaviour (tests,
// docs, lock files), which lines say nothing alone (`}`), and whether a commit's change to a line was
// cosmetic (whitespace, formatting, a moved line, an identifier renamed, a type alias expanded), in
// which case the line's behaviour was written before it and the line is followed into the parent.

import { unquoteGitPath } from "@debatekit/core";

/** One hunk of a file's diff: removed lines numbered as the old side has them, added ones as the new. */
export interface Hunk {
  removed: Array<{ line: number; text: string }>;
  added: Array<{ line: number; text: string }>;
}

/** One file of a diff: its path before and after (they differ on a rename) and its hunks. */
export interface FileDiff {
  oldPath?: string;
  newPath?: string;
  hunks: Hunk[];
}

const path = (text: string, prefix: string) =>
  text === "/dev/null" ? undefined : unquoteGitPath(text).replace(new RegExp(`^${prefix}/`), "");

/** Parses `git diff --unified=0` (renames shown as such: a renamed file's unchanged lines are in no hunk). */
export function parseDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let hunk: Hunk | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const text of diff.split("\n")) {
    if (text.startsWith("diff --git ")) {
      file = { hunks: [] };
      files.push(file);
      hunk = undefined;
      continue;
    }
    if (!file) continue;
    if (!hunk && text.startsWith("--- ")) file.oldPath = path(text.slice(4), "a");
    else if (!hunk && text.startsWith("+++ ")) file.newPath = path(text.slice(4), "b");
    else if (text.startsWith("@@ ")) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
      if (!m) continue;
      oldLine = Number(m[1]);
      newLine = Number(m[2]);
      hunk = { removed: [], added: [] };
      file.hunks.push(hunk);
    } else if (hunk && text.startsWith("-")) hunk.removed.push({ line: oldLine++, text: text.slice(1) });
    else if (hunk && text.startsWith("+")) hunk.added.push({ line: newLine++, text: text.slice(1) });
  }
  return files;
}

/** A file that carries no behaviour of the program: tests, docs, lock files, CI and benchmark folders. */
export function isNonCodePath(file: string): boolean {
  const name = file.split("/").at(-1) ?? file;
  return (
    /(^|\/)(tests?|__tests__|spec|__snapshots__|fixtures?|docs?|bench|benchmarks?|\.github|examples?)\//i.test(
      file,
    ) ||
    /\.(test|spec|bench)\.[cm]?[jt]sx?$/i.test(name) ||
    /\.(md|mdx|markdown|txt|rst|snap)$/i.test(name) ||
    /^(license|licence|changelog|authors|contributing)(\.|$)/i.test(name) ||
    ["pnpm-lock.yaml", "package-lock.json", "yarn.lock", "bun.lockb", "npm-shrinkwrap.json"].includes(name)
  );
}

/** A line that says nothing alone: only brackets, parentheses, semicolons and commas (`}`, `});`). */
export function isPunctuation(text: string): boolean {
  return /^[\s{}()[\];,]*$/.test(text);
}

/** A line of a file that carries no behaviour: a package manifest's version, or its test and lint scripts. */
export function isInertLine(file: string, text: string): boolean {
  return (
    /(^|\/)package\.json$/.test(file) && /^\s*"(version|test[\w:-]*|lint[\w:-]*|release)"\s*:/.test(text)
  );
}

/** The line with formatting taken out: no whitespace, one kind of quote, no trailing `;` or `,`. */
export function normalize(text: string): string {
  return text
    .replace(/\s+/g, "")
    .replace(/["`]/g, "'")
    .replace(/[;,]+$/, "");
}

const KEYWORDS = new Set(
  "break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof undefined var void while with yield async await of type interface any unknown never string number boolean object symbol bigint".split(
    " ",
  ),
);
const tokens = (text: string) =>
  text
    .replace(/["`]/g, "'")
    .replace(/[;,]+\s*$/, "")
    .match(/[A-Za-z_$][\w$]*|\d[\w.]*|'[^']*'|"[^"]*"|\S/g) ?? [];
const isIdentifier = (t: string) => /^[A-Za-z_$][\w$]*$/.test(t) && !KEYWORDS.has(t);

/** Whether `after` is `before` with identifiers renamed one-to-one (and nothing else changed). */
function renamedOnly(before: string, after: string, renames: Map<string, string>): boolean {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length !== b.length || a.length === 0) return false;
  const mapping = new Map<string, string>();
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (!isIdentifier(a[i]!) || !isIdentifier(b[i]!)) return false;
    if ((mapping.get(a[i]!) ?? b[i]) !== b[i]) return false;
    mapping.set(a[i]!, b[i]!);
  }
  if (mapping.size === 0) return false;
  return [...mapping].every(([from, to]) => renames.get(from) === to);
}

/**
 * The renames a commit made: an identifier that left every added line and another that appeared in
 * none of the removed ones, paired where a removed line and an added line differ only by them.
 */
function commitRenames(files: readonly FileDiff[]): Map<string, string> {
  const removedIds = new Set<string>();
  const addedIds = new Set<string>();
  for (const f of files)
    for (const h of f.hunks) {
      for (const r of h.removed) for (const t of tokens(r.text)) if (isIdentifier(t)) removedIds.add(t);
      for (const a of h.added) for (const t of tokens(a.text)) if (isIdentifier(t)) addedIds.add(t);
    }
  const renames = new Map<string, string>();
  for (const f of files)
    for (const h of f.hunks)
      for (const r of h.removed)
        for (const a of h.added) {
          const x = tokens(r.text);
          const y = tokens(a.text);
          if (x.length !== y.length) continue;
          x.forEach((t, i) => {
            const u = y[i]!;
            if (t !== u && isIdentifier(t) && isIdentifier(u) && !addedIds.has(t) && !removedIds.has(u))
              renames.set(t, u);
          });
        }
  return renames;
}

/** Type aliases a commit removed or added (`type X = Y`), name -> definition. */
function aliases(files: readonly FileDiff[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files)
    for (const h of f.hunks)
      for (const l of [...h.removed, ...h.added]) {
        const m = /^\s*(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*=\s*(.+?);?\s*$/.exec(l.text);
        if (m) out.set(m[1]!, m[2]!);
      }
  return out;
}

/** `text` with each alias replaced by its definition. */
function expand(text: string, defs: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [name, def] of defs)
    out = out.replace(new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`, "g"), def);
  return out;
}

/** Where a cosmetic change took a line from, in the commit's parent, and what kind of change it was. */
export interface Origin {
  file: string;
  line: number;
  kind: "moved or reformatted" | "formatting" | "identifier renamed" | "type alias expanded";
}

/**
 * Whether the commit whose diff is `files` wrote line `line` of `file` (as the commit has it) only
 * cosmetically; if so, where the line was in the commit's parent. Lines that are only punctuation are
 * never followed (a `}` matches anywhere).
 */
export function cosmeticOrigin(files: readonly FileDiff[], file: string, line: number): Origin | undefined {
  const f = files.find((x) => x.newPath === file);
  const hunk = f?.hunks.find((h) => h.added.some((a) => a.line === line));
  const added = hunk?.added.find((a) => a.line === line);
  if (!f?.oldPath || !hunk || !added || isPunctuation(added.text)) return undefined;
  const target = normalize(added.text);
  // The same line, reformatted, anywhere the commit removed one: moved (or copied and reworded).
  for (const g of files)
    for (const h of g.hunks)
      for (const r of h.removed)
        if (g.oldPath && normalize(r.text) === target)
          return { file: g.oldPath, line: r.line, kind: "moved or reformatted" };
  // The hunk only re-wrapped: the same text, split or joined differently.
  const joined = (ls: ReadonlyArray<{ text: string }>) => ls.map((l) => normalize(l.text)).join("");
  if (hunk.removed.length > 0 && joined(hunk.removed) === joined(hunk.added)) {
    const r = hunk.removed.find((x) => !isPunctuation(x.text) && target.includes(normalize(x.text)));
    return { file: f.oldPath, line: (r ?? hunk.removed[0]!).line, kind: "formatting" };
  }
  const renames = commitRenames(files);
  const renamed = hunk.removed.find((r) => renamedOnly(r.text, added.text, renames));
  if (renamed) return { file: f.oldPath, line: renamed.line, kind: "identifier renamed" };
  const defs = aliases(files);
  if (defs.size > 0) {
    const expanded = hunk.removed.find(
      (r) =>
        normalize(expand(r.text, defs)) === normalize(expand(added.text, defs)) &&
        normalize(r.text) !== target,
    );
    if (expanded) return { file: f.oldPath, line: expanded.line, kind: "type alias expanded" };
  }
  return undefined;
}

/** `a` less `b`, as multisets of tokens. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const t of b) left.set(t, (left.get(t) ?? 0) + 1);
  return a.filter((t) => {
    const n = left.get(t) ?? 0;
    if (n > 0) left.set(t, n - 1);
    return n === 0;
  });
}

/** The share of `a`'s tokens that `b` keeps (multisets). */
function kept(a: readonly string[], b: readonly string[]): number {
  return a.length === 0 ? 0 : (a.length - minus(a, b).length) / a.length;
}

/** The line of `candidates` that keeps most of `text`'s tokens, when it keeps at least half of them. */
function pairOf<T extends { text: string }>(text: string, candidates: readonly T[]): T | undefined {
  const mine = tokens(text);
  let best: T | undefined;
  let score = 0.5;
  for (const c of candidates) {
    const s = kept(mine, tokens(c.text));
    if (s >= score && !isPunctuation(c.text)) [best, score] = [c, s + 1e-9];
  }
  return best;
}

/** What a fix did to a line it edited in place: the tokens it took out and those it put in. */
export interface TokenChange {
  out: string[];
  in: string[];
}

/**
 * What a fix did to a line it edited in place (the line it wrote instead keeps at least half of the
 * old line's tokens): `x.at(-1)` -> `x.endsWith(...)` took out `at`, `-`, `1` and put in `endsWith`...
 * Undefined when the fix replaced or deleted the line whole.
 */
export function tokensFixed(hunk: Hunk, removed: string): TokenChange | undefined {
  const after = pairOf(removed, hunk.added);
  if (!after) return undefined;
  return { out: minus(tokens(removed), tokens(after.text)), in: minus(tokens(after.text), tokens(removed)) };
}

/**
 * Whether the commit whose diff is `files` edited line `line` of `file` in place without writing a
 * token the fix took out nor dropping one the fix put back: then the defect was in the line before
 * it, and the line is followed into the commit's parent. Undefined when the commit wrote the line
 * new, or wrote or dropped what the fix changed.
 */
export function untouchedOrigin(
  files: readonly FileDiff[],
  file: string,
  line: number,
  fixed: TokenChange,
): { file: string; line: number } | undefined {
  const f = files.find((x) => x.newPath === file);
  const hunk = f?.hunks.find((h) => h.added.some((a) => a.line === line));
  const added = hunk?.added.find((a) => a.line === line);
  if (!f?.oldPath || !hunk || !added) return undefined;
  const before = pairOf(added.text, hunk.removed);
  if (!before) return undefined;
  const wrote = minus(tokens(added.text), tokens(before.text));
  const dropped = minus(tokens(before.text), tokens(added.text));
  // Put back: only words count (a restored `*` or `(` says little; a restored `declare` says much).
  const restored = fixed.in.filter((t) => /^[A-Za-z_$]/.test(t));
  // A fix that only changed punctuation (`>` -> `>=`) says too little to look past the line's writer.
  if (fixed.out.length === 0 && restored.length === 0) return undefined;
  const touched =
    minus(fixed.out, wrote).length < fixed.out.length || minus(restored, dropped).length < restored.length;
  return touched ? undefined : { file: f.oldPath, line: before.line };
}
