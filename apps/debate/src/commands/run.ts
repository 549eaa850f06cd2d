import type { Command } from "commander";
import { parsePositiveInt, parseUsd } from "../options.js";
import type { CliIO } from "../output.js";

// The engine's packages load when a command runs, not when `debate` starts (--help stays quick).

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
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate run debates/tests-first --exchanges 2   # stop once 2 exchanges are complete
  $ debate run debates/tests-first --verbose       # resume until done or waiting, printing each prompt and answer
  $ debate run debates/tests-first --fresh         # start over in a temporary copy`,
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
        const [{ debateFolderOf }, { freshCopy }, { runAndPrint }] = await Promise.all([
          import("../actions/folder.js"),
          import("../actions/run.js"),
          import("../cli-format/run.js"),
        ]);
        const original = await debateFolderOf(io, dirArg);
        let dir = original;
        if (opts.fresh) {
          dir = await freshCopy(dir);
          if (!opts.json) io.stderr.write(`running a fresh copy in ${dir}\n`);
        }
        // A fresh copy runs what the original's allowance (`debate allow`) allows.
        await runAndPrint(
          io,
          {
            dir,
            ...(opts.exchanges !== undefined ? { maxExchanges: opts.exchanges } : {}),
            ...(opts.maxCost !== undefined ? { maxUsd: opts.maxCost } : {}),
            ...(opts.wait ? { wait: true } : {}),
            command: `debate run ${dirArg}`,
            consentDir: original,
          },
          { ...(opts.json ? { json: true } : {}), ...(opts.verbose ? { verbose: true } : {}) },
        );
      },
    );
}
