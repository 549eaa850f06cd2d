import type { Command } from "commander";
import { parseNonNegativeInt } from "../options.js";
import { type CliIO, shownPath } from "../output.js";

/** `debate reset <dir> [--to <exchange>]`: back to the start (or an exchange), motion and seats kept. */
export function registerReset(program: Command, io: CliIO): void {
  program
    .command("reset")
    .description("take a debate back to its start, or to an exchange, keeping its motion, seats and settings")
    .argument("<dir>", "the debate folder (holds debate.md)")
    .option(
      "--to <exchange>",
      "start again from this exchange or round; the ones before it stay",
      parseNonNegativeInt,
    )
    .addHelpText(
      "after",
      `
What is undone (arguments, scores, prompts, inbox answers, journal entries) is kept under
.debate/reset/<time>/, never deleted. A review debate cannot be reset.

Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate run debates/tests-first
  $ debate reset debates/tests-first --to 2     # keep exchanges 0 and 1, redo from 2
  $ debate reset debates/tests-first            # back to exchange 0
  $ debate run debates/tests-first`,
    )
    .action(async (dirArg: string, opts: { to?: number }) => {
      const { resetDebate } = await import("../actions/reset.js");
      const done = await resetDebate(io, {
        dir: dirArg,
        ...(opts.to !== undefined ? { to: opts.to } : {}),
        command: `debate reset ${dirArg}`,
      });
      const { dir } = done;
      const kept = done.keptIn ? ` (kept in ${shownPath(io.cwd, `${dir}/${done.keptIn}`)})` : "";
      io.stdout.write(
        `reset ${shownPath(io.cwd, dir)} to ${done.unit} ${done.exchange}: ${done.removed.length} file${done.removed.length === 1 ? "" : "s"} taken out${kept}\n`,
      );
    });
}
