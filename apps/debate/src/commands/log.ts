import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { StepFilter } from "../actions/log.js";
import type { CliIO } from "../output.js";

/** Commander parser for `--step 2`, `--step 2:judge`, `--step 2:judge:3`. */
export function parseStep(value: string): StepFilter {
  const match = /^(\d{1,4})(?::([a-z][a-z0-9_]*))?(?::(\d{1,3}))?$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(
      `expected <exchange>[:<seat>[:<attempt>]] such as 2 or 2:judge, got ${JSON.stringify(value)}`,
    );
  return {
    exchange: Number(match[1]),
    ...(match[2] ? { role: match[2] } : {}),
    ...(match[3] ? { attempt: Number(match[3]) } : {}),
  };
}

/** `debate log <dir> [--step …]`: what was sent to each seat and what came back, from the journal. */
export function registerLog(program: Command, io: CliIO): void {
  program
    .command("log")
    .description("show what was sent to each seat and what came back (from the journal)")
    .argument("<dir>", "the debate folder (holds debate.md)")
    .option("--step <exchange[:seat[:attempt]]>", "only this exchange or round, seat and attempt", parseStep)
    .option("--json", "print the journal entries as JSON")
    .addHelpText(
      "after",
      `
Secrets are redacted before anything is journaled; a very long prompt is kept cut.

Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate run debates/tests-first
  $ debate log debates/tests-first                 # every call, in order
  $ debate log debates/tests-first --step 2:judge  # the judge's calls of exchange 2
  $ debate log debates/tests-first --step 0 --json`,
    )
    .action(async (dirArg: string, opts: { step?: StepFilter; json?: boolean }) => {
      const [{ logUnit, readLog }, { formatJournalEntry }] = await Promise.all([
        import("../actions/log.js"),
        import("../cli-format/journal-line.js"),
      ]);
      const entries = await readLog(io, { dir: dirArg, ...(opts.step ? { step: opts.step } : {}) });
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
      }
      if (entries.length === 0) {
        io.stderr.write(
          `no calls journaled${opts.step ? " for that step" : ""} in ${dirArg} (a debate's calls are journaled once it runs)\n`,
        );
        return;
      }
      const unit = await logUnit(io, { dir: dirArg });
      io.stdout.write(entries.map((entry) => formatJournalEntry(entry, unit)).join("\n"));
    });
}
