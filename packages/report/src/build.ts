import { type DebateState, formatOfState } from "@debatekit/core";
import type { JournalEntry } from "@debatekit/schema";
import type { FormatReporter, JudgeReliability, Narrative, Report, SeatSummary } from "./model.js";
import { reporters as defaultReporters } from "./reporters.js";

/** What a report is made from: the state as files read it, and the journal when there is one. */
export interface ReportInput {
  state: DebateState;
  /** `.debate/journal/` entries (tokens, cost, failed calls); a dialectic folder has none. */
  journal?: readonly JournalEntry[];
  /** The `reporter` seat's checked narrative (or why it failed); without one the report is complete as it is. */
  narrative?: Narrative;
  /** Judge-panel figures (DESIGN §9), when a panel judged. */
  reliability?: JudgeReliability;
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
        // cachedInputTokens: in the usage ledger of issue 15 (DESIGN §10), absent from older journals.
        const cached = add(
          seat.cachedInputTokens,
          (usage as { cachedInputTokens?: number }).cachedInputTokens,
        );
        if (input !== undefined) seat.inputTokens = input;
        if (output !== undefined) seat.outputTokens = output;
        if (cost !== undefined) seat.costUsd = cost;
        if (cached !== undefined) seat.cachedInputTokens = cached;
      }
      const ms = add(seat.durationMs, entry.result.durationMs);
      if (ms !== undefined) seat.durationMs = ms;
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
  const causes = degradedCauses(state.frontmatter as unknown as Record<string, unknown>);
  if (standing.outcome)
    causes.unshift(`outcome: ${standing.outcome}: the result rests on less than was configured`);
  for (const s of seats)
    if (s.failedCalls > 0) alerts.push(`the ${s.role} seat failed ${s.failedCalls} of ${s.calls} call(s)`);
  alerts.push(...(body?.alerts ?? []));
  const { done, total, unit } = standing.progress;
  return {
    title: `Debate report: ${state.frontmatter.debate_id}`,
    debateId: state.frontmatter.debate_id,
    format: format.name,
    motion: state.motion.text,
    status: standing.outcome ?? (standing.complete ? "complete" : standing.phase),
    complete: standing.complete,
    progress: `${done}${total === undefined ? "" : ` of ${total}`} ${unit}${(total ?? done) === 1 ? "" : "s"}`,
    seats,
    totals,
    alerts,
    ...(causes.length > 0 ? { degraded: { causes } } : {}),
    usageSource:
      (input.journal ?? []).length > 0
        ? `the journal (.debate/journal/, ${input.journal!.length} call record(s))`
        : "nothing recorded (no journal: a folder written by hand or by dialectic)",
    ...(input.reliability ? { reliability: input.reliability } : {}),
    ...(input.narrative ? { narrative: input.narrative } : {}),
    ...(body ? { body } : {}),
  };
}

/** debate.md's `degraded` record (DESIGN §12), whatever its shape: a string, a list, or objects with a cause. */
function degradedCauses(fm: Record<string, unknown>): string[] {
  const d = fm.degraded;
  if (d === undefined || d === false || d === null) return [];
  const one = (x: unknown): string =>
    typeof x === "string"
      ? x
      : x && typeof x === "object"
        ? Object.entries(x)
            .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
            .join(", ")
        : String(x);
  return Array.isArray(d) ? d.map(one) : d === true ? ["marked degraded"] : [one(d)];
}
