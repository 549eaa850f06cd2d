import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { resolveInside, writeFileAtomic } from "@debatekit/files";

/** A folder's files by `/`-separated relative path (text only: every file of a debate folder is). */
export type FolderSnapshot = Record<string, string>;

// Not part of a debate's state: the lock (held by one process), its recovery mutex, atomic-write
// temp files (`.<name>.<pid>.<hex>.tmp`).
const SKIP = [/^\.debate\/lock(\.recover)?$/, /(^|\/)\.[^/]+\.\d+\.[0-9a-f]{12}\.tmp$/];

/** Every file of a folder (recursively), except the lock and temp files. */
export async function readFolderSnapshot(dir: string): Promise<FolderSnapshot> {
  const out: FolderSnapshot = {};
  const walk = async (rel: string) => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile() && !SKIP.some((re) => re.test(name)))
        out[name] = await readFile(path.join(dir, name), "utf8");
    }
  };
  await walk("");
  return out;
}

/**
 * Writes a snapshot into `dir` (emptied first), each file atomically (unless `atomic: false`, for a
 * scratch copy). A path that would leave the folder (`..`, absolute) is refused: a snapshot comes
 * from Redis, which is shared.
 */
export async function writeFolderSnapshot(
  dir: string,
  files: FolderSnapshot,
  options: { atomic?: boolean } = {},
): Promise<void> {
  // Checked before anything is removed: resolveInside throws PATH_ESCAPE naming the path.
  for (const name of Object.keys(files)) resolveInside(dir, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const target = resolveInside(dir, name);
    await mkdir(path.dirname(target), { recursive: true });
    if (options.atomic === false) await writeFile(target, text);
    else await writeFileAtomic(target, text);
  }
}
