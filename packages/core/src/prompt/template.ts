import { DebatekitError } from "../errors.js";
import type { AgentTemplate } from "../types.js";

// Template helpers every format's prompt uses: filling an agents/*.md body, the context window, the retry block.

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Fills {{placeholders}} in one pass (values are never re-scanned); a placeholder without a value throws. */
export function fillTemplate(template: AgentTemplate, values: Record<string, string>): string {
  const missing = new Set<string>();
  for (const name of template.definition.placeholders ?? []) if (!(name in values)) missing.add(name);
  const text = template.body.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(name in values)) {
      missing.add(name);
      return whole;
    }
    return values[name]!;
  });
  if (missing.size > 0) {
    throw new DebatekitError(
      "PROMPT_PLACEHOLDER_MISSING",
      `agents/${template.definition.name}.md uses ${[...missing].map((m) => `{{${m}}}`).join(", ")}, which the engine does not supply for this step`,
      { file: `agents/${template.definition.name}.md`, field: "placeholders" },
    );
  }
  // Empty optional blocks (no feedback) must not leave holes of blank lines.
  return `${text.replace(/\n{3,}/g, "\n\n").trim()}\n`;
}

/** Exchanges (formal) or rounds (crossfire) kept in full before earlier turns are compacted (debate.md `context.window`). */
export const DEFAULT_CONTEXT_WINDOW = 4;

/** The context window of a debate: debate.md's `context.window`, else the format's default. */
export function contextWindow(
  state: { frontmatter: { context?: { window?: number } } },
  fallback = DEFAULT_CONTEXT_WINDOW,
): number {
  const window = state.frontmatter.context?.window;
  return window !== undefined && window >= 1 ? window : fallback;
}

/**
 * The first exchange a history ending at `last` shows in full (review's rule: blocks of `window`
 * rounds from the first, the latest block in full, so at most `window` are).
 */
export function fullFrom(last: number, window: number): number {
  return last < 0 ? 0 : last - (last % window);
}

/**
 * The first exchange a formal history ending at `last` shows in full. Exchanges leave the full
 * text in blocks of `window`: the full part holds between `window` and 2 x `window` - 1
 * exchanges (all of them while there are fewer), and compaction happens once every `window`
 * exchanges, so between compactions the history only grows and consecutive prompts share all
 * but the new suffix. The latest `window` exchanges are always in full.
 */
export function historyFrom(last: number, window: number): number {
  const shown = last + 1;
  return Math.max(0, shown - (shown % window) - window);
}

/** The retry block of a prompt: the errors of the previous answer, or nothing. */
export function feedbackBlock(feedback: string[] | undefined): string {
  if (!feedback || feedback.length === 0) return "";
  return [
    "# Your previous answer was rejected",
    "",
    "The engine could not accept your previous answer, for these reasons:",
    "",
    ...feedback.map((line) => `- ${line}`),
    "",
    "Answer again, in full, fixing every point above. Keep what was valid.",
  ].join("\n");
}
