import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one copilot call needs on its command line (never the prompt: that goes to stdin). */
export type CopilotArgsInput = CliArgsInput;

/**
 * argv for non-interactive copilot with JSONL output; the prompt is piped on stdin (copilot reads
 * piped stdin as the prompt when `-p` is absent). `--allow-all-tools` is required for a
 * non-interactive run: without it copilot would wait for a permission answer nobody gives. A
 * session is resumed with `--resume <id>`.
 */
export function buildCopilotArgs(input: CopilotArgsInput): string[] {
  return [
    "--output-format",
    "json",
    "--no-color",
    ...(input.model ? ["--model", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
