import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one claude call needs on its command line (never the prompt: that goes to stdin). */
export type ClaudeArgsInput = CliArgsInput;

/**
 * argv for `claude -p` with its event stream as JSON lines (`stream-json` needs `--verbose` with
 * `-p`): the last line is the same result object `json` prints, and the lines before it name
 * every tool the model asked for. Tools and turns come from the launch plan (`claudeLaunch`).
 * The prompt is read from stdin; a session is resumed with `--resume <id>`.
 */
export function buildClaudeArgs(input: ClaudeArgsInput): string[] {
  return [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    ...(input.model ? ["--model", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
