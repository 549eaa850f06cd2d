import type { DebateState } from "@debatekit/core";
import type { DebateFolder } from "@debatekit/files";
import { readArgument, refreshArgumentIndex, writeArgumentIndex } from "@debatekit/files";

/**
 * Rewrites the argument index (files' .debate/argument-index.json) when a run ends, from the last
 * full read plus the files this run added: it lets the next run skip parsing every argument file.
 * A run that committed nothing writes none: it leaves the folder as it found it; nor does a debate
 * without argument files (every format but formal). Never throws.
 */
export async function refreshIndexAfterRun(
  dir: string,
  run: { lastRead: DebateFolder | undefined; lastState: DebateState | undefined; committed: number },
): Promise<void> {
  const known = run.lastRead?.argumentIndex;
  if (!known || !run.lastState || run.committed === 0) return;
  const ids = run.lastState.arguments.map((a) => a.frontmatter.id);
  // Only a debate with argument files has an index of them: never another format's folder.
  if (ids.length === 0) return;
  try {
    await writeArgumentIndex(dir, await refreshArgumentIndex(dir, ids, known, (id) => readArgument(dir, id)));
  } catch {
    // Derived: a run never fails on it (the next read parses the files).
  }
}
