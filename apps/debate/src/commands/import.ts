import type { Command } from "commander";
import type { CliIO } from "../output.js";
import { declareLater } from "./lazy.js";

/** `debate import <file>`: a debate folder from another tool's state (agentsys's last-debate.json). */
export function registerImport(program: Command, io: CliIO): void {
  const command = program
    .command("import")
    .description("create a debate folder from another tool's saved debate (agentsys: last-debate.json)")
    .argument("<file>", "the file to read, e.g. .claude/debate/last-debate.json");
  // Its --from choices are the formats' importers (core): declared once the command is used.
  declareLater(command, async () => (await import("./import.impl.js")).declareImport(command, io));
}
