import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Gives a finished review of examples/review-sum a `reporter` seat (replay) and appends its recorded
 * answers (round 3, one per attempt) to the folder's replay.jsonl.
 */
export async function addReplayReporter(dir: string, answers: readonly string[]): Promise<void> {
  const debateMd = await readFile(join(dir, "debate.md"), "utf8");
  const judge = "  judge:\n    adapter: replay\n";
  if (!debateMd.includes(judge))
    throw new Error(`${dir}/debate.md: no replay judge seat to add a reporter after`);
  await writeFile(
    join(dir, "debate.md"),
    debateMd.replace(judge, `${judge}  reporter:\n    adapter: replay\n`),
  );
  await appendFile(
    join(dir, "replay.jsonl"),
    answers
      .map((text, i) => `${JSON.stringify({ exchange: 3, role: "reporter", attempt: i + 1, text })}\n`)
      .join(""),
  );
}
