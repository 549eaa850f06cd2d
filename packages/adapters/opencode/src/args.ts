import type { CliArgsInput } from "@debatekit/adapter-kit";

/**
 * What one opencode call needs on its command line (never the prompt: that goes to stdin).
 * `model` is `provider/model` (e.g. anthropic/claude-sonnet-4-5); the effort map's flags are
 * e.g. `--variant high`.
 */
export type OpencodeArgsInput = CliArgsInput;

/** Title given to every session: a fixed title spares the extra model call opencode makes to invent one. */
export const opencodeSessionTitle = "debatekit seat";

/**
 * argv for `opencode run --format json` (NDJSON events); the message is read from stdin. A
 * session is continued with `--session <id>`.
 */
export function buildOpencodeArgs(input: OpencodeArgsInput): string[] {
  return [
    "run",
    "--format",
    "json",
    "--title",
    opencodeSessionTitle,
    ...(input.model ? ["-m", input.model] : []),
    ...(input.sessionId ? ["--session", input.sessionId] : []),
    ...(input.extra ?? []),
  ];
}
