import { randomBytes } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/** Called before each write of a step with the target path and the write's 0-based index (tests fail writes here). */
export type BeforeWrite = (target: string, index: number) => void | Promise<void>;

/** fsyncs a directory so a rename in it survives a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates a new temp file for writing; its folder is created (with any missing parents) only when it
 * is missing, so a write into an existing folder costs no mkdir.
 */
async function createTemp(temp: string): Promise<FileHandle> {
  try {
    return await open(temp, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(path.dirname(temp), { recursive: true });
    return open(temp, "wx", 0o644);
  }
}

/** Names of writeFileAtomic's temp files: `.<name>.<pid>.<12 hex>.tmp` (group 1 is the pid). */
export const ATOMIC_TEMP_NAME = /^\.[^/]+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Writes a file atomically: a temp file in the same folder, fsync, rename over the target, fsync the
 * folder. A missing folder is created.
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(
    dir,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const handle = await createTemp(temp);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

/** One file of a group write. */
export interface GroupFile {
  target: string;
  content: string | Uint8Array;
}

/**
 * Writes several files atomically as one group, with the guarantees of writeFileAtomic for each
 * but one round of fsyncs instead of one per file: every temp file is written and fsynced (in
 * parallel), then renamed over its target in order, then each folder is fsynced once. When this
 * returns, every file of the group is durable; if it throws, the targets not yet renamed are
 * untouched and their temp files are removed. Missing folders are created. `beforeRename` is called before each rename, in
 * order, with the file's index (`firstIndex` + its position): tests fail writes there.
 */
export async function writeFilesAtomic(
  files: readonly GroupFile[],
  beforeRename?: BeforeWrite,
  firstIndex = 0,
): Promise<void> {
  if (files.length === 0) return;
  const temps = files.map(({ target }) =>
    path.join(
      path.dirname(target),
      `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
    ),
  );
  let renamed = 0;
  try {
    await Promise.all(
      files.map(async ({ content }, i) => {
        const handle = await createTemp(temps[i]!);
        try {
          await handle.writeFile(content);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }),
    );
    for (let i = 0; i < files.length; i++) {
      await beforeRename?.(files[i]!.target, firstIndex + i);
      await rename(temps[i]!, files[i]!.target);
      renamed++;
    }
  } catch (error) {
    await Promise.all(temps.slice(renamed).map((t) => unlink(t).catch(() => undefined)));
    throw error;
  }
  await Promise.all([...new Set(files.map((f) => path.dirname(f.target)))].map(syncDirectory));
}
