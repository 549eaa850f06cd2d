import { formatOfState } from "@debatekit/core";
import type { DebateFolder } from "@debatekit/files";
import { writeDerivedFiles } from "@debatekit/files";

/**
 * Brings the derived files (formal's graph; review's decision.json and summary.md once it is
 * complete) up to date as the run leaves the debate, when it committed a step. A run that commits
 * nothing writes nothing (bad input changes no file), except on a finished debate, whose final
 * files it puts right (e.g. one that ended before they were committed with its last step). Only
 * files whose text differs are written. Never throws.
 */
export async function writeDerivedAfterRun(
  lastFolder: DebateFolder | undefined,
  committed: number,
): Promise<void> {
  if (!lastFolder) return;
  const state = lastFolder.state;
  if (committed === 0 && formatOfState(state).next(state).kind !== "done") return;
  try {
    await writeDerivedFiles(lastFolder);
  } catch {
    // A run never fails on them (the next one writes them); the step that ends a debate already
    // committed them with debate.md.
  }
}
