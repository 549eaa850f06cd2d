import type { RunEvent } from "@debatekit/runner";

/**
 * What every action gets from its face (a command, an MCP tool): where it runs, the environment it
 * reads, a signal to stop, and a listener for the engine's events. Actions return data and never
 * print: printing is the face's job.
 */
export interface ActionContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** A debate folder just made: where, its id and format, and every warning its making gave. */
export interface Created {
  dir: string;
  debateId: string;
  format: string;
  warnings: string[];
  target?: string;
}
