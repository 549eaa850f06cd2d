import type { Report, SeatSummary } from "./model.js";

const num = (n: number) => n.toLocaleString("en-US");

/** Tokens of a seat or of the debate, `-` when the journal does not know them. */
export function tokensText(t: { inputTokens?: number; outputTokens?: number }): string {
  if (t.inputTokens === undefined && t.outputTokens === undefined) return "-";
  return `${num(t.inputTokens ?? 0)} in / ${num(t.outputTokens ?? 0)} out`;
}

/** Cost in USD, `-` when not recorded; `+` when some calls' cost is unknown (never counted as 0). */
export function costText(c: number | undefined, unknownCalls = 0): string {
  if (c === undefined) return unknownCalls > 0 ? `unknown (${unknownCalls} call(s))` : "-";
  return `$${c.toFixed(4)}${unknownCalls > 0 ? `+ (cost unknown for ${unknownCalls} call(s))` : ""}`;
}

/** A seat's adapter and model, as one cell. */
export function seatText(s: SeatSummary): string {
  return [s.adapter ?? "(not recorded)", s.model].filter(Boolean).join(" / ");
}

/** The header table's rows: label, value. */
export function headerRows(report: Report): Array<[string, string]> {
  return [
    ["Motion", report.motion],
    ["Format", report.format],
    ["Progress", report.progress],
    ["Status", report.status],
    ["Tokens", tokensText(report.totals)],
    ["Cost", costText(report.totals.costUsd, report.totals.unknownCostCalls)],
  ];
}

const orDash = (n: number | undefined) => (n === undefined ? "-" : num(n));
const seconds = (ms: number | undefined) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`);

/** The seats table: who sat where, with which adapter and model, and how its calls went. */
export function seatRows(report: Report): { columns: string[]; rows: string[][] } {
  return {
    columns: ["Seat", "Adapter / model", "Calls", "Failed", "Rejected", "Tokens", "Cost"],
    rows: report.seats.map((s) => [
      s.role,
      seatText(s),
      String(s.calls),
      String(s.failedCalls),
      String(s.rejectedCalls),
      tokensText(s),
      costText(s.costUsd, s.unknownCostCalls),
    ]),
  };
}

/** The usage table: per seat and in total, tokens (input, cached input, output), cost and time. */
export function usageRows(report: Report): { columns: string[]; rows: string[][] } {
  const row = (label: string, u: Omit<SeatSummary, "role" | "failedCalls" | "rejectedCalls">) => [
    label,
    String(u.calls),
    orDash(u.inputTokens),
    orDash(u.cachedInputTokens),
    orDash(u.outputTokens),
    costText(u.costUsd, u.unknownCostCalls),
    seconds(u.durationMs),
  ];
  const total = { calls: 0 } as Omit<SeatSummary, "role" | "failedCalls" | "rejectedCalls">;
  for (const s of report.seats) {
    total.calls += s.calls;
    for (const k of [
      "inputTokens",
      "cachedInputTokens",
      "outputTokens",
      "costUsd",
      "durationMs",
      "unknownCostCalls",
    ] as const)
      if (s[k] !== undefined) total[k] = (total[k] ?? 0) + s[k]!;
  }
  return {
    columns: ["Seat", "Calls", "Input tokens", "Cached input", "Output tokens", "Cost", "Time"],
    rows: [...report.seats.map((s) => row(s.role, s)), row("total", total)],
  };
}

/** The judges' reliability section: the panel's figures, or why there are none. */
export function reliabilityOf(report: Report): { summary: string; rows: Array<[string, string]> } {
  if (report.reliability) return report.reliability;
  return {
    summary:
      "One judge seat gave every judgment, so there is no agreement between judges nor order-swap figure to show (a judge panel gives them).",
    rows: [],
  };
}
