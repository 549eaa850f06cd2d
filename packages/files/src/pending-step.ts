import type { Result } from "@debatekit/core";
import { quote } from "@debatekit/core";
import type { DebateFrontmatter, ScoresFile } from "@debatekit/schema";
import { validateScoresFile } from "@debatekit/schema";
import { schemaErrors } from "./documents.js";
import { parseJson } from "./json-text.js";

/**
 * Written first by a step that rewrites scores.json: the committed scores and the marker they belong to.
 * While debate.md still holds that marker the step is uncommitted and readers use these scores.
 */
export const PENDING_STEP_FILE = ".debate/pending-step.json";

/**
 * The pending-step record (internal to files; not a format other tools read). Version 2 holds only
 * what the step changes: `restore` maps each score record the step adds or replaces to its committed
 * value (null: absent before), so the committed scores are scores.json, old or new, with `restore`
 * applied (a no-op on the old file). Version 1 (written before) held the whole committed scores.
 */
export type PendingStep =
  | { version: 1; exchange: number; phase: DebateFrontmatter["current_phase"]; scores: ScoresFile }
  | {
      version: 2;
      exchange: number;
      phase: DebateFrontmatter["current_phase"];
      restore: Record<string, ScoresFile[string] | null>;
    };

/** The committed scores a pending record describes, given scores.json as it is on disk (old or new). */
export function committedScores(step: PendingStep, onDisk: ScoresFile): ScoresFile {
  if (step.version === 1) return step.scores;
  const scores: ScoresFile = { ...onDisk };
  for (const [id, record] of Object.entries(step.restore)) {
    if (record === null) delete scores[id];
    else scores[id] = record;
  }
  return scores;
}

/** Parses and checks a pending-step record. */
export function parsePendingStep(text: string): Result<PendingStep> {
  const bad = (message: string): Result<PendingStep> => ({
    ok: false,
    errors: [
      {
        code: "PENDING_STEP_INVALID",
        path: `${PENDING_STEP_FILE}:(root)`,
        message: `${PENDING_STEP_FILE}: ${message}`,
      },
    ],
  });
  let data: Partial<PendingStep>;
  try {
    data = parseJson(text) as Partial<PendingStep>;
  } catch (error) {
    return bad(`expected JSON (${(error as Error).message}), got ${quote(text)}`);
  }
  if (
    (data?.version !== 1 && data?.version !== 2) ||
    !Number.isInteger(data.exchange) ||
    typeof data.phase !== "string"
  ) {
    return bad(`expected {version: 2, exchange, phase, restore}, got ${quote(data)}`);
  }
  if (data.version === 1) {
    const scores = validateScoresFile(data.scores);
    if (!scores.ok)
      return { ok: false, errors: schemaErrors(PENDING_STEP_FILE, "PENDING_STEP_INVALID", scores.errors) };
    return { ok: true, value: data as PendingStep };
  }
  const restore = (data as { restore?: unknown }).restore;
  if (typeof restore !== "object" || restore === null || Array.isArray(restore))
    return bad(`expected \`restore\` to be an object of score records by argument id, got ${quote(restore)}`);
  // The records to restore, checked like scores.json's (a null restores an absent record).
  const present = Object.fromEntries(Object.entries(restore).filter(([, r]) => r !== null));
  const scores = validateScoresFile(present);
  if (!scores.ok)
    return { ok: false, errors: schemaErrors(PENDING_STEP_FILE, "PENDING_STEP_INVALID", scores.errors) };
  return { ok: true, value: data as PendingStep };
}

/** Serializes a pending-step record. */
export function serializePendingStep(step: PendingStep): string {
  return `${JSON.stringify(step, null, 2)}\n`;
}
