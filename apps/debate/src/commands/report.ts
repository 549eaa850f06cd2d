import type { Command } from "commander";
import { openWithViewer } from "../opener.js";
import { type CliIO, shownPath } from "../output.js";

/** `debate report <dir>`: writes report.md and report.html into the debate folder. */
export function registerReport(program: Command, io: CliIO): void {
  program
    .command("report")
    .description("write report.md and a self-contained report.html into a debate folder")
    .addHelpText(
      "after",
      `
Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate run debates/tests-first
  $ debate report debates/tests-first
  $ debate report debates/tests-first --open`,
    )
    .argument("<dir>", "the debate folder")
    .option("--open", "open report.html when written")
    .option("--json", "print where the files went and the report's facts as JSON")
    .option("--no-narrative", "do not ask the reporter seat (debate.md's seats.reporter) for its analysis")
    .action(async (dirArg: string, opts: { open?: boolean; json?: boolean; narrative: boolean }) => {
      // The engine and the report's layout load when the command runs, not when `debate` starts.
      const { writeReportFiles } = await import("../actions/report.js");
      const { summary, report } = await writeReportFiles(io, { dir: dirArg, narrative: opts.narrative });
      const { files } = summary;
      if (opts.json) io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
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
      if (opts.open) openWithViewer(files[1]!, io);
    });
}
