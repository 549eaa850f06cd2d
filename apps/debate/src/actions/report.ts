import { join, resolve } from "node:path";
import { type DebateState, formatRuleErrors, REPORTING_PHASE } from "@debatekit/core";
import { readDebateFolder, readJournal, readLockHolder, writeFileAtomic } from "@debatekit/files";
import {
  buildReport,
  checkNarrative,
  createReport,
  type Narrative,
  narrativePrompt,
  type Report,
} from "@debatekit/report";
import type { SeatConfig } from "@debatekit/schema";
import { ExitError } from "../exit-error.js";
import type { ActionContext } from "./context.js";

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
 * The reporter seat's narrative, when debate.md has one: asked through the runner (journaled, reused
 * for the same state, retried when the check refuses it). Its failure is the report's last section,
 * never the report's failure.
 */
async function askReporter(
  ctx: ActionContext,
  dir: string,
  state: DebateState,
): Promise<Narrative | undefined> {
  const seat = (state.frontmatter.seats as unknown as Record<string, SeatConfig | undefined> | undefined)
    ?.reporter;
  if (!seat) return undefined;
  // The runner (and its adapters) loads only for a reporter seat.
  const { askExtraSeat } = await import("@debatekit/runner");
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
      { env: ctx.env, cwd: ctx.cwd },
    );
    return outcome.ok
      ? { ok: true, seat: name, text: outcome.value.text, cited: outcome.value.cited }
      : { ok: false, seat: name, error: outcome.error.message };
  } catch (error) {
    return { ok: false, seat: name, error: (error as Error).message };
  }
}

/** What `writeReport` is asked: the folder (against `cwd`), and whether the reporter seat is asked. */
export interface ReportInput {
  dir: string;
  /** Ask the reporter seat (debate.md's seats.reporter) for its analysis (default true). */
  narrative?: boolean;
}

/** A written report: its facts (what `debate report --json` prints) and the report they come from. */
export interface WrittenReport {
  summary: ReportSummary;
  report: Report;
}

/** Builds a debate's report and writes report.md and a self-contained report.html into its folder. */
export async function writeReportFiles(ctx: ActionContext, input: ReportInput): Promise<WrittenReport> {
  const dir = resolve(ctx.cwd, input.dir);
  const read = await readDebateFolder(dir);
  if (!read.ok)
    throw new ExitError(`cannot report on ${input.dir}: ${formatRuleErrors(read.errors).join("; ")}`);
  const state = read.value.state;
  const narrative = input.narrative === false ? undefined : await askReporter(ctx, dir, state);
  // A dialectic folder has no journal; the report is complete without tokens and cost.
  const journal = await readJournal(dir).catch(() => []);
  const holder = await readLockHolder(dir).catch(() => undefined);
  const { report, markdown, html } = createReport({
    state,
    journal,
    ...(holder ? { running: { pid: holder.pid } } : {}),
    ...(narrative ? { narrative } : {}),
  });
  const files = [join(dir, "report.md"), join(dir, "report.html")];
  await writeFileAtomic(files[0]!, markdown);
  await writeFileAtomic(files[1]!, html);
  return { summary: summaryOf(dir, files, report), report };
}

/** Writes report.md and report.html into a debate folder; returns what `debate report --json` prints. */
export async function writeReport(ctx: ActionContext, input: ReportInput): Promise<ReportSummary> {
  return (await writeReportFiles(ctx, input)).summary;
}
