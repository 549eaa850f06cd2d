/** What one opencode call needs on its command line (never the prompt: that goes to stdin). */
export interface OpencodeArgsInput {
  /** `provider/model`, e.g. anthropic/claude-sonnet-4-5. */
  model?: string;
  /** Continue this session (`--session <id>`). */
  sessionId?: string;
  /** Extra flags from the effort map (e.g. `--variant high`). */
  extra?: readonly string[];
}

/** Title given to every session: a fixed title spares the extra model call opencode makes to invent one. */
export const opencodeSessionTitle = "debatekit seat";

/** argv for `opencode run --format json` (NDJSON events); the message is read from stdin. */
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
