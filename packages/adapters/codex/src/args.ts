/** What one codex call needs on its command line (never the prompt: that goes to stdin). */
export interface CodexArgsInput {
  model?: string;
  /** Resume this thread (`codex exec resume <id>`) instead of starting a new one. */
  sessionId?: string;
  /** Extra flags from the effort map (e.g. `-c model_reasoning_effort=high`). */
  extra?: readonly string[];
}

/**
 * argv for `codex exec --json`: JSONL events on stdout, no git-repo check (a debate folder need
 * not be a repository), the prompt read from stdin (`-`), which the adapter then closes.
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
