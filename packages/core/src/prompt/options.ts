import type { AgentTemplate } from "../types.js";

/** Options of buildPrompt. */
export interface BuildPromptOptions {
  /** Role templates (default: defaultAgentTemplates from agents/). */
  templates?: AgentTemplate[];
  /** Text block chosen by @debatekit/skills (already within budget). */
  skills?: string;
  /** Validation errors of the previous attempt, for a retry. */
  feedback?: string[];
}
