import { cp, mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { RunOptions } from "@debatekit/runner";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt, parseUsd } from "../options.js";
import type { CliIO } from "../output.js";
import { abortOnSignals, cancelledExitCode } from "../stop-signals.js";

// The engine's packages load when a command runs, not when `debate` starts (--help stays quick).

/** Copies a debate folder into a new temporary folder, back at its start, and returns the copy's path. */
async function freshCopy(dir: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), "debatekit-"));
  const copy = join(parent, basename(resolve(dir)));
  // Leftovers of an earlier in-place run (lock, journal) are not part of a fresh start.
  const state = join(dir, ".debate");
  await cp(dir, copy, {
    recursive: true,
    filter: (src) => src !== state && !src.startsWith(`${state}${sep}`),
  });
  // Fresh means from the start: what the original has done so far is not carried over.
  const { resetDebateFolder } = await import("@debatekit/files");
  await resetDebateFolder(copy, { keep: false, command: "debate run --fresh" });
  return copy;
}

/**
 * The debate folder a path names: the folder itself, or the folder of a `debate.md` given by
 * mistake. Anything else ends the command with a one-line cause (exit 2), never a raw system error.
 */
export async function debateFolderOf(io: CliIO, arg: string): Promise<string> {
  const path = resolve(io.cwd, arg);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    const holds = await stat(join(path, "debate.md")).catch(() => undefined);
    if (!holds?.isFile()) throw new ExitError(`${arg}: not a debate folder (it holds no debate.md)`, 2);
    return path;
  }
  if (info?.isFile() && basename(path) === "debate.md") return dirname(path);
  throw new ExitError(
    info
      ? `${arg}: not a folder (give the debate's folder, the one holding debate.md)`
      : `${arg}: no such folder`,
    2,
  );
}

/** `debate run <dir>`: runs or resumes a debate until it is complete, waiting, or a seat fails. */
export function registerRun(program: Command, io: CliIO): void {
  program
    .command("run")
    .description("run or resume a debate: does exactly the work its files say is next")
    .addHelpText(
      "after",
      `
A program the folder names (a seat's \`command:\`, a \`workspace:\` outside it) runs only once you
allowed it: \`debate allow <dir>\` (see \`debate allow --help\`). Until then the run is refused
before anything is written.

Examples:
  $ debate run debates/tests-first            # run or resume until done or waiting
  $ debate run debates/tests-first --exchanges 2
  $ debate run debates/tests-first --fresh    # start over in a temporary copy
  $ debate run debates/tests-first --verbose  # print each prompt and answer`,
    )
    .argument("<dir>", "the debate folder (holds debate.md)")
    .option(
      "--exchanges <n>",
      "stop once this many exchanges are complete (debate.md is not changed)",
      parsePositiveInt,
    )
    .option(
      "--max-cost <usd>",
      "stop before a seat call that would take the debate's cost above this many US dollars (overrides max_cost_usd)",
      parseUsd,
    )
    .option("--wait", "wait for another run holding the lock instead of failing")
    .option(
      "--fresh",
      "start over from the debate's first exchange in a copy in a new temporary folder, leaving the original untouched (to start over in place: debate reset)",
    )
    .option("--json", "print the summary as JSON on stdout (no progress)")
    .option(
      "--verbose",
      "print each call's prompt and answer on stderr as it is made (as `debate log` shows them)",
    )
    .action(
      async (
        dirArg: string,
        opts: {
          exchanges?: number;
          maxCost?: number;
          wait?: boolean;
          fresh?: boolean;
          json?: boolean;
          verbose?: boolean;
        },
      ) => {
        const original = await debateFolderOf(io, dirArg);
        let dir = original;
        if (opts.fresh) {
          dir = await freshCopy(dir);
          if (!opts.json) io.stderr.write(`running a fresh copy in ${dir}\n`);
        }
        // A fresh copy runs what the original's allowance (`debate allow`) allows.
        await runAndReport(io, dir, { ...opts, command: `debate run ${dirArg}`, consentDir: original });
      },
    );
}

/** Runs a debate folder with progress on stderr and the summary on stdout (or JSON); throws ExitError when it failed or was stopped. */
export async function runAndReport(
  io: CliIO,
  dir: string,
  opts: {
    exchanges?: number;
    maxCost?: number;
    wait?: boolean;
    json?: boolean;
    verbose?: boolean;
    command: string;
    consentDir?: string;
  },
): Promise<void> {
  const [
    { formatOfState },
    { readDebateFolder, readJournal },
    { runDebate },
    { configSkillFolders },
    progressModule,
  ] = await Promise.all([
    import("@debatekit/core"),
    import("@debatekit/files"),
    import("@debatekit/runner"),
    import("../config.js"),
    import("../progress.js"),
  ]);
  const { formatJournalEntry } = await import("./log-entry.js");
  const { createProgress, formatSkillProblemLine, formatSummary } = progressModule;
  const stop = abortOnSignals(io, "stopping the seats; the folder resumes with `debate run`");
  // Where the debate starts from (for `exchange 2/5` and the standing); a folder that does not read
  // gets no numbers here, and the run says why.
  const start = await readDebateFolder(dir).then((read) =>
    read.ok ? formatOfState(read.value.state).standing(read.value.state) : undefined,
  );
  const progress = opts.json ? undefined : createProgress(io, start);
  // With --json stdout holds only the summary; skill problems still go to stderr, as warnings.
  const shown: RunOptions["onEvent"] =
    progress?.onEvent ??
    ((event) => {
      if (event.type === "skill_problem") io.stderr.write(`${formatSkillProblemLine(event)}\n`);
    });
  // --verbose: each call as the journal keeps it, printed in order once it is journaled.
  let printed = Promise.resolve();
  const onEvent: RunOptions["onEvent"] = opts.verbose
    ? (event) => {
        shown?.(event);
        if (event.type !== "seat_finished" || event.reused || event.status === "pending") return;
        printed = printed.then(async () => {
          const step = { exchange: event.exchange, phase: event.phase, role: event.role };
          const entry = (await readJournal(dir, step).catch(() => [])).at(-1);
          if (entry) io.stderr.write(`${formatJournalEntry(entry)}\n`);
        });
      }
    : shown;
  // Skill folders from the config file go after the built-in, project and user ones, before the debate's own.
  const extraSkillRoots = await configSkillFolders(io);
  try {
    const summary = await runDebate(dir, {
      ...(extraSkillRoots.length > 0 ? { extraSkillRoots } : {}),
      signal: stop.signal,
      ...(opts.exchanges !== undefined ? { exchanges: opts.exchanges } : {}),
      ...(opts.maxCost !== undefined ? { maxCostUsd: opts.maxCost } : {}),
      ...(opts.wait ? { wait: true } : {}),
      onEvent,
      env: io.env,
      command: opts.command,
      ...(opts.consentDir ? { consentDir: opts.consentDir } : {}),
    }).catch((error: unknown) => {
      // Ctrl-C or SIGTERM while waiting for the lock (--wait): stopped, nothing was done.
      if ((error as { code?: string }).code === "LOCK_WAIT_CANCELLED")
        throw new ExitError((error as Error).message, cancelledExitCode, { cause: error });
      throw error;
    });
    await printed;
    progress?.stop();
    if (opts.json) io.stdout.write(`${JSON.stringify({ dir, ...summary }, null, 2)}\n`);
    else io.stdout.write(formatSummary(io, summary, dir));
    if (summary.status === "cancelled")
      throw new ExitError("stopped; run again to resume", cancelledExitCode);
    if (summary.status === "failed") {
      const e = summary.error;
      const where = e?.file ? ` (${e.file}${e.field ? `, field ${e.field}` : ""})` : "";
      throw new ExitError(`${e?.message ?? "the run failed"}${where}`, 1);
    }
  } finally {
    progress?.stop();
    stop.dispose();
  }
}
