import type { Reliability, UsageTotals } from "@debatekit/schema";
import type { StatusRow } from "../actions/status.js";

/** Rows as aligned columns, two spaces apart. */
export function table(rows: string[][]): string {
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
      (t.rejected_calls ?? 0) > 0 ? `${t.rejected_calls} rejected (asked again)` : "",
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

/** A score for people: `+1.50`, `-0.25`, `0.00`. */
export function signed(n: number): string {
  const v = Math.round(n * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
}
