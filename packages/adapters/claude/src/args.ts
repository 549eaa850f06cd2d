/** What one claude call needs on its command line (never the prompt: that goes to stdin). */
export interface ClaudeArgsInput {
  model?: string;
  /** Resume this session instead of starting a new one. */
  sessionId?: string;
  /** Extra flags from the effort map. */
  extra?: readonly string[];
}

/**
 * argv for `claude -p`: JSON output, one turn, no tools (a debate seat only writes text).
 * The prompt is read from stdin.
 */
export function buildClaudeArgs(input: ClaudeArgsInput): string[] {
  return [
    "-p",
    "--output-format",
    "json",
    "--max-turns",
    "1",
    "--tools",
    "",
    ...(input.model ? ["--model", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
