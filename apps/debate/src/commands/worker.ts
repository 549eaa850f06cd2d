import { resolve } from "node:path";
import type { WorkerEvent } from "@debatekit/tournament";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";
import { abortOnSignals, cancelledExitCode } from "../stop-signals.js";

/** `debate worker --queue redis://...`: runs queued debates (a tournament's, a gate evaluation's) from a Redis queue until stopped. */
export function registerWorker(program: Command, io: CliIO): void {
  program
    .command("worker")
    .description(
      "take debates from a Redis queue (`debate tournament run --queue`, `debate gate eval run --queue`) and run them, until Ctrl-C",
    )
    .argument("[redis-url]", "the Redis the debates were enqueued on, e.g. redis://10.0.0.5:6379")
    .option("--queue <redis-url>", "the same Redis URL, as an option")
    .option("--concurrency <n>", "debates at once on this machine", parsePositiveInt, 1)
    .option(
      "--dir <folder>",
      "where this worker keeps its working copies (default: a new folder in memory, /dev/shm, when it has 1 GiB free, else in the temp folder)",
    )
    .option(
      "--lock-duration <ms>",
      "how long a job stays this worker's without a lock renewal",
      parsePositiveInt2,
      30_000,
    )
    .option(
      "--stalled-interval <ms>",
      "how often stalled jobs (a dead worker's) are looked for",
      parsePositiveInt2,
      30_000,
    )
    .option("--json", "print events as JSON lines")
    .addHelpText(
      "after",
      "\nCtrl-C or SIGTERM hands the debates in hand back to the queue (another worker resumes them from\ntheir last checkpoint) and exits within seconds; a second signal exits at once. A Redis that cannot\nbe reached, or refuses the login, ends the worker within 10 s with one line (never the password).",
    )
    .action(
      async (
        urlArg: string | undefined,
        opts: {
          queue?: string;
          concurrency: number;
          dir?: string;
          lockDuration: number;
          stalledInterval: number;
          json?: boolean;
        },
      ) => {
        const url = urlArg ?? opts.queue;
        if (!url)
          throw new ExitError("debate worker needs the Redis URL: debate worker redis://HOST:PORT", 2);
        // The queue, the engine and the tokenizer load when a worker starts, not when `debate` starts.
        const [{ hideUrlCredentials }, { countTokens }, { startWorker }] = await Promise.all([
          import("@debatekit/core"),
          import("@debatekit/skills"),
          import("@debatekit/tournament"),
        ]);
        // Load the tokenizer (about a second of CPU) before taking a debate, not inside the first one.
        countTokens("debate");
        const stop = abortOnSignals(
          io,
          "stopping: the debates in hand go back to the queue (their progress is in Redis)",
          { exitAfterMs: STOP_MS },
        );
        try {
          const worker = await startWorker(url, {
            concurrency: opts.concurrency,
            ...(opts.dir ? { workDir: resolve(io.cwd, opts.dir) } : {}),
            lockDurationMs: opts.lockDuration,
            stalledIntervalMs: opts.stalledInterval,
            env: io.env,
            signal: stop.signal,
            onEvent: (event) => io.stderr.write(opts.json ? `${JSON.stringify(event)}\n` : describe(event)),
          }).catch((error: unknown) => {
            if (stop.signal.aborted) throw new ExitError("stopped", cancelledExitCode, { cause: error });
            throw error;
          });
          io.stderr.write(`worker ${process.pid}: waiting for debates on ${hideUrlCredentials(url)}\n`);
          const stopped = new Promise<undefined>((done) => {
            if (stop.signal.aborted) done(undefined);
            stop.signal.addEventListener("abort", () => done(undefined), { once: true });
          });
          const lost = await Promise.race([worker.lost, stopped]);
          await worker.close();
          if (lost) throw lost;
        } finally {
          stop.dispose();
        }
      },
    );
}

/** How long a stopping worker may take to hand its debates back and close before it exits anyway. */
const STOP_MS = 8_000;

/** A worker event as one line of stderr. */
function describe(event: WorkerEvent): string {
  if (event.type === "job_started")
    return `started ${event.job} (attempt ${event.attempt})${event.inFlight ? `; the call in flight when its last owner lost it, ${event.inFlight}, is asked again unless answered` : ""}\n`;
  if (event.type === "rated") return `rated ${event.tournament}\n`;
  if (event.type === "warning") return `warning: ${event.message}\n`;
  return `${event.status} ${event.job}${event.reason ? `: ${event.reason.split("\n")[0]}` : ""}\n`;
}

function parsePositiveInt2(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100)
    throw new Error(`expected milliseconds (at least 100), got ${JSON.stringify(value)}`);
  return n;
}
