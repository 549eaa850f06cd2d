import type { RunEvent } from "@debatekit/runner";
import type { RunInput } from "../actions/run.js";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";
import { abortOnSignals, cancelledExitCode } from "../stop-signals.js";

/** How a run is shown: `json` puts only the summary on stdout; `verbose` prints each call as it is journaled. */
export interface RunFace {
  json?: boolean;
  verbose?: boolean;
}

/**
 * Runs a debate folder (the run action) with progress on stderr and the summary on stdout (or
 * JSON); throws ExitError when it failed or was stopped. The face of `debate run` and `debate review`.
 */
export async function runAndPrint(io: CliIO, input: RunInput, face: RunFace = {}): Promise<void> {
  // The engine loads when a run starts, not when `debate` starts.
  const [
    { formatOfState },
    { readDebateFolder, readJournal },
    { runDebateAction },
    { formatJournalEntry },
    { createProgress, formatSkillProblemLine, formatSummary },
  ] = await Promise.all([
    import("@debatekit/core"),
    import("@debatekit/files"),
    import("../actions/run.js"),
    import("./journal-line.js"),
    import("../progress.js"),
  ]);
  const { dir } = input;
  const stop = abortOnSignals(io, "stopping the seats; the folder resumes with `debate run`");
  // Where the debate starts from (for `exchange 2/5` and the standing); a folder that does not read
  // gets no numbers here, and the run says why.
  const start = await readDebateFolder(dir).then((read) =>
    read.ok ? formatOfState(read.value.state).standing(read.value.state) : undefined,
  );
  const progress = face.json ? undefined : createProgress(io, start);
  // With --json stdout holds only the summary; skill problems still go to stderr, as warnings.
  const shown: (event: RunEvent) => void =
    progress?.onEvent ??
    ((event) => {
      if (event.type === "skill_problem") io.stderr.write(`${formatSkillProblemLine(event)}\n`);
    });
  // --verbose: each call as the journal keeps it, printed in order once it is journaled.
  let printed = Promise.resolve();
  const onEvent: (event: RunEvent) => void = face.verbose
    ? (event) => {
        shown(event);
        if (event.type !== "seat_finished" || event.reused || event.status === "pending") return;
        printed = printed.then(async () => {
          const step = { exchange: event.exchange, phase: event.phase, role: event.role };
          const entry = (await readJournal(dir, step).catch(() => [])).at(-1);
          if (entry) io.stderr.write(`${formatJournalEntry(entry, start?.progress.unit)}\n`);
        });
      }
    : shown;
  try {
    const summary = await runDebateAction({ cwd: io.cwd, env: io.env, signal: stop.signal, onEvent }, input);
    await printed;
    progress?.stop();
    if (face.json) io.stdout.write(`${JSON.stringify({ dir, ...summary }, null, 2)}\n`);
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
