import { relative } from "node:path";

/** A path as the user would type it from where they stand: relative under cwd, else absolute. */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === "" ? "." : rel.startsWith("..") ? path : rel;
}

/** Where the CLI writes, and how: colour only on a TTY and without NO_COLOR. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The process's own streams and environment. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** True when live progress and colour make sense (a TTY, not CI, NO_COLOR unset for colour). */
export function isInteractive(io: CliIO): boolean {
  return Boolean(io.stderr.isTTY) && !io.env.CI;
}

/** True when colour may be used. */
export function useColor(io: CliIO): boolean {
  return Boolean(io.stdout.isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== "dumb";
}
