import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve, sep } from "node:path";
import { resetDebateFolder } from "@debatekit/files";
import { type RunSummary, runDebate } from "@debatekit/runner";
import { configSkillFolders } from "../config.js";
import { ExitError } from "../exit-error.js";
import { cancelledExitCode } from "../stop-signals.js";
import type { ActionContext } from "./context.js";

/** How far to run a debate, and on whose behalf. */
export interface RunInput {
  dir: string;
  /** `step`: one step (both debaters' arguments, or the judge's scores); `end` (default): until done or waiting. */
  until?: "step" | "end";
  /** Stop once this many exchanges are complete (debate.md is not changed). */
  maxExchanges?: number;
  /** Stop before a seat call that would take the debate's cost above this many US dollars. */
  maxUsd?: number;
  /** Wait for another run holding the lock instead of failing. */
  wait?: boolean;
  /** Skill folders after the built-in, project and user ones (default: the config file's `skills.folders`). */
  skillFolders?: string[];
  /** The command line the journal and the lock record (e.g. `debate run debates/x`). */
  command?: string;
  /** The folder whose allowance (`debate allow`) applies, when `dir` is a copy of it. */
  consentDir?: string;
}

/**
 * Runs or resumes a debate: does exactly the work its files say is next. A failed or stopped run
 * is a summary, not an error; a stop while waiting for the lock is an error (exit 130).
 */
export async function runDebateAction(ctx: ActionContext, input: RunInput): Promise<RunSummary> {
  await refuseMissingPrograms(ctx, input.dir);
  const extraSkillRoots = input.skillFolders ?? (await configSkillFolders(ctx));
  return runDebate(input.dir, {
    ...(extraSkillRoots.length > 0 ? { extraSkillRoots } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(input.until === "step" ? { steps: 1 } : {}),
    ...(input.maxExchanges !== undefined ? { exchanges: input.maxExchanges } : {}),
    ...(input.maxUsd !== undefined ? { maxCostUsd: input.maxUsd } : {}),
    ...(input.wait ? { wait: true } : {}),
    ...(ctx.onEvent ? { onEvent: ctx.onEvent } : {}),
    env: ctx.env,
    cwd: ctx.cwd,
    ...(input.command ? { command: input.command } : {}),
    ...(input.consentDir ? { consentDir: input.consentDir } : {}),
  }).catch((error: unknown) => {
    // Ctrl-C or SIGTERM while waiting for the lock (--wait): stopped, nothing was done.
    if ((error as { code?: string }).code === "LOCK_WAIT_CANCELLED")
      throw new ExitError((error as Error).message, cancelledExitCode, { cause: error });
    throw error;
  });
}

/**
 * A seat the debate will still call whose program is not installed is found before the first call,
 * in every format: exit 2 with each such seat and how to install it, nothing asked or written, and
 * the same command resumes once it is installed. A finished or blocked debate, or a folder that
 * does not read, is left to the run to report; a program not allowed, to the run's consent check.
 */
async function refuseMissingPrograms(ctx: ActionContext, dir: string): Promise<void> {
  const [{ readDebateFolder }, { formatOfState }, { diagnoseDebateSeats }] = await Promise.all([
    import("@debatekit/files"),
    import("@debatekit/core"),
    import("./doctor.js"),
  ]);
  const read = await readDebateFolder(resolve(ctx.cwd, dir));
  if (!read.ok) return;
  const state = read.value.state;
  const next = formatOfState(state).next(state);
  if (next.kind !== "ask" && next.kind !== "advance") return;
  const rows = await diagnoseDebateSeats(resolve(ctx.cwd, dir), {
    env: ctx.env,
    shown: dir,
    onlyUsed: true,
    programsOnly: true,
  });
  const missing = rows.filter((r) => !r.notAllowed && !r.installed);
  if (missing.length === 0) return;
  throw new ExitError(
    [
      ...missing.map(
        (r) => `${r.seat}: ${r.adapter}: not installed; ${r.hint ?? `see \`debate doctor ${dir}\``}`,
      ),
      `${dir}: nothing was asked or written; install ${missing.length === 1 ? "it" : "them"} (or seat a person: \`adapter: manual\` in debate.md), then run the same command again`,
    ].join("\n"),
    2,
  );
}

/** Copies a debate folder into a new temporary folder, back at its start, and returns the copy's path. */
export async function freshCopy(dir: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), "debatekit-"));
  const copy = join(parent, basename(resolve(dir)));
  // Leftovers of an earlier in-place run (lock, journal) are not part of a fresh start.
  const state = join(dir, ".debate");
  await cp(dir, copy, {
    recursive: true,
    filter: (src) => src !== state && !src.startsWith(`${state}${sep}`),
  });
  // Fresh means from the start: what the original has done so far is not carried over.
  await resetDebateFolder(copy, { keep: false, command: "debate run --fresh" });
  return copy;
}
