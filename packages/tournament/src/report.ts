import path from "node:path";
import { readDebateFolder, readJournal, writeFileAtomic } from "@debatekit/files";
import { createReport } from "@debatekit/report";
import { DEBATES_DIR, matchFolder, readTournament } from "./folder.js";
import { computeLeaderboard, type Leaderboard } from "./leaderboard.js";
import { renderLeaderboardHtml, renderLeaderboardMarkdown } from "./render.js";
import { readResults } from "./results.js";

/** The leaderboard's file names, in the tournament folder. */
export const LEADERBOARD_FILES = ["leaderboard.md", "leaderboard.html"] as const;

/**
 * Writes leaderboard.md and leaderboard.html into the tournament folder, and each started debate's
 * own report.md and report.html (the leaderboard links to them), every file atomically. Everything
 * is computed from the folders alone: the same folders give the same files.
 */
export async function writeTournamentReport(
  dir: string,
): Promise<{ leaderboard: Leaderboard; files: string[] }> {
  const tournament = await readTournament(dir);
  const results = await readResults(tournament);
  const leaderboard = computeLeaderboard(tournament.frontmatter, results);
  const files: string[] = [];
  for (const result of results) {
    if (result.status === "pending") continue;
    const debateDir = matchFolder(dir, result.match.id);
    const read = await readDebateFolder(debateDir);
    if (!read.ok) continue;
    const { markdown, html } = createReport({
      state: read.value.state,
      journal: await readJournal(debateDir),
    });
    for (const [name, text] of [
      ["report.md", markdown],
      ["report.html", html],
    ] as const) {
      await writeFileAtomic(path.join(debateDir, name), text);
      files.push(path.join(DEBATES_DIR, result.match.id, name));
    }
  }
  await writeFileAtomic(path.join(dir, "leaderboard.md"), renderLeaderboardMarkdown(leaderboard));
  await writeFileAtomic(path.join(dir, "leaderboard.html"), renderLeaderboardHtml(leaderboard));
  return { leaderboard, files: [...LEADERBOARD_FILES, ...files] };
}
