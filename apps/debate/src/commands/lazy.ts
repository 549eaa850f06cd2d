import { type Command, Option } from "commander";

// A command whose options come from the engine (the formats in core) is declared at start with its
// name, description and arguments only: `debate --help` then loads no engine. The rest is declared
// before commander reads argv for it (main), and for every such command when completion lists options.
const pending = new WeakMap<Command, () => Promise<void>>();

/** Declares the rest of `command` (options, help, action) with `finish`, when it is needed. */
export function declareLater(command: Command, finish: () => Promise<void>): void {
  // Until then a hidden option keeps `[options]` in the program's list of commands, as declared in full.
  command.addOption(new Option("--declared-later").hideHelp());
  pending.set(command, async () => {
    (command.options as Option[]).length = 0;
    await finish();
  });
}

/**
 * Declares in full the commands of `program` named (all when no names are given) that were declared
 * later, and every subcommand of theirs declared later (`skills match`).
 */
export async function declareInFull(
  program: Command,
  names?: ReadonlyArray<string | undefined>,
): Promise<void> {
  for (const command of program.commands) {
    if (names && !names.includes(command.name())) continue;
    const finish = pending.get(command);
    if (finish) {
      pending.delete(command);
      await finish();
    }
    if (command.commands.length > 0) await declareInFull(command);
  }
}
