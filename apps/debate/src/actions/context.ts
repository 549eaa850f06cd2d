import type { RunEvent } from "@debatekit/runner";

/**
 * What an action runs in: the working folder paths resolve against, the environment (secrets,
 * config home), and how a long action is stopped and watched. Every face (the CLI, the MCP server)
 * builds one; an action never prints.
 */
export interface ActionContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
}
