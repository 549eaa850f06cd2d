import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { clipText, formatOfState } from "@debatekit/core";
import { readDebateFolder, readJournal } from "@debatekit/files";
import type { Degradation } from "@debatekit/schema";
import type { Command } from "commander";
import type { CliIO } from "../output.js";
import { palette } from "../progress.js";

/** One row of `debate status`. */
export interface StatusRow {
  dir: string;
  debate_id?: string;
  format?: string;
  phase?: string;
  exchange?: number;
  exchanges?: number;
  scores?: { proposition: number; opposition: number };
  /** The two sides' standing as the format shows it (formal: signed totals; crossfire: the verdict). */
  sides?: { proposition: string; opposition: string };
  /** Set when the result rests on less than configured: `aborted`, `uncontested`, `partial (rounds 1-2 of 3)`. */
  outcome?: string;
  /** Every reason the result rests on less than configured, with the real (sanitized) error (DESIGN §12). */
  degraded?: Degradation[];
  last_error?: string;
}

async function isDebate(dir: string): Promise<boolean> {
  return stat(join(dir, "debate.md")).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The debate folders a path names: itself when it holds debate.md, else its sub-folders that do. */
async function findDebates(path: string): Promise<string[]> {
  if (await isDebate(path)) return [path];
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => join(path, e.name));
  const found = await Promise.all(dirs.map(async (d) => ((await isDebate(d)) ? d : undefined)));
  return found.filter((d): d is string => d !== undefined).sort();
}

/** Status of one debate; a folder that does not read becomes a row with its error. */
export async function debateStatus(dir: string): Promise<StatusRow> {
  const read = await readDebateFolder(dir);
  if (!read.ok) return { dir, last_error: read.errors[0]?.message ?? "unreadable" };
  const state = read.value.state;
  const fm = state.frontmatter;
  const format = formatOfState(state);
  const standing = format.standing(state);
  const row: StatusRow = {
    dir,
    debate_id: fm.debate_id,
    format: format.name,
    // An aborted, uncontested or partial debate says so where the phase is shown, never as plain success.
    phase: standing.outcome ?? standing.phase,
    exchange: standing.progress.done,
  };
  if (standing.scores) row.scores = standing.scores;
  if (standing.sides) row.sides = standing.sides;
  if (standing.outcome) row.outcome = standing.outcome;
  if (standing.degraded && standing.degraded.length > 0) {
    row.degraded = standing.degraded;
    row.phase = `${row.phase} (degraded: ${[...new Set(standing.degraded.map((d) => d.cause))].join(", ")})`;
  }
  if (standing.progress.total !== undefined) row.exchanges = standing.progress.total;
  // Only a failure of the step the debate is still at matters: older ones were overcome.
  const journal = await readJournal(dir, { exchange: fm.current_exchange, phase: fm.current_phase }).catch(
    () => [],
  );
  const last = journal.at(-1);
  if (last && last.result.status !== "ok")
    row.last_error = `${last.role}: ${last.result.error ?? last.result.status}`;
  else if (last?.validation?.ok === false)
    row.last_error = `${last.role}: ${last.validation.errors?.[0] ?? "invalid answer"}`;
  return row;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function signed(n: number): string {
  const v = Math.round(n * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
}

/** `debate status [dir...]`: phase, exchange, scores and last error of each debate. */
export function registerStatus(program: Command, io: CliIO): void {
  program
    .command("status")
    .description("show phase, exchange, scores and last error of debates")
    .argument("[dirs...]", "debate folders, or folders that contain them", ["debates"])
    .option("--json", "print the rows as JSON")
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      const folders = (await Promise.all(dirs.map((d) => findDebates(resolve(io.cwd, d))))).flat();
      const rows = await Promise.all(folders.map(debateStatus));
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        io.stdout.write(`no debates found in ${dirs.join(", ")}\n`);
        return;
      }
      const c = palette(io);
      const body = rows.map((r) => [
        relative(io.cwd, r.dir) || ".",
        r.phase ?? "-",
        r.exchange === undefined ? "-" : `${r.exchange}/${r.exchanges ?? "-"}`,
        r.scores ? signed(r.scores.proposition) : (r.sides?.proposition ?? "-"),
        r.scores ? signed(r.scores.opposition) : (r.sides?.opposition ?? "-"),
        r.last_error ? clipText(r.last_error.replace(/\s+/g, " "), 80) : "",
      ]);
      const text = table([["DEBATE", "PHASE", "EXCHANGE", "PROP", "OPP", "LAST ERROR"], ...body]);
      const [head, ...rest] = text.split("\n");
      io.stdout.write(`${c.bold(head!)}\n${rest.join("\n")}\n`);
    });
}
