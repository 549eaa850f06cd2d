import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { inboxDir, parseStepStem, promptsDir } from "@debatekit/adapter-manual";

/** A manual seat's prompt of the current exchange that has no answer in inbox/ yet. */
export interface ManualAsk {
  /** `e001-opposition`, `e001-opposition-attempt2`: prompts/<stem>.md asks, inbox/<stem>.md answers. */
  stem: string;
  role: string;
  attempt: number;
}

/** The manual seats' latest prompts of this exchange (the attempt asked now), and the inbox's files. */
async function latestAsks(dir: string, exchange: number): Promise<{ asks: ManualAsk[]; inbox: Set<string> }> {
  const prompts = await readdir(join(dir, promptsDir)).catch(() => [] as string[]);
  const inbox = new Set(await readdir(join(dir, inboxDir)).catch(() => [] as string[]));
  const latest = new Map<string, ManualAsk>();
  for (const file of prompts.filter((f) => f.endsWith(".md"))) {
    const stem = file.slice(0, -3);
    const step = parseStepStem(stem);
    if (!step || step.exchange !== exchange) continue;
    if ((latest.get(step.role)?.attempt ?? 0) < step.attempt) latest.set(step.role, { stem, ...step });
  }
  return { asks: [...latest.values()].sort((a, b) => a.stem.localeCompare(b.stem)), inbox };
}

const hasAnswer = (inbox: Set<string>, stem: string) => inbox.has(`${stem}.md`) || inbox.has(`${stem}.json`);

/**
 * The manual seats' prompts of this exchange that have no answer in inbox/ yet, the latest attempt
 * of each seat (the one asked now), sorted by stem. Read from prompts/ and inbox/ as the manual seat
 * writes and reads them.
 */
export async function unansweredAsks(dir: string, exchange: number): Promise<ManualAsk[]> {
  const { asks, inbox } = await latestAsks(dir, exchange);
  return asks.filter(({ stem }) => !hasAnswer(inbox, stem));
}

/** The stems of this exchange's latest prompts that inbox/ already answers. */
export async function answeredAsks(dir: string, exchange: number): Promise<string[]> {
  const { asks, inbox } = await latestAsks(dir, exchange);
  return asks.filter(({ stem }) => hasAnswer(inbox, stem)).map(({ stem }) => stem);
}
