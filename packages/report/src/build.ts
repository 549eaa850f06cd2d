import { type AnyFormat, type DebateState, formatOfState, journalOutcome } from "@debatekit/core";
import type { JournalEntry } from "@debatekit/schema";
import type { JudgeReliability, Narrative, Report, SeatSummary } from "./model.js";

/** What a report is made from: the state as files read it, and the journal when there is one. */
export interface ReportInput {
  state: DebateState;
  /** `.debate/journal/` entries (tokens, cost, failed calls); a dialectic folder has none. */
  journal?: readonly JournalEntry[];
  /** The `reporter` seat's checked narrative (or why it failed); without one the report is complete as it is. */
  narrative?: Narrative;
  /** Judge-panel figures (docs/architecture.md#judges), when a panel judged. */
  reliability?: JudgeReliability;
  /** The run that holds the folder's lock now, when one does (a debate it advances is running, not idle). */
  running?: { pid: number };
}

function add(a: number | undefined, b: number | undefined): number | undefined {
  return b === undefined ? a : (a ?? 0) + b;
}

function seatsOf(input: ReportInput, format: AnyFormat): SeatSummary[] {
  const roles = format.seats;
  const configured = (input.state.frontmatter.seats ?? {}) as unknown as Record<
    string,
    { adapter?: string; model?: string } | undefined
  >;
  const all = [
    ...new Set([...roles, ...Object.keys(configured), ...(input.journal ?? []).map((j) => j.role)]),
  ];
  return all.map((role) => {
    const seat: SeatSummary = { role, calls: 0, failedCalls: 0, rejectedCalls: 0 };
    // The seat the format calls for the role (a formal judge lives in its `judges:` panel).
    const conf = format.seat(input.state, role) ?? configured[role];
    if (conf?.adapter) seat.adapter = conf.adapter;
    if (conf?.model) seat.model = conf.model;
    for (const entry of input.journal ?? []) {
      if (entry.role !== role) continue;
      seat.calls++;
      const outcome = journalOutcome(entry);
      if (outcome === "rejected") seat.rejectedCalls++;
      else if (outcome !== "ok") seat.failedCalls++;
      if (!seat.model && (entry.model ?? entry.result.model)) seat.model = entry.model ?? entry.result.model;
      const usage = callUsage(entry);
      if (usage) {
        for (const k of ["inputTokens", "outputTokens", "cachedInputTokens", "costUsd"] as const) {
          const sum = add(seat[k], usage[k]);
          if (sum !== undefined) seat[k] = sum;
        }
        if (usage.costUnknown) seat.unknownCostCalls = (seat.unknownCostCalls ?? 0) + 1;
        if (usage.estimated) seat.estimatedCalls = (seat.estimatedCalls ?? 0) + 1;
      }
      const ms = add(seat.durationMs, entry.result.durationMs);
      if (ms !== undefined) seat.durationMs = ms;
    }
    return seat;
  });
}

type CallUsage = {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
  costUnknown?: boolean;
  estimated?: boolean;
};

/**
 * A journaled call's usage, in either shape: the adapter envelope's (`result.usage`, camelCase) or
 * the usage ledger's (`usage` on the entry, snake_case, with `tokens: reported | estimated` and
 * `cost: reported | priced | free | unknown`: docs/architecture.md#prompts-and-cost). An unknown cost is never counted as 0.
 */
function callUsage(entry: JournalEntry): CallUsage | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const ledger = (entry as unknown as { usage?: Record<string, unknown> }).usage;
  if (ledger && typeof ledger === "object") {
    const u: CallUsage = {};
    const set = (k: keyof CallUsage, v: unknown) => {
      const n = num(v);
      if (n !== undefined) (u as Record<string, number>)[k] = n;
    };
    set("inputTokens", ledger.input_tokens);
    set("outputTokens", ledger.output_tokens);
    set("cachedInputTokens", ledger.cached_input_tokens);
    set("costUsd", ledger.cost_usd);
    if (ledger.cost === "unknown") u.costUnknown = true;
    if (ledger.tokens === "estimated") u.estimated = true;
    return u;
  }
  const env = entry.result.usage as Record<string, unknown> | undefined;
  if (!env) return undefined;
  const u: CallUsage = {};
  for (const k of ["inputTokens", "outputTokens", "cachedInputTokens", "costUsd"] as const) {
    const n = num(env[k]);
    if (n !== undefined) u[k] = n;
  }
  return u;
}

/**
 * The report of a debate (pure): header, alerts, and the sections of the format's own `report`; a
 * format without one gets the header and its standing only.
 */
export function buildReport(input: ReportInput): Report {
  const { state } = input;
  const format = formatOfState(state);
  const standing = format.standing(state);
  // Nothing committed yet: no verdict, chart or score to show, only that it has not started.
  const started =
    standing.started ??
    (standing.complete ||
      standing.progress.done > 0 ||
      state.arguments.length > 0 ||
      (state.records?.length ?? 0) > 0);
  const body = started ? format.report?.(state) : undefined;
  const seats = seatsOf(input, format);
  const totals: Report["totals"] = {};
  for (const s of seats) {
    const i = add(totals.inputTokens, s.inputTokens);
    const o = add(totals.outputTokens, s.outputTokens);
    const c = add(totals.costUsd, s.costUsd);
    const u = add(totals.unknownCostCalls, s.unknownCostCalls);
    if (u !== undefined) totals.unknownCostCalls = u;
    if (i !== undefined) totals.inputTokens = i;
    if (o !== undefined) totals.outputTokens = o;
    if (c !== undefined) totals.costUsd = c;
  }
  const alerts: string[] = [];
  // The format's standing says what the result rests on (its `degraded` list, docs/architecture.md#honest-degradation); debate.md may too.
  const causes = [
    ...degradedCauses((standing as { degraded?: unknown }).degraded),
    ...degradedCauses((state.frontmatter as unknown as Record<string, unknown>).degraded),
  ].filter((c, i, all) => all.indexOf(c) === i);
  if (standing.outcome)
    causes.unshift(`outcome: ${standing.outcome}: the result rests on less than was configured`);
  for (const s of seats) {
    if (s.failedCalls > 0) alerts.push(`the ${s.role} seat failed ${s.failedCalls} of ${s.calls} call(s)`);
    if (s.rejectedCalls > 0)
      alerts.push(
        `the ${s.role} seat's answer was rejected ${s.rejectedCalls} time(s) and asked again (\`debate log\` shows each rejection and why)`,
      );
  }
  alerts.push(...(body?.alerts ?? []));
  if (!started) alerts.unshift(notStartedAlert(input, format));
  const { done, total, unit } = standing.progress;
  const reliability =
    input.reliability ??
    reliabilityOfState(state.frontmatter) ??
    // Before the first step no judge has spoken: saying one judge gave every judgment would be false.
    (started ? undefined : { summary: "no judgment yet: nothing is committed", rows: [] });
  return {
    title: `Debate report: ${state.frontmatter.debate_id}`,
    debateId: state.frontmatter.debate_id,
    format: format.name,
    motion: state.motion.text,
    status: !started
      ? input.running
        ? "running"
        : "not started"
      : (standing.outcome ?? (standing.complete ? "complete" : standing.phase)),
    complete: standing.complete,
    progress: `${done}${total === undefined ? "" : ` of ${total}`} ${unit}${(total ?? done) === 1 ? "" : "s"}`,
    seats,
    totals,
    alerts,
    ...(causes.length > 0 ? { degraded: { causes } } : {}),
    usageSource: usageSourceOf(input.journal ?? [], started),
    ...(reliability ? { reliability } : {}),
    ...(input.narrative ? { narrative: input.narrative } : {}),
    ...(body ? { body } : {}),
  };
}

/** Why nothing is committed: no run yet, or a run under way and the seats it still waits on. */
function notStartedAlert(input: ReportInput, format: AnyFormat): string {
  if (!input.running) return "not started: nothing is committed yet; `debate run` on its folder starts it";
  const seats = seatsWaitedOn(input, format);
  const on =
    seats.length > 0 ? `; waiting on the ${seats.join(" and ")} seat${seats.length === 1 ? "" : "s"}` : "";
  return `running (pid ${input.running.pid}): nothing is committed yet${on}`;
}

/** The seats the next step asks that have no answer journaled at its marker yet. */
function seatsWaitedOn({ state, journal = [] }: ReportInput, format: AnyFormat): string[] {
  const step = format.next(state);
  if (step.kind !== "ask") return [];
  const answered = new Set(
    journal
      .filter((j) => j.exchange === step.exchange && j.phase === step.phase && j.result.status === "ok")
      .map((j) => j.role),
  );
  return [...new Set(step.asks.map((a) => a.role))].filter((role) => !answered.has(role));
}

/** Where the usage figures come from: the journal, or why there is none. */
function usageSourceOf(journal: readonly unknown[], started: boolean): string {
  if (journal.length > 0) return `the journal (.debate/journal/, ${journal.length} call record(s))`;
  // A debate not started has no journal because no call has ended yet, not because it was written by hand.
  if (!started) return "nothing recorded yet: no seat call has ended";
  return "nothing recorded (no journal: a folder written by hand or by dialectic)";
}

/**
 * A `degraded` record (docs/architecture.md#honest-degradation), whatever its shape: a string, a list, or objects such as
 * `{cause, message, code?, error?}` (the error shown verbatim: it is sanitized where it is recorded).
 */
function degradedCauses(d: unknown): string[] {
  if (d === undefined || d === false || d === null) return [];
  const one = (x: unknown): string => {
    if (typeof x === "string") return x;
    if (!x || typeof x !== "object") return String(x);
    const r = x as Record<string, unknown>;
    if (typeof r.message === "string")
      return `${r.message}${typeof r.code === "string" ? ` [${r.code}]` : ""}${typeof r.error === "string" ? `: ${r.error}` : ""}`;
    return Object.entries(r)
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(", ");
  };
  return Array.isArray(d) ? d.map(one) : d === true ? ["marked degraded"] : [one(d)];
}

/**
 * debate.md's `reliability` (written by judge panels, docs/architecture.md#judges): agreement between judges, how
 * often a winner flips with the order, each judge's deviation, the steps judged by fewer than configured.
 */
function reliabilityOfState(frontmatter: unknown): JudgeReliability | undefined {
  const r = (frontmatter as { reliability?: Record<string, unknown> }).reliability;
  if (!r || typeof r !== "object") return undefined;
  // debate.md's `reliability` (schema Reliability) holds the figures under `figures`.
  const f = (r.figures && typeof r.figures === "object" ? r.figures : r) as Record<string, unknown>;
  const pct = (v: unknown) => (typeof v === "number" ? `${Math.round(v * 100)}%` : "not measurable");
  const votes = f.agreement_metric === "percent_agreement";
  const agreement = typeof f.agreement === "number" ? f.agreement : undefined;
  const rows: Array<[string, string]> = [
    votes
      ? ["Agreement between judges (share of judge pairs giving the same verdict)", pct(agreement)]
      : [
          "Agreement between judges (Krippendorff's alpha)",
          agreement !== undefined ? agreement.toFixed(2) : "not measurable (one judge)",
        ],
    ["Winner flips when the sides' order is swapped", pct(f.flip_rate)],
  ];
  if (typeof f.flips === "number" && typeof f.swapped_judges === "number")
    rows.push(["Judges whose verdict flipped with the order", `${f.flips} of ${f.swapped_judges}`]);
  if (f.deviation && typeof f.deviation === "object")
    for (const [judge, v] of Object.entries(f.deviation as Record<string, unknown>))
      if (typeof v === "number")
        rows.push([
          votes
            ? `Share of ${judge}'s verdicts against the panel`
            : `Mean deviation of ${judge} from the panel`,
          votes ? pct(v) : v.toFixed(2),
        ]);
  if (typeof r.degraded_steps === "number")
    rows.push(["Steps judged by fewer judges than configured", String(r.degraded_steps)]);
  return {
    summary:
      agreement === undefined
        ? "A judge panel judged this debate; agreement could not be measured."
        : votes
          ? `A judge panel judged this debate: ${pct(agreement)} of judge pairs gave the same verdict${agreement < 1 ? " (split: read the verdict with care)" : ""}.`
          : `A judge panel judged this debate: agreement ${agreement.toFixed(2)} (${agreement >= 0.8 ? "reliable" : agreement >= 0.667 ? "tentative" : "low: read the verdict with care"}).`,
    rows,
  };
}
