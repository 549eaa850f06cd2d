// Types for install-clis.mjs (plain ESM so it runs before any build).
export interface PinnedCli {
  pkg: string;
  version: string;
  bin: string;
}
export type CliName = "claude" | "gemini" | "codex" | "opencode" | "copilot" | "qwen" | "kilo";
/** The repository root. */
export const repoRoot: string;
/** Where the pinned CLIs live (ignored by git through /.cache/). */
export const cliCacheDir: string;
/** The pinned CLIs: adapter name -> npm package, version and the binary it provides. */
export const pinnedClis: Record<CliName, PinnedCli>;
/** The install folder of one pinned CLI. */
export function cliPrefix(name: CliName): string;
/** Absolute path of the installed binary of one pinned CLI (it may not exist yet). */
export function cliBinPath(name: CliName): string;
/** Paths of every pinned CLI binary, by adapter name. */
export function cliBinPaths(): Record<CliName, string>;
/** Installs every pinned CLI that is not there yet (or only `names`). */
export function installClis(
  names?: CliName[],
  log?: (line: string) => void,
): Record<string, { bin: string; installed: boolean; ms: number }>;
