import { basename, relative, resolve } from "node:path";
import type { Command } from "commander";
import type { StatusRow } from "../actions/status.js";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

/** The LAST ERROR cell: cut to 80 characters with a `…` mark; the full text is added to `cut`. */
function clipError(
  row: StatusRow,
  name: string,
  cut: string[],
  clipText: (text: string, max: number) => string,
): string {
  const error = row.last_error!.replace(/\s+/g, " ");
  const cell = clipText(error, 80);
  if (cell !== error) cut.push(`${name}: ${error}`);
  return cell;
}

/** The progress column's header: the rows' formats' own units (EXCHANGE, ROUND), each once. */
function progressHeader(rows: readonly StatusRow[]): string {
  const units = [...new Set(rows.flatMap((r) => (r.unit ? [r.unit.toUpperCase()] : [])))];
  return units.length > 0 ? units.join("/") : "PROGRESS";
}

/** `debate status [dir...]`: phase, exchange, scores and last error of each debate. */
export function registerStatus(program: Command, io: CliIO): void {
  program
    .command("status")
    .description("show phase, exchange, scores, result and last error of debates")
    .addHelpText(
      "after",
      `
Examples:
  $ debate example ai-review-gate debates/tests-first  # an offline debate (recorded answers) to try these on
  $ debate status                  # every debate under debates/
  $ debate status debates/tests-first --json`,
    )
    .argument("[dirs...]", "debate folders, or folders that contain them", ["debates"])
    .option("--json", "print the rows as JSON")
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      // The engine's packages load when the command runs, not when `debate` starts.
      const [{ debateStatuses, isTournament }, { clipText }, { escapeTerminal }, { palette }, table] =
        await Promise.all([
          import("../actions/status.js"),
          import("@debatekit/core"),
          import("@debatekit/report/escape"),
          import("../progress.js"),
          import("../cli-format/status-table.js"),
        ]);
      const rows = await debateStatuses(io, dirs);
      // A tournament folder's rows are its debates; its own progress and leaderboard have commands.
      for (const d of dirs)
        if (await isTournament(resolve(io.cwd, d)))
          io.stderr.write(
            `${d} is a tournament folder: ${rows.length === 0 ? "it has no debates yet" : "these are its debates"}; \`debate tournament status ${d}\` shows its progress, \`debate tournament report ${d}\` its leaderboard\n`,
          );
      // A folder that does not read is a failure of the command, after every row is shown.
      const failed = () => {
        if (rows.some((r) => r.unreadable)) throw new ExitError("", 1);
      };
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return failed();
      }
      if (rows.length === 0)
        throw new ExitError(
          `no debates found in ${dirs.join(", ")} (a debate is a folder holding debate.md)`,
          1,
        );
      const c = palette(io);
      // A debate is named by its path from here; `.` or `..` say nothing, so those show its folder's name.
      const nameOf = (dir: string) => {
        const rel = relative(io.cwd, dir);
        return rel === "" || /^(\.\.[\\/]?)+$/.test(rel) ? basename(dir) : rel;
      };
      const cut: string[] = [];
      // The formats' own columns (formal: PROP and OPP), each once, in the order the rows give them.
      const columns = [...new Set(rows.flatMap((r) => (r.columns ?? []).map((col) => col.name)))];
      const body = rows.map((r) => [
        nameOf(r.dir),
        r.activity === "paused" ? `paused (${r.phase ?? "-"})` : (r.phase ?? "-"),
        r.exchange === undefined ? "-" : `${r.exchange}/${r.exchanges ?? "-"}`,
        ...columns.map((name) => r.columns?.find((col) => col.name === name)?.value ?? "-"),
        // The format's result in its own words; else the side it decided for.
        r.result ?? r.winner ?? "-",
        table.judgesCell(r.reliability),
        table.formatCost(r.usage?.total),
        r.activity && r.activity !== "paused" ? r.activity : "",
        r.last_error ? clipError(r, nameOf(r.dir), cut, clipText) : "",
      ]);
      // A folder's text (an error a model provoked, a folder name) shows its control characters escaped.
      const text = table.table([
        [
          "DEBATE",
          "PHASE",
          progressHeader(rows),
          ...columns.map((name) => name.toUpperCase()),
          "RESULT",
          "JUDGES",
          "COST",
          "NOW",
          "LAST ERROR",
        ],
        ...body.map((row) => row.map(escapeTerminal)),
      ]);
      const [head, ...rest] = text.split("\n");
      io.stdout.write(`${c.bold(head!)}\n${rest.join("\n")}\n`);
      // A cut error is marked with `…` and given in full below the table.
      for (const line of cut) io.stdout.write(`${escapeTerminal(line)}\n`);
      // One debate: its usage per seat too.
      const only = rows.length === 1 ? rows[0]!.usage : undefined;
      if (only) io.stdout.write(`\n${table.usageTable(only)}\n`);
      failed();
    });
}
