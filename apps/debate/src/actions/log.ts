import { formatOfState } from "@debatekit/core";
import { readDebateFolder, readJournal, readJournalPrompts } from "@debatekit/files";
import type { JournalEntry } from "@debatekit/schema";
import type { ActionContext } from "./context.js";
import { debateFolderOf } from "./folder.js";

/** Which calls `--step` picks: an exchange or round, optionally one seat and one attempt. */
export interface StepFilter {
  exchange: number;
  role?: string;
  attempt?: number;
}

function picks(filter: StepFilter | undefined, entry: JournalEntry): boolean {
  if (!filter) return true;
  return (
    entry.exchange === filter.exchange &&
    (filter.role === undefined || entry.role === filter.role) &&
    (filter.attempt === undefined || entry.attempt === filter.attempt)
  );
}

/**
 * What was sent to each seat and what came back, from the journal, in order: the calls `step`
 * picks (all without it). A prompt kept as its end only (`prompt_base`) is given whole, as it was sent.
 */
export async function readLog(
  ctx: Pick<ActionContext, "cwd">,
  input: { dir: string; step?: StepFilter },
): Promise<JournalEntry[]> {
  const dir = await debateFolderOf(ctx, input.dir);
  const picked = (await readJournal(dir)).filter((e) => picks(input.step, e));
  const prompts = await readJournalPrompts(dir, picked);
  return picked.map((entry, i) => {
    const { prompt_base: _, ...rest } = entry;
    const prompt = prompts[i];
    return prompt === undefined ? rest : { ...rest, prompt };
  });
}

/**
 * What the debate's format counts its steps in (`exchange`, `round`), for the log's headings; the
 * default format's when the folder does not read (the log still shows what the journal holds).
 */
export async function logUnit(ctx: Pick<ActionContext, "cwd">, input: { dir: string }): Promise<string> {
  const read = await readDebateFolder(await debateFolderOf(ctx, input.dir));
  return read.ok ? formatOfState(read.value.state).unit.one : "exchange";
}
