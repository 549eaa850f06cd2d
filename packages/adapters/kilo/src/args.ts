import type { CliArgsInput } from "@debatekit/adapter-kit";

/**
 * What one kilo call needs on its command line (never the prompt: that goes to stdin). `model` is
 * `provider/model` (e.g. anthropic/claude-sonnet-4-5); the effort map's flags are e.g. `--variant high`.
 */
export type KiloArgsInput = CliArgsInput;

/** Title given to every session: a fixed title spares the extra model call kilo makes to invent one. */
export const kiloSessionTitle = "debatekit seat";

/**
 * argv for `kilo run --format json` (OpenCode's NDJSON events); the message is read from stdin. A
 * session is continued with `--session <id>`.
 */
export function buildKiloArgs(input: KiloArgsInput): string[] {
  return [
    "run",
    "--format",
    "json",
    "--title",
    kiloSessionTitle,
    ...(input.model ? ["-m", input.model] : []),
    ...(input.sessionId ? ["--session", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
