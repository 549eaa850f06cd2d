import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one claude call needs on its command line (never the prompt: that goes to stdin). */
export type ClaudeArgsInput = CliArgsInput;

/**
 * argv for `claude -p`: JSON output, one turn, no tools (a debate seat only writes text).
 * The prompt is read from stdin; a session is resumed with `--resume <id>`.
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
