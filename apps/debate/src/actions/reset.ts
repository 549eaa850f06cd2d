import { type ResetResult, resetDebateFolder } from "@debatekit/files";
import { ExitError } from "../exit-error.js";
import type { ActionContext } from "./context.js";
import { debateFolderOf } from "./folder.js";

/** What `resetDebate` is asked: the folder, where to start again, and whether what is undone is kept. */
export interface ResetInput {
  dir: string;
  /** The exchange or round to start again from; the ones before it stay (default: the debate's start). */
  to?: number;
  /** Keep what is undone under `.debate/reset/<time>/` (default true). */
  keep?: boolean;
  /** What the lock shows while the reset runs. */
  command?: string;
}

/** A reset done: the folder it took back, and what the files package did. */
export interface ResetDone extends ResetResult {
  dir: string;
}

/**
 * Takes a debate back to its start, or to an exchange, keeping its motion, seats and settings.
 * A step out of range, or a format that cannot be reset, is a usage error (exit 2).
 */
export async function resetDebate(ctx: Pick<ActionContext, "cwd">, input: ResetInput): Promise<ResetDone> {
  const dir = await debateFolderOf(ctx, input.dir);
  const done = await resetDebateFolder(dir, {
    ...(input.to !== undefined ? { to: input.to } : {}),
    ...(input.keep !== undefined ? { keep: input.keep } : {}),
    ...(input.command ? { command: input.command } : {}),
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code === "RESET_EXCHANGE_OUT_OF_RANGE" || code === "RESET_UNSUPPORTED")
      throw new ExitError((error as Error).message, 2, { cause: error });
    throw error;
  });
  return { dir, ...done };
}
