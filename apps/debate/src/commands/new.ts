import type { Command } from "commander";
import type { CliIO } from "../output.js";
import { declareLater } from "./lazy.js";

/** `debate new "<motion>"`: creates a debate folder ready to run, in any registered format. */
export function registerNew(program: Command, io: CliIO): void {
  const command = program
    .command("new")
    .description("create a debate folder for a motion (or a topic)")
    .argument("<motion>", 'the motion, e.g. "This house would require a second review of AI-written code"');
  // Its flags come from the formats (core): declared once the command is used.
  declareLater(command, async () => (await import("./new.impl.js")).declareNew(command, io));
}
