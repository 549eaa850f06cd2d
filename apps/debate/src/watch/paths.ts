import type { Stats } from "node:fs";
import { basename, dirname } from "node:path";
import { formatList } from "@debatekit/core";

/** The file that makes a folder a debate. */
export const debateFile = "debate.md";

/**
 * Folders the watcher never enters: the runner's own output (`.debate/` journal and lock,
 * `prompts/`, every format's record folders: `arguments/`, `turns/`) and trees that are never debates. Ignoring the runner's output at the
 * source is the first half of "the watcher ignores its own writes"; the second is the comparison
 * of debate.md's fingerprint with the one the runner's commit left (see watcher.ts). Read at call
 * time: a format registered from the config file is in the registry only after start-up.
 */
let skipped: { formats: number; names: Set<string> } | undefined;
function skippedFolders(): Set<string> {
  const all = formatList();
  if (skipped?.formats !== all.length) {
    const names = new Set([".debate", "prompts", ...all.flatMap((f) => f.folders), "node_modules", ".git"]);
    skipped = { formats: all.length, names };
  }
  return skipped.names;
}

/** What a changed path means to the watcher. */
export type WatchedPath =
  | { kind: "debate"; dir: string }
  | { kind: "inbox"; dir: string; name: string }
  | { kind: "other" };

/** True for a name the manual seat reads as an answer (not an editor's or a tool's temp file). */
export function isAnswerName(name: string): boolean {
  // The manual seat reads inbox/<stem>.md or .json; editors' and tools' temp files are not answers.
  return !name.startsWith(".") && (name.endsWith(".md") || name.endsWith(".json"));
}

/** Classifies a path reported by chokidar: a debate's debate.md, an answer in a debate's inbox/, or neither. */
export function classifyPath(path: string): WatchedPath {
  const name = basename(path);
  if (name === debateFile) return { kind: "debate", dir: dirname(path) };
  const parent = dirname(path);
  if (basename(parent) === "inbox" && isAnswerName(name))
    return { kind: "inbox", dir: dirname(parent), name };
  return { kind: "other" };
}

/**
 * chokidar's `ignored` test. chokidar asks first with the path alone, then with its stats: without
 * stats only skipped folder names are ruled out, so directories are still entered; with stats a
 * file is kept only when it is a debate.md or an answer in inbox/.
 */
export function isIgnoredPath(path: string, stats?: Stats): boolean {
  const name = basename(path);
  if (skippedFolders().has(name)) return true;
  if (!stats || stats.isDirectory()) return false;
  if (!stats.isFile()) return true;
  return classifyPath(path).kind === "other";
}
