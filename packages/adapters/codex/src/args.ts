import type { CliArgsInput } from "@debatekit/adapter-kit";

/** What one codex call needs on its command line (never the prompt: that goes to stdin). */
export type CodexArgsInput = CliArgsInput;

/**
 * argv for `codex exec --json`: JSONL events on stdout, no git-repo check (a debate folder need
 * not be a repository), the prompt read from stdin (`-`), which the adapter then closes. A thread
 * is resumed with `codex exec … resume <id> -` (the exec flags before `resume`); the effort map's
 * flags are e.g. `-c model_reasoning_effort=high`.
 */
export function buildCodexArgs(input: CodexArgsInput): string[] {
  return [
    "exec",
    "--json",
    "--skip-git-repo-check",
    ...(input.model ? ["-m", input.model] : []),
    ...(input.extra ?? []),
    ...(input.sessionId ? ["resume", input.sessionId] : []),
    "-",
  ];
}
