import type { Report, SeatSummary } from "./model.js";

const num = (n: number) => n.toLocaleString("en-US");

/** Tokens of a seat or of the debate, `-` when the journal does not know them. */
export function tokensText(t: { inputTokens?: number; outputTokens?: number }): string {
  if (t.inputTokens === undefined && t.outputTokens === undefined) return "-";
  return `${num(t.inputTokens ?? 0)} in / ${num(t.outputTokens ?? 0)} out`;
}

/** Cost in USD, `-` when unknown. */
export function costText(c: number | undefined): string {
  return c === undefined ? "-" : `$${c.toFixed(4)}`;
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
    ["Cost", costText(report.totals.costUsd)],
  ];
}
