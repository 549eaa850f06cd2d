import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import type { DebateState } from "@debatekit/core";
import type { Narrative, Report } from "@debatekit/report";
import type { SeatConfig } from "@debatekit/schema";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import { type CliIO, shownPath } from "../output.js";

/** What `debate report --json` prints: where the files went and the facts of the report. */
export interface ReportSummary {
  dir: string;
  files: string[];
  format: string;
  status: string;
  alerts: string[];
  headline?: string;
  winner?: string;
  totals?: Record<string, number>;
  strongest?: string;
  weakest?: string;
  nodes?: number;
  edges?: number;
  chartPoints?: number[];
  tokens: Report["totals"];
  /** The reporter seat's narrative: `written` (with the ids it cites), `failed` (why), or absent without a reporter seat. */
  narrative?: { status: "written"; cited: string[] } | { status: "failed"; error: string };
}

function summaryOf(dir: string, files: string[], report: Report): ReportSummary {
  const b = report.body;
  return {
    dir,
    files,
    format: report.format,
    status: report.status,
    alerts: report.alerts,
    tokens: report.totals,
    ...(report.narrative
      ? {
          narrative: report.narrative.ok
            ? { status: "written" as const, cited: report.narrative.cited }
            : { status: "failed" as const, error: report.narrative.error },
        }
      : {}),
    ...(b
      ? {
          headline: b.verdict.headline,
          ...(b.verdict.winner ? { winner: b.verdict.winner } : {}),
          ...(b.verdict.totals ? { totals: b.verdict.totals } : {}),
          ...(b.strongest[0] ? { strongest: b.strongest[0].id } : {}),
          ...(b.weakest[0] ? { weakest: b.weakest[0].id } : {}),
          nodes: b.graph.nodes.length,
          edges: b.graph.edges.length,
          chartPoints: b.chart.series.map((s) => s.points.length),
        }
      : {}),
  };
}

/**
 * The program that opens a file: `$BROWSER` when set (the first of a `:`-separated list; `%s` marks
 * where the path goes, else it is the last argument), else the platform's opener. Never a shell:
 * the command is split on spaces and run directly.
 */
export function openerFor(
  path: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const browser = env.BROWSER?.split(":").find((b) => b.trim() !== "");
  if (browser) {
    const [command, ...rest] = browser.trim().split(/\s+/);
    const args = rest.some((a) => a.includes("%s"))
      ? rest.map((a) => a.replace(/%s/g, path))
      : [...rest, path];
    return { command: command!, args };
  }
  if (platform === "darwin") return { command: "open", args: [path] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", "", path] };
  return { command: "xdg-open", args: [path] };
}

/** Opens a file with the user's viewer, without waiting for it (a missing opener is a warning, not a failure). */
function openFile(path: string, io: CliIO): void {
  const { command, args } = openerFor(path, io.env);
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", (e) =>
    io.stderr.write(`warning: could not open ${path} with ${command}: ${e.message}\n`),
  );
  child.unref();
}

/**
 * The reporter seat's narrative, when debate.md has one: asked through the runner (journaled, reused
 * for the same state, retried when the check refuses it). Its failure is the report's last section,
 * never the report's failure.
 */
async function askReporter(dir: string, state: DebateState, io: CliIO): Promise<Narrative | undefined> {
  const seat = (state.frontmatter.seats as unknown as Record<string, SeatConfig | undefined> | undefined)
    ?.reporter;
  if (!seat) return undefined;
  const [{ REPORTING_PHASE }, { buildReport, checkNarrative, narrativePrompt }, { askExtraSeat }] =
    await Promise.all([import("@debatekit/core"), import("@debatekit/report"), import("@debatekit/runner")]);
  const name = [seat.adapter, seat.model].filter(Boolean).join(" / ");
  // The prompt rests on the state alone (not the journal), so the same state asks the same prompt.
  const facts = (s: DebateState) => buildReport({ state: s });
  try {
    const outcome = await askExtraSeat(
      dir,
      {
        role: "reporter",
        phase: REPORTING_PHASE,
        prompt: (s, feedback) => narrativePrompt(facts(s), feedback),
        parse: (s, text) => checkNarrative(text, facts(s)),
      },
      { env: io.env, cwd: io.cwd },
    );
    return outcome.ok
      ? { ok: true, seat: name, text: outcome.value.text, cited: outcome.value.cited }
      : { ok: false, seat: name, error: outcome.error.message };
  } catch (error) {
    return { ok: false, seat: name, error: (error as Error).message };
  }
}

/** `debate report <dir>`: writes report.md and report.html into the debate folder. */
export function registerReport(program: Command, io: CliIO): void {
  program
    .command("report")
    .description("write report.md and a self-contained report.html into a debate folder")
    .addHelpText(
      "after",
      `
Examples:
  $ debate report debates/tests-first
  $ debate report debates/tests-first --open`,
    )
    .argument("<dir>", "the debate folder")
    .option("--open", "open report.html when written")
    .option("--json", "print where the files went and the report's facts as JSON")
    .option("--no-narrative", "do not ask the reporter seat (debate.md's seats.reporter) for its analysis")
    .action(async (dirArg: string, opts: { open?: boolean; json?: boolean; narrative: boolean }) => {
      // The engine and the report's layout load when the command runs, not when `debate` starts.
      const [{ formatRuleErrors }, { readDebateFolder, readJournal, writeFileAtomic }, { createReport }] =
        await Promise.all([
          import("@debatekit/core"),
          import("@debatekit/files"),
          import("@debatekit/report"),
        ]);
      const dir = resolve(io.cwd, dirArg);
      const read = await readDebateFolder(dir);
      if (!read.ok)
        throw new ExitError(`cannot report on ${dirArg}: ${formatRuleErrors(read.errors).join("; ")}`);
      const state = read.value.state;
      const narrative = opts.narrative ? await askReporter(dir, state, io) : undefined;
      // A dialectic folder has no journal; the report is complete without tokens and cost.
      const journal = await readJournal(dir).catch(() => []);
      const { report, markdown, html } = createReport({
        state,
        journal,
        ...(narrative ? { narrative } : {}),
      });
      const files = [join(dir, "report.md"), join(dir, "report.html")];
      await writeFileAtomic(files[0]!, markdown);
      await writeFileAtomic(files[1]!, html);
      if (opts.json) io.stdout.write(`${JSON.stringify(summaryOf(dir, files, report), null, 2)}\n`);
      else {
        for (const alert of report.alerts) io.stdout.write(`! ${alert}\n`);
        if (report.body) io.stdout.write(`${report.body.verdict.headline}\n`);
        if (report.narrative)
          io.stdout.write(
            report.narrative.ok
              ? `narrative by the reporter seat (${report.narrative.seat}), citing ${report.narrative.cited.join(", ") || "no id"}\n`
              : `! no narrative: ${report.narrative.error}\n`,
          );
        io.stdout.write(`wrote ${files.map((f) => shownPath(io.cwd, f)).join(", ")}\n`);
      }
      if (opts.open) openFile(files[1]!, io);
    });
}
