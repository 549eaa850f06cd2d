import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { resolveInside, syncDirectory } from "@debatekit/files";

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
 * Writes a snapshot into `dir`, replacing what was there. A path that would leave the folder (`..`,
 * absolute) is refused before anything is touched: a snapshot comes from Redis, which is shared.
 *
 * The files are written at once into a folder staged beside `dir` and fsynced there, then the
 * staged folder takes `dir`'s place by rename: a reader, or a kill at any moment, finds the old
 * folder or the new one, never a mix of the two. The fsyncs run together rather than one after the
 * other (a finished debate has a dozen files; one by one they were most of what the queue added to
 * a debate). A kill between the two renames leaves `dir` missing and the old copy under a dot name
 * beside it; the run that collects the debate again writes it from Redis. `atomic: false` (a
 * worker's scratch copy, which Redis can always rebuild) writes in place without fsync.
 */
export async function writeFolderSnapshot(
  dir: string,
  files: FolderSnapshot,
  options: { atomic?: boolean } = {},
): Promise<void> {
  // Checked before anything is removed: resolveInside throws PATH_ESCAPE naming the path.
  for (const name of Object.keys(files)) resolveInside(dir, name);
  const atomic = options.atomic !== false;
  const parent = path.dirname(path.resolve(dir));
  const tag = `${process.pid}.${randomBytes(6).toString("hex")}`;
  const target = atomic ? path.join(parent, `.${path.basename(dir)}.${tag}.incoming`) : dir;
  if (!atomic) await rm(dir, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  try {
    const folders = new Set([target]);
    for (const name of Object.keys(files)) folders.add(path.dirname(path.join(target, name)));
    for (const folder of folders) await mkdir(folder, { recursive: true });
    await Promise.all(
      Object.entries(files).map(async ([name, text]) => {
        if (!atomic) return writeFile(path.join(target, name), text);
        const handle = await open(path.join(target, name), "wx", 0o644);
        try {
          await handle.writeFile(text);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }),
    );
    if (!atomic) return;
    await Promise.all([...folders].map(syncDirectory));
    const old = path.join(parent, `.${path.basename(dir)}.${tag}.old`);
    const replaced = await rename(dir, old).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
    await rename(target, dir);
    await syncDirectory(parent);
    if (replaced) await rm(old, { recursive: true, force: true });
  } catch (error) {
    if (atomic) await rm(target, { recursive: true, force: true });
    throw error;
  }
}
