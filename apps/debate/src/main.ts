import { Command } from "commander";

/** Builds the `debate` command line program. */
export function createProgram(): Command {
  const program = new Command("debate")
    .description("Run structured debates between AI coding CLIs, scored by a judge.")
    .version("0.1.0")
    .showHelpAfterError();
  return program;
}

/** Runs the CLI with the given argv and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = createProgram();
  if (argv.length <= 2) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    process.stderr.write(`debate: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
