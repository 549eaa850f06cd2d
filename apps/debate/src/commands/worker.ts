// The adapters' list alone: `--help` needs no runner.

import { resolve } from "node:path";
import { builtinAdapters } from "@debatekit/runner/adapters";
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
    .option(
      "--adapters <list>",
      "the adapters whose seats this worker runs, comma-separated (default: replay only); a job naming another fails unrun",
      parseAdapters,
    )
    .option(
      "--endpoint <url>",
      "a model server this worker's seats may send requests and keys to, and what lies under it (repeatable; loopback servers too, an http seat without base_url goes to http://127.0.0.1:11434/v1)",
      collectEndpoint,
    )
    .option(
      "--redis-timeout <ms>",
      "how long Redis may take to connect, or to answer once connected, before the worker ends",
      parsePositiveInt2,
      10_000,
    )
    .option("--json", "print events as JSON lines")
    .addHelpText("after", WORKER_HELP)
    .action(
      async (
        urlArg: string | undefined,
        opts: {
          queue?: string;
          concurrency: number;
          dir?: string;
          lockDuration: number;
          stalledInterval: number;
          adapters?: string[];
          endpoint?: string[];
          redisTimeout: number;
          json?: boolean;
        },
      ) => {
        const url = urlArg ?? opts.queue;
        if (!url)
          throw new ExitError("debate worker needs the Redis URL: debate worker redis://HOST:PORT", 2);
        // The queue, the engine and the tokenizer load when a worker starts, not when `debate` starts.
        const [
          { hideUrlCredentials },
          { countTokens },
          { startWorker, queueUrlWarnings, DEFAULT_WORKER_SEATS },
        ] = await Promise.all([
          import("@debatekit/core"),
          import("@debatekit/skills"),
          import("@debatekit/tournament"),
        ]);
        for (const warning of queueUrlWarnings(url)) io.stderr.write(`warning: ${warning}\n`);
        const seats = {
          adapters: opts.adapters ?? DEFAULT_WORKER_SEATS.adapters,
          endpoints: opts.endpoint ?? [],
        };
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
            redisTimeoutMs: opts.redisTimeout,
            seats,
            env: io.env,
            signal: stop.signal,
            onEvent: (event) => io.stderr.write(opts.json ? `${JSON.stringify(event)}\n` : describe(event)),
          }).catch((error: unknown) => {
            if (stop.signal.aborted) throw new ExitError("stopped", cancelledExitCode, { cause: error });
            throw error;
          });
          io.stderr.write(
            `worker ${process.pid}: waiting for debates on ${hideUrlCredentials(url)} (seats: ${seats.adapters.join(",")}; endpoints: ${seats.endpoints.join(", ") || "none"})\n`,
          );
          const stopped = new Promise<undefined>((done) => {
            if (stop.signal.aborted) done(undefined);
            stop.signal.addEventListener("abort", () => done(undefined), { once: true });
          });
          const lost = await Promise.race([worker.lost, stopped]);
          await worker.close();
          if (lost) throw lost;
          // Stopped by a signal: 130, as every command a signal stops (README's exit codes).
          throw new ExitError("stopped; the debates in hand went back to the queue", cancelledExitCode);
        } finally {
          stop.dispose();
        }
      },
    );
}

const WORKER_HELP = `
Whoever can write the queue writes its jobs, so a job is data: its ids must be slugs (they name its
working folder), and its seats must be ones this worker allows: an adapter in --adapters (default:
replay only), and every server a seat names (base_url, a server or proxy in its env; loopback ones
too) under an --endpoint. A job that asks for anything else fails unrun, saying why, and the worker
goes on. A seat's command, workspace or a server off this machine also needs your own consent, as
in any debate (\`debate allow --help\`). E.g.:
  debate worker rediss://:PASSWORD@10.0.0.5:6379 --adapters claude,http --endpoint http://127.0.0.1:11434/v1

A Redis off this machine without a password in the URL, or without TLS (rediss://), gets a warning.
Ctrl-C or SIGTERM hands the debates in hand back to the queue (another worker resumes them from
their last checkpoint) and exits 130 within seconds; a second signal exits at once. A Redis that
cannot be reached, refuses the login, or stops answering once connected ends the worker within
--redis-timeout (10 s) with one line naming host:port (never the password), exit 1.`;

/** `--adapters claude,codex`: known adapter names. */
function parseAdapters(value: string): string[] {
  const names = value
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.find((n) => !builtinAdapters.includes(n));
  if (names.length === 0 || unknown !== undefined)
    throw new Error(
      `expected adapter names from ${builtinAdapters.join(", ")}, comma-separated; got ${JSON.stringify(unknown ?? value)}`,
    );
  return names;
}

/** `--endpoint URL`, repeatable: an http(s) server without credentials, as in allow_endpoints. */
function collectEndpoint(value: string, previous: string[] = []): string[] {
  if (!/^https?:\/\/[^@\s/]+(\/[^@\s]*)?$/.test(value))
    throw new Error(
      `expected an http:// or https:// server without credentials, got ${JSON.stringify(value)}`,
    );
  return [...previous, value];
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
