// A small tournament of replay seats (examples/tournament-replay's recordings) for queue tests:
// the example's motions, one crossfire round each.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTournament } from "../folder.js";
import { parseMotions } from "../motions.js";
import { parseEntrants } from "../spec.js";

const example = fileURLToPath(new URL("../../../../examples/tournament-replay/", import.meta.url));

/**
 * Creates the tournament in `dir` (its seats answer from the recordings, logging each call to
 * DEBATEKIT_REPLAY_LOG): alice and bob unless `players` says otherwise, from `replayDir` if given.
 */
export async function createReplayTournament(
  dir: string,
  options: { players?: string; replayDir?: string } = {},
): ReturnType<typeof createTournament> {
  return createTournament(dir, {
    motions: parseMotions(await readFile(path.join(example, "motions.jsonl"), "utf8"), "motions.jsonl"),
    players: parseEntrants(options.players ?? "replay:alice,replay:bob", "--seats"),
    judges: parseEntrants("replay", "--judges"),
    format: "crossfire",
    length: 1,
    replayDir: options.replayDir ?? path.join(example, "recordings"),
    now: "2026-11-24T04:00:00.000Z",
  });
}
