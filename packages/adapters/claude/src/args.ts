import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one claude call needs on its command line (never the prompt: that goes to stdin). */
export type ClaudeArgsInput = CliArgsInput;

/**
 * argv for `claude -p` with JSON output (tools and turns come from the launch plan: `claudeLaunch`).
 * The prompt is read from stdin; a session is resumed with `--resume <id>`.
 */
export function buildClaudeArgs(input: ClaudeArgsInput): string[] {
  return [
    "-p",
    "--output-format",
    "json",
    ...(input.model ? ["--model", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
