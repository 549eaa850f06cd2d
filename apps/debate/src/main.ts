import { Command, CommanderError } from "commander";
import { commandsFor } from "./commands/index.js";
import { declareInFull } from "./commands/lazy.js";
import { exitCodeOf, redactOutput } from "./exit-error.js";
import { type CliIO, processIO } from "./output.js";
import { version } from "./version.js";

/** Options of createProgram. */
export interface ProgramOptions {
  /**
   * The command the command line names: only its file is loaded. Absent (or no command's name):
   * every command is, as `--help`, `help` and `completion` list them all.
   */
  only?: string;
}

/** Builds the `debate` command line program, loading the command files it needs. */
export async function createProgram(io: CliIO = processIO(), options: ProgramOptions = {}): Promise<Command> {
  const program = new Command("debate")
    .description("Run structured debates between AI coding CLIs, scored by a judge.")
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // A usage error is one line with a pointer to the help, never the whole help.
      // It quotes the bad argument: redacted like every other error.
      outputError: (s, write) =>
        write(`${redactOutput(s.trim(), io.env).replace(/\s*\n\s*/g, " ")} (see --help)\n`),
    });
  const registers = await Promise.all(commandsFor(options.only).map((command) => command.load()));
  for (const register of registers) register(program, io);
  return program;
}

// Command lines that print only what the CLI itself declares (its version, its list of commands): no
// format a config names can change them, so none is loaded.
const PRINT_ONLY = new Set(["--version", "-V", "--help", "-h"]);
// Commands that list every command: all command files load for them.
const LISTING_COMMANDS = new Set(["help", "completion"]);

/** Runs the CLI with the given argv and returns the exit code. The one top-level catch. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  if (argv.length <= 2) {
    (await createProgram(io)).outputHelp();
    return 0;
  }
  try {
    // The command argv names (or `debate help <command>` shows) is declared in full before it is read.
    const [first, second] = argv.slice(2);
    // Formats the config files name are registered before any command reads the registry; the gate
    // never loads a project's code.
    if (first !== "gate" && !PRINT_ONLY.has(first!)) {
      const { registerConfigFormats } = await import("./load-formats.js");
      await registerConfigFormats(io);
    }
    const program = await createProgram(io, LISTING_COMMANDS.has(first!) ? {} : { only: first });
    await declareInFull(program, [first === "help" ? second : first]);
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = redactOutput(error instanceof Error ? error.message : String(error), io.env);
    // An empty message: the command already said why (e.g. the gate's reason line). A provider's
    // error can carry a model's control characters: shown escaped, like every face does.
    if (message) {
      const { escapeTerminal } = await import("@debatekit/report/escape");
      io.stderr.write(`debate: ${escapeTerminal(message.split("\n")[0]!)}\n`);
    }
    return exitCodeOf(error);
  }
}
