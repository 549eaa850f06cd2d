import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";
import type { watchDebates } from "../watch/watcher.js";

/** Exit code when a second Ctrl-C forces the watcher down (128 + SIGINT, as shells do). */
const forcedExitCode = 130;

function parseMs(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 60_000) {
    throw new InvalidArgumentError(`expected milliseconds from 0 to 60000, got ${JSON.stringify(value)}`);
  }
  return n;
}

async function checkFolders(io: CliIO, dirs: string[]): Promise<string[]> {
  return Promise.all(
    dirs.map(async (d) => {
      const abs = resolve(io.cwd, d);
      const info = await stat(abs).catch(() => undefined);
      if (!info?.isDirectory())
        throw new ExitError(`${d}: not a folder (expected a debate folder or a folder of debates)`, 2);
      return abs;
    }),
  );
}

/** `debate watch [dir...]`: advances every debate under the folders whenever its files change. */
export function registerWatch(program: Command, io: CliIO): void {
  program
    .command("watch")
    .description("advance every debate under the folders whenever its files change (Ctrl-C stops)")
    .addHelpText(
      "after",
      `
Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate watch                   # every debate under debates/
  $ debate watch debates/tests-first --json`,
    )
    // Without a folder it watches debates/, where `debate new` writes, as `debate status` reads it.
    .argument("[dirs...]", "debate folders, or folders holding debate folders", ["debates"])
    .option("--json", "print one JSON event per line (NDJSON) on stdout instead of text")
    .option("--debounce <ms>", "quiet time after a debate's last change before it runs (default 50)", parseMs)
    .option("--write-finish <ms>", "a changed file must keep its size this long (default 100)", parseMs)
    .option("--concurrency <n>", "debates running at the same time (default 4)", parsePositiveInt)
    .option(
      "--rescan <ms>",
      "also look for changes no file event reported, this often (default 2000; 0: never)",
      parseMs,
    )
    .action(
      async (
        dirArgs: string[],
        opts: {
          json?: boolean;
          debounce?: number;
          writeFinish?: number;
          concurrency?: number;
          rescan?: number;
        },
      ) => {
        const dirs = await checkFolders(io, dirArgs);
        // The watcher (chokidar, the runner) loads when the command runs, not when `debate` starts.
        const [{ configSkillFolders }, { createWatchPrinter }, { watchDebates }] = await Promise.all([
          import("../config.js"),
          import("../watch/format.js"),
          import("../watch/watcher.js"),
        ]);
        const extraSkillRoots = await configSkillFolders(io);
        let debates: (() => ReturnType<ReturnType<typeof watchDebates>["debates"]>) | undefined;
        const printer = createWatchPrinter(io, {
          ...(opts.json ? { json: true } : {}),
          debates: () => debates?.() ?? [],
        });
        // A second signal while the runs wind down forces the exit.
        const force = () => process.exit(forcedExitCode);
        // Listening before the watcher starts: a signal right after its first line stops it cleanly.
        const stopped = new Promise<void>((stop) => {
          const onSignal = (signal: NodeJS.Signals) => {
            if (!opts.json)
              io.stderr.write(`\n${signal}: stopping; running seats are aborted (again to force)\n`);
            process.off("SIGINT", onSignal);
            process.off("SIGTERM", onSignal);
            process.on("SIGINT", force);
            process.on("SIGTERM", force);
            stop();
          };
          process.on("SIGINT", onSignal);
          process.on("SIGTERM", onSignal);
        });
        const watcher = watchDebates(dirs, {
          onEvent: printer.onEvent,
          ...(opts.debounce !== undefined ? { debounceMs: opts.debounce } : {}),
          ...(opts.writeFinish !== undefined ? { writeFinishMs: opts.writeFinish } : {}),
          ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
          ...(opts.rescan !== undefined ? { rescanMs: opts.rescan } : {}),
          run: { env: io.env, cwd: io.cwd, ...(extraSkillRoots.length > 0 ? { extraSkillRoots } : {}) },
        });
        debates = () => watcher.debates();
        await stopped;
        try {
          await watcher.close();
        } finally {
          printer.stop();
          process.off("SIGINT", force);
          process.off("SIGTERM", force);
        }
      },
    );
}
