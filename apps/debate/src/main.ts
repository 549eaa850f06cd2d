import { Command, CommanderError } from "commander";
import { commands } from "./commands/index.js";
import { declareInFull } from "./commands/lazy.js";
import { exitCodeOf, redactOutput } from "./exit-error.js";
import { type CliIO, processIO } from "./output.js";
import { version } from "./version.js";

/** Builds the `debate` command line program. */
export function createProgram(io: CliIO = processIO()): Command {
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
  for (const register of commands) register(program, io);
  return program;
}

const VERSION_FLAGS = new Set(["--version", "-V"]);

/** Runs the CLI with the given argv and returns the exit code. The one top-level catch. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const program = createProgram(io);
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    // The command argv names (or `debate help <command>` shows) is declared in full before it is read.
    const [first, second] = argv.slice(2);
    // Formats the config files name are registered before any command reads the registry; the gate
    // never loads a project's code.
    if (first !== "gate" && !VERSION_FLAGS.has(first!)) {
      const { registerConfigFormats } = await import("./load-formats.js");
      await registerConfigFormats(io);
    }
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
