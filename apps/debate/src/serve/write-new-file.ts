import { randomBytes } from "node:crypto";
import { link, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { syncDirectory, writeFileAtomic } from "@debatekit/files";

/**
 * Writes `content` to `target` only if no file is there yet, atomically: the whole file is written
 * under a temp name (the engine's own temp-file pattern, so a crash leaves nothing it would not clean
 * up), then hard-linked to its name, which fails when the name is taken. Returns false, writing
 * nothing, when `target` already exists: two pages or an editor answering at once never overwrite
 * each other, whichever comes second.
 */
export async function writeNewFile(target: string, content: string): Promise<boolean> {
  const temp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  await writeFileAtomic(temp, content);
  try {
    await link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDirectory(dirname(target));
  return true;
}
