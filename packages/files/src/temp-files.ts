import { readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { formatList } from "@debatekit/core";
import { ATOMIC_TEMP_NAME } from "./atomic.js";
import { resolveInside } from "./paths.js";
import { isProcessAlive } from "./pid.js";

/**
 * The folders writeFileAtomic writes into, relative to the debate folder: the engine's own, and every
 * registered format's folders and record folders (formal: arguments/; crossfire: turns/). Read at call
 * time: a format registered from the config file is in the registry only after start-up.
 */
function tempFolders(): string[] {
  return [
    ...new Set([
      ".",
      ".debate",
      ".debate/journal",
      ...formatList().flatMap((f) => [...f.folders, ...f.records.map((r) => r.dir || ".")]),
    ]),
  ];
}
/**
 * An atomic write keeps its temp file for milliseconds; one this old is not a write in progress even
 * when its pid is alive (the pid was reused, e.g. after a container restart, or it is another host's).
 */
export const TEMP_FILE_MAX_AGE_MS = 60 * 60 * 1000;

function isAbandoned(pid: number, mtimeMs: number, now: number): boolean {
  if (pid === process.pid) return false; // our own writes may be in flight
  if (!isProcessAlive(pid)) return true;
  return now - mtimeMs > TEMP_FILE_MAX_AGE_MS;
}

/**
 * Removes writeFileAtomic temp files (`.<name>.<pid>.<hex>.tmp`) left in a debate folder by a killed process:
 * those whose pid is not alive on this host, or that are older than TEMP_FILE_MAX_AGE_MS. Never this
 * process's own. Returns the removed paths, relative to `dir`. Call it while holding the debate lock.
 */
export async function removeStaleTempFiles(dir: string): Promise<string[]> {
  const removed: string[] = [];
  const now = Date.now();
  for (const folder of tempFolders()) {
    let names: string[];
    try {
      names = await readdir(resolveInside(dir, folder));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A folder that leads outside (a symlink) holds no temp file of ours: never tidied, and the
      // reader that needs it reports the escape (e.g. a review's inbox/, which only people write).
      if (code === "ENOENT" || code === "ENOTDIR" || code === "PATH_ESCAPE") continue;
      throw error;
    }
    for (const name of names) {
      const match = ATOMIC_TEMP_NAME.exec(name);
      if (!match) continue;
      const rel = path.posix.join(folder, name);
      const file = resolveInside(dir, rel);
      try {
        const stats = await stat(file);
        if (!stats.isFile() || !isAbandoned(Number(match[1]), stats.mtimeMs, now)) continue;
        await unlink(file);
        removed.push(rel);
      } catch (error) {
        // Renamed or removed by someone else meanwhile: nothing left to tidy.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  }
  return removed;
}
