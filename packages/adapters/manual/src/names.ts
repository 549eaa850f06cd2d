import type { SeatStep } from "@debatekit/adapter-kit";

/** Folder (inside the debate folder) where the prompts for manual seats are written. */
export const promptsDir = "prompts";
/** Folder (inside the debate folder) where the answers of manual seats are expected. */
export const inboxDir = "inbox";

/**
 * The file stem of a step: `e001-proposition`, and `e001-proposition-attempt2` for a retry
 * (so a person sees the retry's prompt, with the errors, next to the first one).
 */
export function stepStem(step: Pick<SeatStep, "exchange" | "role" | "attempt">): string {
  const base = `e${String(step.exchange).padStart(3, "0")}-${step.role}`;
  return step.attempt > 1 ? `${base}-attempt${step.attempt}` : base;
}

/** What a stem names (the inverse of stepStem), or undefined for a name stepStem does not make. */
export function parseStepStem(stem: string): { exchange: number; role: string; attempt: number } | undefined {
  const m = /^e(\d{3,})-([a-z][a-z0-9_]*?)(?:-attempt(\d+))?$/.exec(stem);
  if (!m) return undefined;
  return { exchange: Number(m[1]), role: m[2]!, attempt: m[3] ? Number(m[3]) : 1 };
}
