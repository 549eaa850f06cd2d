import type { DebateState, SeatRole } from "@debatekit/core";
import { buildPrompt } from "@debatekit/core";

/** What goes into a seat's prompt besides the state. */
export interface PromptInput {
  /** Validation errors of the previous attempt, fed back on a retry. */
  feedback?: string[];
}

/** The prompt for one seat at the debate's current step (the one place prompts are assembled). */
export function assemblePrompt(state: DebateState, role: SeatRole, input: PromptInput = {}): string {
  return buildPrompt(
    state,
    role,
    input.feedback && input.feedback.length > 0 ? { feedback: input.feedback } : {},
  );
}
