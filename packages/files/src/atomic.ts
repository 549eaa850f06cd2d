import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

// The writes below use the synchronous system calls. A step's files are small and each is written,
// fsynced and renamed in well under a millisecond here, while every promise-based fs call is a
// round trip through libuv's thread pool: an atomic write (open, write, fsync, close, rename, and
// the folder's open, fsync, close) cost 0.6-0.7 ms of CPU that way against 0.2-0.3 ms with the calls
// made directly (`pnpm bench runner` prints what an exchange's writes cost). The price is that the
// event loop waits for the disk during an fsync, and a group's fsyncs follow one another.

/** Called before each write of a step with the target path and the write's 0-based index (tests fail writes here). */
export type BeforeWrite = (target: string, index: number) => void | Promise<void>;

function syncDirectoryNow(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsyncs a directory so a rename in it survives a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  syncDirectoryNow(dir);
}

/**
 * Creates a new temp file for writing; its folder is created (with any missing parents) only when it
 * is missing, so a write into an existing folder costs no mkdir.
 */
function createTemp(temp: string): number {
  try {
    return openSync(temp, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(path.dirname(temp), { recursive: true });
    return openSync(temp, "wx", 0o644);
  }
}

/** Writes all of `content` to a new temp file and fsyncs it; the temp file is removed if that fails. */
function writeTemp(temp: string, content: string | Uint8Array): void {
  const fd = createTemp(temp);
  try {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    removeQuietly(temp);
    throw error;
  }
  closeSync(fd);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or never created.
  }
}

function tempName(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
}

/** Names of writeFileAtomic's temp files: `.<name>.<pid>.<12 hex>.tmp` (group 1 is the pid). */
export const ATOMIC_TEMP_NAME = /^\.[^/]+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Writes a file atomically: a temp file in the same folder, fsync, rename over the target, fsync the
 * folder. A missing folder is created.
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array): Promise<void> {
  const temp = tempName(target);
  writeTemp(temp, content);
  try {
    renameSync(temp, target);
  } catch (error) {
    removeQuietly(temp);
    throw error;
  }
  syncDirectoryNow(path.dirname(target));
}

/** One file of a group write. */
export interface GroupFile {
  target: string;
  content: string | Uint8Array;
}

/**
 * Writes several files atomically as one group, with the guarantees of writeFileAtomic for each
 * but each folder fsynced once: every temp file is written and fsynced, then renamed over its
 * target in order, then each folder is fsynced. When this returns, every file of the group is
 * durable; if it throws, the targets not yet renamed are untouched and their temp files are
 * removed. Missing folders are created. `beforeRename` is called before each rename, in order, with
 * the file's index (`firstIndex` + its position): tests fail writes there.
 */
export async function writeFilesAtomic(
  files: readonly GroupFile[],
  beforeRename?: BeforeWrite,
  firstIndex = 0,
): Promise<void> {
  if (files.length === 0) return;
  const temps = files.map(({ target }) => tempName(target));
  let written = 0;
  let renamed = 0;
  try {
    for (const { content } of files) {
      writeTemp(temps[written]!, content);
      written++;
    }
    for (let i = 0; i < files.length; i++) {
      await beforeRename?.(files[i]!.target, firstIndex + i);
      renameSync(temps[i]!, files[i]!.target);
      renamed++;
    }
  } catch (error) {
    for (const temp of temps.slice(renamed, written)) removeQuietly(temp);
    throw error;
  }
  for (const dir of new Set(files.map((f) => path.dirname(f.target)))) syncDirectoryNow(dir);
}
