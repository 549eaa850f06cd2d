import { type DebateState, formatOfState } from "@debatekit/core";
import type { JournalEntry } from "@debatekit/schema";
import type { FormatReporter, Report, SeatSummary } from "./model.js";
import { reporters as defaultReporters } from "./reporters.js";

/** What a report is made from: the state as files read it, and the journal when there is one. */
export interface ReportInput {
  state: DebateState;
  /** `.debate/journal/` entries (tokens, cost, failed calls); a dialectic folder has none. */
  journal?: readonly JournalEntry[];
}

/** Options of buildReport. */
export interface BuildReportOptions {
  /** The format -> section builder table (default: `reporters`). */
  reporters?: ReadonlyMap<import("@debatekit/core").Format, FormatReporter>;
}

function add(a: number | undefined, b: number | undefined): number | undefined {
  return b === undefined ? a : (a ?? 0) + b;
}

function seatsOf(input: ReportInput, roles: readonly string[]): SeatSummary[] {
  const configured = (input.state.frontmatter.seats ?? {}) as unknown as Record<
    string,
    { adapter?: string; model?: string } | undefined
  >;
  const all = [
    ...new Set([...roles, ...Object.keys(configured), ...(input.journal ?? []).map((j) => j.role)]),
  ];
  return all.map((role) => {
    const seat: SeatSummary = { role, calls: 0, failedCalls: 0 };
    const conf = configured[role];
    if (conf?.adapter) seat.adapter = conf.adapter;
    if (conf?.model) seat.model = conf.model;
    for (const entry of input.journal ?? []) {
      if (entry.role !== role) continue;
      seat.calls++;
      if (entry.result.status !== "ok") seat.failedCalls++;
      if (!seat.model && (entry.model ?? entry.result.model)) seat.model = entry.model ?? entry.result.model;
      const usage = entry.result.usage;
      if (usage) {
        const input = add(seat.inputTokens, usage.inputTokens);
        const output = add(seat.outputTokens, usage.outputTokens);
        const cost = add(seat.costUsd, usage.costUsd);
        if (input !== undefined) seat.inputTokens = input;
        if (output !== undefined) seat.outputTokens = output;
        if (cost !== undefined) seat.costUsd = cost;
      }
    }
    return seat;
  });
}

/** The report of a debate (pure): header, alerts, and the format's own sections. */
export function buildReport(input: ReportInput, options: BuildReportOptions = {}): Report {
  const { state } = input;
  const format = formatOfState(state);
  const standing = format.standing(state);
  const body = (options.reporters ?? defaultReporters).get(format)?.build(state);
  const seats = seatsOf(input, format.seats);
  const totals: Report["totals"] = {};
  for (const s of seats) {
    const i = add(totals.inputTokens, s.inputTokens);
    const o = add(totals.outputTokens, s.outputTokens);
    const c = add(totals.costUsd, s.costUsd);
    if (i !== undefined) totals.inputTokens = i;
    if (o !== undefined) totals.outputTokens = o;
    if (c !== undefined) totals.costUsd = c;
  }
  const alerts: string[] = [];
  if (standing.outcome)
    alerts.push(`outcome: ${standing.outcome}: the result rests on less than was configured`);
  for (const s of seats)
    if (s.failedCalls > 0) alerts.push(`the ${s.role} seat failed ${s.failedCalls} of ${s.calls} call(s)`);
  alerts.push(...(body?.alerts ?? []));
  const { done, total, unit } = standing.progress;
  return {
    title: `Debate report: ${state.frontmatter.debate_id}`,
    debateId: state.frontmatter.debate_id,
    format: format.name,
    motion: state.motion.text,
    status: standing.outcome ?? standing.phase,
    complete: standing.complete,
    progress: `${done}${total === undefined ? "" : ` of ${total}`} ${unit}${(total ?? done) === 1 ? "" : "s"}`,
    seats,
    totals,
    alerts,
    ...(body ? { body } : {}),
  };
}
