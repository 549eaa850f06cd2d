import { readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import type { Degradation, Reliability, UsageTotals } from "@debatekit/schema";
import type { Command } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";

// The engine's packages load when the command runs, not when `debate` starts.
// The ledger's module alone: the runner's entry would load the adapters and the skill matcher too.
const engine = () =>
  Promise.all([import("@debatekit/core"), import("@debatekit/files"), import("@debatekit/runner/ledger")]);

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
  /** Every reason the result rests on less than configured, with the real (sanitized) error (docs/architecture.md#honest-degradation). */
  degraded?: Degradation[];
  /** What is happening now: `running (pid 123)`, `paused`, `waiting for inbox/e001-opposition.md`. */
  activity?: string;
  /** The side that won a finished debate (`proposition`, `opposition`, `tie`; crossfire: its verdict's side). */
  winner?: string;
  last_error?: string;
  /** The judge panel's reliability figures (debates with `judges:`): agreement, flip rate, deviation, degraded steps. */
  reliability?: Reliability;
  /** Tokens and cost of the debate's seat calls (from .debate/ledger.json, or its journal). */
  usage?: { total: UsageTotals; seats: Record<string, UsageTotals>; max_cost_usd?: number };
}

/** The manual seats' prompts of this exchange that have no answer in inbox/ yet (`inbox/<stem>.md`). */
async function unansweredPrompts(dir: string, exchange: number): Promise<string[]> {
  const prefix = `e${String(exchange).padStart(3, "0")}-`;
  const prompts = await readdir(join(dir, "prompts")).catch(() => [] as string[]);
  const inbox = new Set(await readdir(join(dir, "inbox")).catch(() => [] as string[]));
  // The latest attempt of each seat is the one asked now.
  const latest = new Map<string, { stem: string; attempt: number }>();
  for (const file of prompts.filter((f) => f.startsWith(prefix) && f.endsWith(".md"))) {
    const stem = file.slice(0, -3);
    const attempt = Number(/-attempt(\d+)$/.exec(stem)?.[1] ?? 1);
    const seat = stem.replace(/-attempt\d+$/, "");
    if ((latest.get(seat)?.attempt ?? 0) < attempt) latest.set(seat, { stem, attempt });
  }
  return [...latest.values()]
    .map(({ stem }) => stem)
    .filter((stem) => !inbox.has(`${stem}.md`) && !inbox.has(`${stem}.json`))
    .sort()
    .map((stem) => `inbox/${stem}.md`);
}

/** The winner of a finished debate, from its standing. */
function winnerOf(standing: {
  complete: boolean;
  scores?: { proposition: number; opposition: number };
  headline?: string;
}): string | undefined {
  if (!standing.complete) return undefined;
  if (standing.scores) {
    const lead = standing.scores.proposition - standing.scores.opposition;
    return Math.abs(lead) < 0.005 ? "tie" : lead > 0 ? "proposition" : "opposition";
  }
  return /^the (\w+) wins/.exec(standing.headline ?? "")?.[1];
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
  const [{ formatOfState }, { readDebateFolder, readJournal, readLockHolder }, { loadUsageLedger }] =
    await engine();
  const read = await readDebateFolder(dir);
  if (!read.ok) {
    // A folder a run holds is shown as running even when it does not read (a hand edit meanwhile).
    const holder = await readLockHolder(dir).catch(() => undefined);
    return {
      dir,
      ...(holder ? { activity: `running (pid ${holder.pid})` } : {}),
      last_error: read.errors[0]?.message ?? "unreadable",
    };
  }
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
  if (fm.reliability) row.reliability = fm.reliability;
  const winner = winnerOf(standing);
  if (winner) row.winner = winner;
  const holder = await readLockHolder(dir).catch(() => undefined);
  const waiting = standing.complete ? [] : await unansweredPrompts(dir, fm.current_exchange);
  if (holder) row.activity = `running (pid ${holder.pid})`;
  else if (fm.paused) row.activity = "paused";
  else if (waiting.length > 0) row.activity = `waiting for ${waiting.join(", ")}`;
  // Only a failure of the step the debate is still at matters: older ones were overcome. A stop by
  // the user is no error, and an error of a seat since changed (adapter or model) no longer holds.
  const journal = await readJournal(dir, { exchange: fm.current_exchange, phase: fm.current_phase }).catch(
    () => [],
  );
  const maxCostUsd = (fm as { max_cost_usd?: number }).max_cost_usd;
  const ledger = await loadUsageLedger(
    dir,
    fm.debate_id,
    maxCostUsd !== undefined ? { maxCostUsd } : {},
  ).catch(() => undefined);
  if (ledger) {
    row.usage = {
      total: ledger.total,
      seats: ledger.seats,
      ...(ledger.max_cost_usd !== undefined ? { max_cost_usd: ledger.max_cost_usd } : {}),
    };
  }
  const last = journal.at(-1);
  const seat = last
    ? (fm.seats as Record<string, { adapter?: string; model?: string }> | undefined)?.[last.role]
    : undefined;
  const current =
    !last ||
    !seat ||
    (seat.adapter === last.adapter && (seat.model ?? undefined) === (last.model ?? undefined));
  if (!last || !current || last.result.status === "cancelled") return row;
  if (last.result.status !== "ok")
    row.last_error = `${last.role}: ${last.result.error ?? last.result.status}`;
  else if (last.validation?.ok === false)
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

/** The JUDGES cell: panel size, agreement (alpha, or `agree` for voting panels), flip rate under order swap, degraded steps. */
export function judgesCell(r: Reliability | undefined): string {
  if (!r) return "-";
  const parts = [String(r.judges ?? "-")];
  // Krippendorff's alpha over scores (formal), or the share of agreeing judge pairs (verdicts, decisions).
  if (r.figures?.agreement !== undefined)
    parts.push(
      `${r.figures.agreement_metric === "percent_agreement" ? "agree" : "α"} ${r.figures.agreement.toFixed(2)}`,
    );
  if (r.figures?.flip_rate !== undefined) parts.push(`flip ${r.figures.flip_rate.toFixed(2)}`);
  if (r.degraded_steps > 0) parts.push(`${r.degraded_steps} degraded`);
  return parts.join(" · ");
}

/** A cost for people: `$0.0149`, `$1.23`, with `+` when some calls' cost is unknown; `-` for none. */
export function formatCost(totals: UsageTotals | undefined): string {
  if (!totals || totals.calls === 0) return "-";
  const usd = totals.cost_usd;
  const text =
    usd === 0 ? "$0" : usd < 1 ? `$${usd.toPrecision(3).replace(/0+$/, "")}` : `$${usd.toFixed(2)}`;
  if (totals.unknown_cost_calls === totals.calls) return "unknown";
  return totals.unknown_cost_calls > 0 ? `${text}+` : text;
}

/** Token counts for people: `12,345`. */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The per-seat usage table shown under a single debate's row. */
export function usageTable(usage: NonNullable<StatusRow["usage"]>): string {
  const line = (name: string, t: UsageTotals) => [
    name,
    String(t.calls),
    count(t.input_tokens),
    count(t.cached_input_tokens),
    count(t.output_tokens),
    formatCost(t),
    [
      t.estimated_calls > 0 ? `${t.estimated_calls} estimated` : "",
      t.unknown_cost_calls > 0 ? `${t.unknown_cost_calls} cost unknown` : "",
    ]
      .filter(Boolean)
      .join(", "),
  ];
  const rows = [
    ["SEAT", "CALLS", "INPUT", "CACHED", "OUTPUT", "COST", "NOTE"],
    ...Object.entries(usage.seats).map(([role, t]) => line(role, t)),
    line("total", usage.total),
  ];
  const budget =
    usage.max_cost_usd !== undefined
      ? `\nbudget: $${usage.max_cost_usd} (max_cost_usd), spent ${formatCost(usage.total)}`
      : "";
  return `${table(rows)}${budget}`;
}

function signed(n: number): string {
  const v = Math.round(n * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
}

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

/** `debate status [dir...]`: phase, exchange, scores and last error of each debate. */
export function registerStatus(program: Command, io: CliIO): void {
  program
    .command("status")
    .description("show phase, exchange, scores and last error of debates")
    .addHelpText(
      "after",
      `
Examples:
  $ debate status                  # every debate under debates/
  $ debate status debates/tests-first --json`,
    )
    .argument("[dirs...]", "debate folders, or folders that contain them", ["debates"])
    .option("--json", "print the rows as JSON")
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      const [[{ clipText }], { escapeTerminal }, { palette }] = await Promise.all([
        engine(),
        import("@debatekit/report/escape"),
        import("../progress.js"),
      ]);
      for (const d of dirs) {
        const exists = await stat(resolve(io.cwd, d)).then(
          (st) => st.isDirectory(),
          () => false,
        );
        if (!exists) throw new ExitError(`${d}: no such folder`, 2);
      }
      const folders = (await Promise.all(dirs.map((d) => findDebates(resolve(io.cwd, d))))).flat();
      const rows = await Promise.all(folders.map(debateStatus));
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
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
      const body = rows.map((r) => [
        nameOf(r.dir),
        r.activity === "paused" ? `paused (${r.phase ?? "-"})` : (r.phase ?? "-"),
        r.exchange === undefined ? "-" : `${r.exchange}/${r.exchanges ?? "-"}`,
        r.scores ? signed(r.scores.proposition) : (r.sides?.proposition ?? "-"),
        r.scores ? signed(r.scores.opposition) : (r.sides?.opposition ?? "-"),
        r.winner ?? "-",
        judgesCell(r.reliability),
        formatCost(r.usage?.total),
        r.activity && r.activity !== "paused" ? r.activity : "",
        r.last_error ? clipError(r, nameOf(r.dir), cut, clipText) : "",
      ]);
      // A folder's text (an error a model provoked, a folder name) shows its control characters escaped.
      const text = table([
        ["DEBATE", "PHASE", "EXCHANGE", "PROP", "OPP", "WINNER", "JUDGES", "COST", "NOW", "LAST ERROR"],
        ...body.map((row) => row.map(escapeTerminal)),
      ]);
      const [head, ...rest] = text.split("\n");
      io.stdout.write(`${c.bold(head!)}\n${rest.join("\n")}\n`);
      // A cut error is marked with `…` and given in full below the table.
      for (const line of cut) io.stdout.write(`${escapeTerminal(line)}\n`);
      // One debate: its usage per seat too.
      const only = rows.length === 1 ? rows[0]!.usage : undefined;
      if (only) io.stdout.write(`\n${usageTable(only)}\n`);
    });
}
