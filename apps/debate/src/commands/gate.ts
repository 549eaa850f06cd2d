import { appendFile, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { GateResult } from "@debatekit/schema";
import { type Command, CommanderError, Option } from "commander";
import type { GateInput, GateNotice } from "../actions/gate.js";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";

/** The CLI's own version (SARIF names it). */
const VERSION = "0.1.0";

/** Where the gate's result goes besides stdout. */
interface GateOutputs {
  json?: boolean;
  sarif?: string;
  comment?: string;
}

/** A notice of the gate on stderr: a warning, or (without --json) the review it starts. */
function printNotice(io: CliIO, notice: GateNotice, json: boolean): void {
  if (notice.type === "warning") io.stderr.write(`warning: ${notice.message}\n`);
  else if (!json)
    io.stderr.write(
      `gate: reviewing ${notice.origin} in ${relative(io.cwd, notice.dir) || "."} (${notice.rounds} round(s), ${notice.minutes} min)${notice.inGitDir ? "; kept in the git folder, outside the working tree, for `debate report` (--dir keeps it elsewhere)" : ""}\n`,
    );
}

/**
 * Writes the gate's result (already redacted: see redactResult) where CI looks: --json, --sarif,
 * --comment and $GITHUB_STEP_SUMMARY. `changed` (the change's files) are the only files a SARIF
 * result may point at.
 */
async function writeOutputs(
  io: CliIO,
  opts: GateOutputs,
  result: GateResult,
  changed: ReadonlySet<string>,
): Promise<void> {
  const [{ renderGateComment }, { renderGateSarif }] = await Promise.all([
    import("../gate/comment.js"),
    import("../gate/sarif.js"),
  ]);
  const comment = renderGateComment(result);
  if (opts.sarif)
    await writeFile(
      resolve(io.cwd, opts.sarif),
      `${JSON.stringify(renderGateSarif(result, VERSION, changed), null, 2)}\n`,
    );
  if (opts.comment) await writeFile(resolve(io.cwd, opts.comment), comment);
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) await appendFile(summary, comment);
  if (opts.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else
    io.stdout.write(
      `${result.outcome} (exit ${result.exit_code})${result.dir ? `: ${relative(io.cwd, result.dir) || "."}` : ""}\n`,
    );
}

/** `debate gate`: review a change in CI and exit 0 pass, 1 blocked, 2 undecided (docs/architecture.md#honest-degradation). */
export function registerGate(program: Command, io: CliIO): void {
  program
    .command("gate")
    .description("review a change in CI: exit 0 pass, 1 blocked, 2 undecided (never 0 when unsure)")
    .addOption(
      new Option("--scope <scope>", "the change: base:BRANCH, range:A..B, commit:SHA or uncommitted").default(
        "base:main",
      ),
    )
    .option(
      "--policy <file>",
      "a gate policy (YAML or JSON): what blocks, seats, fallback judge, budget; read as the base revision has it when inside the repository",
    )
    .option("--critic <adapter>", "who critiques (overrides the policy)")
    .option("--author <adapter>", "who answers a D (rebuttal) or C (compromise) (overrides the policy)")
    .option("--judge <adapter>", "who classifies and decides (overrides the policy)")
    .option(
      "--judges <adapters>",
      "a judge panel, comma-separated (e.g. claude,gemini,opencode): asked in parallel, decided by majority; the policy's quorum (default: all) must answer (overrides the policy)",
      (value: string) =>
        value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
    )
    .option(
      "--fallback-judge <adapter>",
      "asked when the judge fails or the panel misses its quorum (overrides the policy)",
    )
    .addOption(
      new Option(
        "--intensity <preset>",
        "quick 1 round/10 min (default), standard 3/20, extensive 5/40",
      ).choices(["quick", "standard", "extensive"]),
    )
    .option("--max-rounds <n>", "at most this many rounds", parsePositiveInt)
    .option(
      "--budget-minutes <m>",
      "the seats' time budget; spent before a decision = undecided",
      parsePositiveInt,
    )
    .option(
      "--dir <parent>",
      "where the review folder is created (default: .git/debatekit/gate, outside the working tree)",
    )
    .option("--slug <slug>", "the review folder's name (default gate-<scope>-<time>)")
    .option("--json", "print the result as JSON (outcome, exit_code, reason, findings, degraded, settings)")
    .option(
      "--sarif <file>",
      "write SARIF 2.1.0 (code scanning shows each finding inline, at its file when that file is in the change)",
    )
    .option("--comment <file>", "write the markdown pull request comment")
    .addHelpText(
      "after",
      "\nExamples:\n  debate gate --scope base:main --critic codex --judge claude\n  debate gate --scope range:$BASE..$HEAD --policy .github/debate-gate.yml --sarif gate.sarif --comment gate.md\n\nSettings come from the base revision, never from the change under review: the policy (a file outside\nthe repository is read as it is), the config file (JSON or YAML only: a JS config is never run),\n.debatekit/agents/ and skills/. The base is what the change starts from: base:B the merge base of B\nand HEAD, range:A..B A, commit:C its parent, uncommitted HEAD. --json (`settings`) and the comment name it.\n\nExit codes: 0 pass, 1 blocked, 2 undecided (a seat failed, quorum or budget missed, evidence unchecked, bad input).",
    )
    // Bad flags are a gate that could not decide: 2, never 1 (blocked) or 0.
    .exitOverride((error) => {
      if (error.exitCode === 0) throw error;
      throw new CommanderError(2, error.code, error.message);
    })
    .action(async (opts: GateInput & GateOutputs) => {
      const [{ runGate }, { createProgress }] = await Promise.all([
        import("../actions/gate.js"),
        import("../progress.js"),
      ]);
      // Made when the review folder exists, so it counts in the folder's unit (`round 1/3`).
      let progress: ReturnType<typeof createProgress> | undefined;
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      let outcome: Awaited<ReturnType<typeof runGate>>;
      try {
        outcome = await runGate(
          {
            cwd: io.cwd,
            env: io.env,
            signal: controller.signal,
            onEvent: (event) => progress?.onEvent(event),
          },
          {
            ...opts,
            onNotice: (notice) => {
              printNotice(io, notice, opts.json === true);
              if (notice.type === "reviewing" && !opts.json) progress = createProgress(io, notice.standing);
            },
          },
        );
      } finally {
        progress?.stop();
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
      const { result, changed } = outcome;
      await writeOutputs(io, opts, result, changed);
      const { escapeTerminal } = await import("@debatekit/report/escape");
      io.stderr.write(`gate: ${escapeTerminal(result.reason)}\n`);
      if (result.exit_code !== 0) throw new GateExit(result.exit_code);
    });
}

/** Ends the gate with its exit code; the reason is already on stderr. */
class GateExit extends ExitError {
  constructor(code: number) {
    super("", code);
  }
}
