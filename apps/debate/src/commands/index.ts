import type { Command } from "commander";
import type { CliIO } from "../output.js";
import { registerAllow } from "./allow.js";
import { registerCompletion } from "./completion.js";
import { registerDoctor } from "./doctor.js";
import { registerExample } from "./example.js";
import { registerGate } from "./gate.js";
import { registerGateEval } from "./gate-eval.js";
import { registerImport } from "./import.js";
import { registerLog } from "./log.js";
import { registerMcp } from "./mcp.js";
import { registerNew } from "./new.js";
import { registerReport } from "./report.js";
import { registerReset } from "./reset.js";
import { registerReview } from "./review.js";
import { registerRun } from "./run.js";
import { registerSetup } from "./setup.js";
import { registerSkills } from "./skills.js";
import { registerStatus } from "./status.js";
import { registerTournament } from "./tournament.js";
import { registerWatch } from "./watch.js";
import { registerWorker } from "./worker.js";

/** A subcommand: adds itself to the program. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** Every subcommand of `debate`, in the order `--help` lists them. One line per command file. */
export const commands: RegisterCommand[] = [
  registerNew,
  registerImport,
  registerReview,
  registerGate,
  registerGateEval,
  registerRun,
  registerAllow,
  registerStatus,
  registerReset,
  registerLog,
  registerReport,
  registerWatch,
  registerTournament,
  registerWorker,
  registerSkills,
  registerDoctor,
  registerMcp,
  registerSetup,
  registerExample,
  registerCompletion,
];
