import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import { parseNonNegativeInt } from "../options.js";
import { type CliIO, shownPath } from "../output.js";
import { debateFolderOf } from "./run.js";

/** `debate reset <dir> [--to <exchange>]`: back to the start (or an exchange), motion and seats kept. */
export function registerReset(program: Command, io: CliIO): void {
  program
    .command("reset")
    .description("take a debate back to its start, or to an exchange, keeping its motion, seats and settings")
    .argument("<dir>", "the debate folder (holds debate.md)")
    .option(
      "--to <exchange>",
      "start again from this exchange (crossfire: round); the ones before it stay",
      parseNonNegativeInt,
    )
    .addHelpText(
      "after",
      `
What is undone (arguments, scores, prompts, inbox answers, journal entries) is kept under
.debate/reset/<time>/, never deleted. A review debate cannot be reset.

Examples:
  $ debate reset debates/tests-first            # back to exchange 0
  $ debate reset debates/tests-first --to 2     # keep exchanges 0 and 1, redo from 2
  $ debate run debates/tests-first`,
    )
    .action(async (dirArg: string, opts: { to?: number }) => {
      const dir = await debateFolderOf(io, dirArg);
      const { resetDebateFolder } = await import("@debatekit/files");
      const done = await resetDebateFolder(dir, {
        ...(opts.to !== undefined ? { to: opts.to } : {}),
        command: `debate reset ${dirArg}`,
      }).catch((error: unknown) => {
        const code = (error as { code?: string }).code;
        if (code === "RESET_EXCHANGE_OUT_OF_RANGE" || code === "RESET_UNSUPPORTED")
          throw new ExitError((error as Error).message, 2, { cause: error });
        throw error;
      });
      const kept = done.keptIn ? ` (kept in ${shownPath(io.cwd, `${dir}/${done.keptIn}`)})` : "";
      io.stdout.write(
        `reset ${shownPath(io.cwd, dir)} to ${done.unit} ${done.exchange}: ${done.removed.length} file${done.removed.length === 1 ? "" : "s"} taken out${kept}\n`,
      );
    });
}
