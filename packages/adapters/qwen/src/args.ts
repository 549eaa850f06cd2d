import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one qwen call needs on its command line (the prompt itself goes to stdin). */
export type QwenArgsInput = CliArgsInput;

/**
 * The fixed `-p` text. Qwen Code appends stdin to it, so the seat's prompt travels on stdin
 * (argv is visible in `ps` and capped) while `-p` only switches on headless mode.
 */
export const qwenHeadlessInstruction = "Follow the instructions given on standard input.";

/**
 * argv for headless qwen with one JSON event per line (tools, isolation and endpoint come from
 * the launch plan: `qwenLaunch`). A session is resumed with `--resume <id>`.
 */
export function buildQwenArgs(input: QwenArgsInput): string[] {
  return [
    "-p",
    qwenHeadlessInstruction,
    "-o",
    "stream-json",
    ...(input.model ? ["-m", input.model] : []),
    ...(input.sessionId ? ["--resume", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
