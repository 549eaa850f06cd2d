import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { formatRuleErrors } from "@debatekit/core";
import { readDebateFolder, readJournal, writeFileAtomic } from "@debatekit/files";
import { createReport, type Report } from "@debatekit/report";
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

/** Opens a file with the system's viewer, without waiting for it. */
function openFile(path: string, io: CliIO): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [path]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", path]]
        : ["xdg-open", [path]];
  const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => io.stderr.write(`warning: could not open ${path} (${command} not found)\n`));
  child.unref();
}

/** `debate report <dir>`: writes report.md and report.html into the debate folder. */
export function registerReport(program: Command, io: CliIO): void {
  program
    .command("report")
    .description("write report.md and a self-contained report.html into a debate folder")
    .argument("<dir>", "the debate folder")
    .option("--open", "open report.html when written")
    .option("--json", "print where the files went and the report's facts as JSON")
    .action(async (dirArg: string, opts: { open?: boolean; json?: boolean }) => {
      const dir = resolve(io.cwd, dirArg);
      const read = await readDebateFolder(dir);
      if (!read.ok)
        throw new ExitError(`cannot report on ${dirArg}: ${formatRuleErrors(read.errors).join("; ")}`);
      // A dialectic folder has no journal; the report is complete without tokens and cost.
      const journal = await readJournal(dir).catch(() => []);
      const { report, markdown, html } = createReport({ state: read.value.state, journal });
      const files = [join(dir, "report.md"), join(dir, "report.html")];
      await writeFileAtomic(files[0]!, markdown);
      await writeFileAtomic(files[1]!, html);
      if (opts.json) io.stdout.write(`${JSON.stringify(summaryOf(dir, files, report), null, 2)}\n`);
      else {
        for (const alert of report.alerts) io.stdout.write(`! ${alert}\n`);
        if (report.body) io.stdout.write(`${report.body.verdict.headline}\n`);
        io.stdout.write(`wrote ${files.map((f) => shownPath(io.cwd, f)).join(", ")}\n`);
      }
      if (opts.open) openFile(files[1]!, io);
    });
}
