import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one copilot call needs on its command line (never the prompt: that goes to stdin). */
export type CopilotArgsInput = CliArgsInput;

/**
 * argv for non-interactive copilot with JSONL output; the prompt is piped on stdin (copilot reads
 * piped stdin as the prompt when `-p` is absent). No `--allow-all-tools`: the tool switches come
 * from the launch plan (`extra`), and copilot 1.0.102 runs piped prompts without it, refusing
 * whatever would need an approval ("no interactive user response was available"). A session is
 * resumed with `--resume <id>`.
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
