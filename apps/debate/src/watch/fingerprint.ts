import { type BigIntStats, statSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { debateFile, isAnswerName } from "./paths.js";

/**
 * What a file looks like without reading it: inode, size, and modification and change times in
 * nanoseconds. Any write changes it, even one that puts back the same text (mtime and ctime move),
 * and the runner's commit, a rename of a new file over debate.md, changes the inode. "missing"
 * when the file does not exist.
 */
export type Fingerprint = string;

const missing: Fingerprint = "missing";

function fromStats(stats: BigIntStats): Fingerprint {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The fingerprint of a debate's debate.md, read synchronously (right after a commit, in the runner's event). */
export function debateFingerprintSync(dir: string): Fingerprint {
  try {
    return fromStats(statSync(join(dir, debateFile), { bigint: true }));
  } catch {
    return missing;
  }
}

/** The fingerprint of a debate's debate.md. */
export async function debateFingerprint(dir: string): Promise<Fingerprint> {
  return stat(join(dir, debateFile), { bigint: true }).then(fromStats, () => missing);
}

/** The fingerprint of a debate's inbox/: every answer file's name and fingerprint, sorted by name. */
export async function inboxFingerprint(dir: string): Promise<Fingerprint> {
  const inbox = join(dir, "inbox");
  const names = (await readdir(inbox).catch(() => [] as string[])).filter(isAnswerName).sort();
  const parts = await Promise.all(
    names.map(async (name) => {
      const print = await stat(join(inbox, name), { bigint: true }).then(fromStats, () => missing);
      return `${name}=${print}`;
    }),
  );
  return parts.join("\n");
}
