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

/** The pending-step record (internal to files; not a format other tools read). */
export interface PendingStep {
  version: 1;
  exchange: number;
  phase: DebateFrontmatter["current_phase"];
  scores: ScoresFile;
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
  if (data?.version !== 1 || !Number.isInteger(data.exchange) || typeof data.phase !== "string") {
    return bad(`expected {version: 1, exchange, phase, scores}, got ${quote(data)}`);
  }
  const scores = validateScoresFile(data.scores);
  if (!scores.ok)
    return { ok: false, errors: schemaErrors(PENDING_STEP_FILE, "PENDING_STEP_INVALID", scores.errors) };
  return { ok: true, value: data as PendingStep };
}

/** Serializes a pending-step record. */
export function serializePendingStep(step: PendingStep): string {
  return `${JSON.stringify(step, null, 2)}\n`;
}
