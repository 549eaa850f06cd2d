import type { Command } from "commander";
import type { CliIO } from "../output.js";

/** A subcommand: adds itself to the program. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** A command file: the top-level commands it declares, and how to load it (only when one of them runs). */
export interface CommandModule {
  names: readonly string[];
  load: () => Promise<RegisterCommand>;
}

/** Every subcommand of `debate`, in the order `--help` lists them. One row per command file. */
export const commands: readonly CommandModule[] = [
  { names: ["new"], load: () => import("./new.js").then((m) => m.registerNew) },
  { names: ["import"], load: () => import("./import.js").then((m) => m.registerImport) },
  { names: ["review"], load: () => import("./review.js").then((m) => m.registerReview) },
  {
    names: ["gate"],
    // `debate gate eval` is declared under the gate command, once the gate is.
    load: () =>
      Promise.all([import("./gate.js"), import("./gate-eval.js")]).then(
        ([gate, evaluation]): RegisterCommand =>
          (program, io) => {
            gate.registerGate(program, io);
            evaluation.registerGateEval(program, io);
          },
      ),
  },
  { names: ["run"], load: () => import("./run.js").then((m) => m.registerRun) },
  { names: ["allow", "deny"], load: () => import("./allow.js").then((m) => m.registerAllow) },
  { names: ["status"], load: () => import("./status.js").then((m) => m.registerStatus) },
  { names: ["reset"], load: () => import("./reset.js").then((m) => m.registerReset) },
  { names: ["log"], load: () => import("./log.js").then((m) => m.registerLog) },
  { names: ["report"], load: () => import("./report.js").then((m) => m.registerReport) },
  { names: ["watch"], load: () => import("./watch.js").then((m) => m.registerWatch) },
  { names: ["serve"], load: () => import("./serve.js").then((m) => m.registerServe) },
  { names: ["tournament"], load: () => import("./tournament.js").then((m) => m.registerTournament) },
  { names: ["worker"], load: () => import("./worker.js").then((m) => m.registerWorker) },
  { names: ["skills"], load: () => import("./skills.js").then((m) => m.registerSkills) },
  { names: ["doctor"], load: () => import("./doctor.js").then((m) => m.registerDoctor) },
  { names: ["mcp"], load: () => import("./mcp.js").then((m) => m.registerMcp) },
  { names: ["setup"], load: () => import("./setup.js").then((m) => m.registerSetup) },
  { names: ["example"], load: () => import("./example.js").then((m) => m.registerExample) },
  { names: ["completion"], load: () => import("./completion.js").then((m) => m.registerCompletion) },
];

/**
 * The command files to load for a command line whose command is `name`: that command's file alone,
 * or every file when it names none of them (no command, `--help`, a typo that gets a suggestion).
 */
export function commandsFor(name: string | undefined): readonly CommandModule[] {
  const named = commands.filter((c) => name !== undefined && c.names.includes(name));
  return named.length > 0 ? named : commands;
}
