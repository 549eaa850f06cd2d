import type { Detection } from "@debatekit/adapter-kit";
import { findOnPath, runProcess, sanitizeError, secretsFromEnv } from "@debatekit/adapter-kit";
import { knownAgentOf } from "./agents.js";

/** The first version-looking token of `--version` output (`1.18.33`, `0.61.0-preview.1`). */
export function versionFrom(text: string): string | undefined {
  return /\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?/.exec(text)?.[0];
}

/**
 * Whether the agent program is installed, and its version. ACP agents log in through their own
 * CLI, so "usable" means installed; the hint says how to log in.
 */
export async function detectAgent(command: readonly string[], env: NodeJS.ProcessEnv): Promise<Detection> {
  const program = command[0] ?? "";
  const known = knownAgentOf(command);
  const path = findOnPath(program, env);
  if (!path) {
    return {
      adapter: "acp",
      installed: false,
      usable: false,
      hint: `${program} not found on PATH${known ? `: ${known.setupHint}` : ""}; or set the seat's \`command\``,
    };
  }
  const probe = await runProcess({ command: path, args: ["--version"], env, timeoutMs: 15_000 });
  const version = probe.exitCode === 0 ? versionFrom(probe.stdout || probe.stderr) : undefined;
  const secrets = secretsFromEnv(env);
  return {
    adapter: "acp",
    installed: true,
    path,
    ...(version ? { version } : {}),
    usable: true,
    hint: sanitizeError(
      `runs \`${command.join(" ")}\`; it must already be logged in${known ? ` (${known.setupHint})` : ""}`,
      secrets,
    ),
  };
}
