import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one gemini call needs on its command line (the prompt itself goes to stdin). */
export type GeminiArgsInput = CliArgsInput;

/**
 * The fixed `-p` text. Gemini appends stdin to it, so the seat's prompt travels on stdin
 * (argv is visible in `ps` and capped) while `-p` only switches on headless mode.
 */
export const geminiHeadlessInstruction = "Follow the instructions given on standard input.";

/**
 * argv for headless gemini with JSON output (trust, tools and isolation come from the launch plan:
 * `geminiLaunch`). A session is resumed with `--resume <id>`.
 */
export function buildGeminiArgs(input: GeminiArgsInput): string[] {
  return [
    "-p",
    geminiHeadlessInstruction,
    "-o",
    "json",
    ...(input.model ? ["-m", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
