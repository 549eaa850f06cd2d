import { lstat, readFile, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { DebatekitError } from "@debatekit/core";
import { GitError, gitText, nulFields } from "../git.js";

/** A review's git scope, as `--scope` names it (docs/architecture.md#formats). */
export type ReviewScope =
  | { kind: "uncommitted" }
  | { kind: "commit"; sha: string }
  | { kind: "base"; branch: string }
  | { kind: "range"; from: string; to: string }
  | { kind: "file"; path: string };

/** The artifact of a scope and how to read the repository at the scope's revision (for evidence checks). */
export interface ScopeSnapshot {
  /** Markdown for artifact/v1.md. */
  artifact: string;
  /** The revision evidence is checked against (`WORKTREE` for uncommitted changes and files). */
  revision: string;
  /** Repository-relative paths the scope touches. */
  files: string[];
  /** A file's text at the revision, or undefined when it does not exist there. */
  readFile(path: string): Promise<string | undefined>;
}

const MAX_FILE = 1_000_000;
// A ref never starts with `-` (it would be read as an option) and has no whitespace or control characters.
const REF = /^(?!-)[A-Za-z0-9._/@^~{}-]{1,200}$/;

function scopeError(message: string): DebatekitError {
  return new DebatekitError("REVIEW_SCOPE_INVALID", message, { field: "--scope", exitCode: 2 });
}

/** Parses `uncommitted | commit:SHA | base:BRANCH | range:A..B | file:PATH`; REVIEW_SCOPE_INVALID names what is wrong. */
export function parseScope(text: string): ReviewScope {
  const example = "uncommitted, commit:abc123, base:main, range:v1..v2 or file:src/a.ts";
  if (text === "uncommitted") return { kind: "uncommitted" };
  const m = /^(commit|base|range|file):(.+)$/.exec(text);
  if (!m)
    throw scopeError(`expected --scope to be one of ${example}, found ${JSON.stringify(text.slice(0, 100))}`);
  const value = m[2]!;
  const ref = (r: string) => {
    if (!REF.test(r))
      throw scopeError(
        `--scope ${m[1]}: ${JSON.stringify(r.slice(0, 100))} is not a git ref (e.g. ${example})`,
      );
    return r;
  };
  switch (m[1]) {
    case "commit":
      return { kind: "commit", sha: ref(value) };
    case "base":
      return { kind: "base", branch: ref(value) };
    case "range": {
      const parts = value.split("..");
      if (parts.length !== 2 || !parts[0] || !parts[1])
        throw scopeError(`--scope range: expected A..B, found ${JSON.stringify(value.slice(0, 100))}`);
      return { kind: "range", from: ref(parts[0]), to: ref(parts[1]) };
    }
    default:
      if (isAbsolute(value) || value.split(/[\\/]/).includes(".."))
        throw scopeError(
          `--scope file: expected a path inside the repository, found ${JSON.stringify(value.slice(0, 100))}`,
        );
      return { kind: "file", path: value };
  }
}

/** The most a scope's diff may print: a larger change is not reviewed (the artifact holds at most 1 MB anyway). */
const MAX_DIFF = 20 * MAX_FILE;

/** `git args` through the shared runner (nothing the repository configures runs); REVIEW_GIT_FAILED says why not. */
async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return await gitText(cwd, args, { maxBytes: MAX_DIFF });
  } catch (error) {
    const reason = error instanceof GitError ? error.reason : String(error);
    const why = reason.startsWith("printed more than")
      ? `${reason}: the change is too large to review (at most ${MAX_DIFF / 1_000_000} MB of diff); review a smaller range`
      : reason.slice(0, 200);
    throw new DebatekitError("REVIEW_GIT_FAILED", `git ${args[0]} failed: ${why}`, {
      field: "--scope",
      cause: error,
    });
  }
}

/** The commit `ref` names; a ref the repository lacks is named in the error, not only git's words. */
async function resolveCommit(root: string, ref: string): Promise<string> {
  try {
    return (await git(root, ["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`])).trim();
  } catch (error) {
    throw scopeError(`--scope: no commit named \`${ref}\` in the repository (${(error as Error).message})`);
  }
}

/**
 * The text files a change adds or modifies (deleted and binary files left out), read with `-z` so any
 * name comes back as it is (a space, a quote, `résumé.ts`): `diffArgs` names the change (`A B`, `HEAD`).
 */
async function changedFiles(root: string, diffArgs: string[]): Promise<string[]> {
  const out = await git(root, [
    "diff",
    "--numstat",
    "-z",
    "--no-renames",
    "--diff-filter=d",
    ...diffArgs,
    "--",
  ]);
  // Each record is `added<TAB>removed<TAB>path<NUL>`; a binary file counts `-` lines.
  return nulFields(out).flatMap((record) => {
    const [added, removed, ...path] = record.split("\t");
    return added === "-" && removed === "-" ? [] : [path.join("\t")];
  });
}

/** A commit's parent, or the empty tree for a root commit (what `git show` compares it with). */
async function parentOrEmpty(root: string, sha: string): Promise<string> {
  return resolveCommit(root, `${sha}^`).catch(() =>
    git(root, ["hash-object", "-t", "tree", "/dev/null"]).then((t) => t.trim()),
  );
}

/** Reads the scope through real git (no shell): the diff or file as artifact/v1.md's text, and the repository at its revision. */
export async function snapshotScope(cwd: string, scope: ReviewScope): Promise<ScopeSnapshot> {
  const root = (await git(cwd, ["rev-parse", "--show-toplevel"])).trim();
  const atWorktree = async (path: string): Promise<string | undefined> => {
    const full = join(root, path);
    try {
      const real = await realpath(full);
      const inside = relative(await realpath(root), real);
      if (inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside)) return undefined;
      const info = await lstat(real);
      if (!info.isFile() || info.size > MAX_FILE) return undefined;
      return await readFile(real, "utf8");
    } catch {
      return undefined;
    }
  };
  const atRevision = (revision: string) => async (path: string) => {
    if (path.split("/").includes("..")) return undefined;
    try {
      return await gitText(root, ["show", `${revision}:${path}`], { maxBytes: MAX_FILE });
    } catch {
      return undefined;
    }
  };
  const fenced = (title: string, lang: string, body: string) =>
    `# ${title}\n\n\`\`\`${lang}\n${body.replace(/\n?$/, "\n")}\`\`\`\n`;
  if (scope.kind === "file") {
    const text = await atWorktree(scope.path);
    if (text === undefined)
      throw scopeError(`--scope file: ${scope.path} is not a readable file of the repository`);
    return {
      artifact: fenced(`File ${scope.path}`, scope.path.split(".").pop() ?? "", text),
      revision: "WORKTREE",
      files: [scope.path],
      readFile: atWorktree,
    };
  }
  let diff: string;
  let revision: string;
  let title: string;
  let range: string[];
  if (scope.kind === "uncommitted") {
    range = ["HEAD"];
    diff = await git(root, ["diff", "--no-color", "HEAD", "--"]);
    revision = "WORKTREE";
    title = "Uncommitted changes";
  } else if (scope.kind === "commit") {
    revision = await resolveCommit(root, scope.sha);
    range = [await parentOrEmpty(root, revision), revision];
    diff = await git(root, ["show", "--no-color", "--format=commit %H%n%n%B", revision, "--"]);
    title = `Commit ${revision.slice(0, 12)}`;
  } else if (scope.kind === "base") {
    await resolveCommit(root, scope.branch);
    revision = (await git(root, ["rev-parse", "HEAD"])).trim();
    range = [`${scope.branch}...HEAD`];
    diff = await git(root, ["diff", "--no-color", `${scope.branch}...HEAD`, "--"]);
    title = `Changes since ${scope.branch}`;
  } else {
    await resolveCommit(root, scope.from);
    revision = await resolveCommit(root, scope.to);
    range = [`${scope.from}..${scope.to}`];
    diff = await git(root, ["diff", "--no-color", `${scope.from}..${scope.to}`, "--"]);
    title = `Range ${scope.from}..${scope.to}`;
  }
  if (!diff.trim()) throw scopeError(`the scope has no changes to review (${title.toLowerCase()})`);
  return {
    artifact: fenced(title, "diff", diff),
    revision,
    files: await changedFiles(root, range),
    readFile: revision === "WORKTREE" ? atWorktree : atRevision(revision),
  };
}
