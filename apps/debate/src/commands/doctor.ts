import { resolve } from "node:path";
import type { Command } from "commander";
import { type DoctorRow, diagnoseAdapters, diagnoseDebateSeats, nextStep } from "../actions/doctor.js";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

/** Each seat's safety as lines: tools, the switches that keep them so, isolation, endpoint. */
export function formatSeatSafety(rows: readonly DoctorRow[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (!row.seat) continue;
    const name = `${row.seat} (${row.adapter})`;
    if (row.notAllowed) {
      lines.push(`${name}: ${row.notAllowed}`);
      continue;
    }
    const s = row.safety;
    if (!s) {
      lines.push(`${name}: runs no program (answers come from files in the debate folder)`);
      continue;
    }
    const tools = s.unavailable
      ? `read requested: unavailable (${s.unavailable})`
      : s.tools === "read"
        ? `read only, inside ${s.workspace ?? "(no workspace)"}`
        : row.program
          ? `none asked of its own command ${row.program} (you allowed it; what it does is up to that program)`
          : "none (safe: cannot act on the machine)";
    lines.push(
      `${name}`,
      `  tools      ${tools} — ${s.toolsSwitches}`,
      `  isolation  ${s.isolation} — kept away: ${s.isolated}`,
      `  passed     ${s.passedThrough}`,
      `  endpoint   ${s.endpoint}`,
    );
  }
  return lines;
}

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

/** The report as plain text: one line per row, then what to do for each row that is not ready. */
export function formatDoctorReport(rows: readonly DoctorRow[]): string {
  const lines = [
    `${cell("", 2)}${cell("adapter", 22)}${cell("installed", 11)}${cell("version", 12)}unattended`,
  ];
  for (const row of rows) {
    const name = row.seat ? `${row.seat} (${row.adapter})` : row.adapter;
    // Manual and replay seats run no program and need no credentials: they work offline.
    const offline = row.adapter === "manual" || row.adapter === "replay";
    const unattended = offline
      ? "offline (answers from files, no credentials)"
      : row.auth.status === "found"
        ? `yes (${row.auth.via.join(", ")})`
        : row.auth.status === "missing"
          ? "no credentials found"
          : row.installed && row.usable
            ? "cannot tell"
            : "-";
    lines.push(
      `${cell(row.ready ? "✓" : "✗", 2)}${cell(name, 22)}${cell(offline ? "built in" : row.installed ? "yes" : "no", 11)}${cell(row.version ?? "-", 12)}${unattended}`,
    );
  }
  // Each thing to do once: with a debate's seats, only for the adapters they use (a seat's note says
  // it for its adapter), and the same note of several seats on one line.
  const seatAdapters = new Set(rows.filter((r) => r.seat).map((r) => r.adapter));
  const notes = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.seat && seatAdapters.size > 0) continue;
    const note = nextStep(row);
    if (!note) continue;
    const name = row.seat ? `${row.seat} (${row.adapter})` : row.adapter;
    notes.set(note, [...(notes.get(note) ?? []), name]);
  }
  const todo = [...notes].map(([note, names]) => `${names.join(", ")}: ${note}`);
  return `${[...lines, ...(todo.length > 0 ? ["", ...todo] : [])].join("\n")}\n`;
}

/** `debate doctor [folder] [--json]`: which CLIs are installed and able to run unattended. */
export function registerDoctor(program: Command, io: CliIO): void {
  program
    .command("doctor")
    .description(
      "check which adapters are installed, their versions and whether they can run unattended; with a folder, each seat's tools, isolation and endpoint (a seat's `command:` not allowed with `debate allow` is shown, never started)",
    )
    .argument("[folder]", "a debate folder: also check each of its seats (exit 1 when one is not ready)")
    .option("--json", "print the report as JSON")
    .action(async (folder: string | undefined, options: { json?: boolean }) => {
      const env = io.env;
      const debateDir = folder ? resolve(io.cwd, folder) : io.cwd;
      const rows = await diagnoseAdapters({ debateDir, env });
      const seatRows = folder ? await diagnoseDebateSeats(debateDir, { env, shown: folder }) : [];
      if (options.json) {
        io.stdout.write(
          `${JSON.stringify({ adapters: rows, ...(folder ? { seats: seatRows } : {}) }, null, 2)}\n`,
        );
      } else {
        io.stdout.write(formatDoctorReport([...rows, ...seatRows]));
        const safety = formatSeatSafety(seatRows);
        if (safety.length > 0) io.stdout.write(`\nSeats\n${safety.join("\n")}\n`);
      }
      const notReady = seatRows.filter((r) => !r.ready).map((r) => r.seat);
      if (notReady.length > 0) throw new ExitError(`seat(s) not ready: ${notReady.join(", ")}`, 1);
    });
}
