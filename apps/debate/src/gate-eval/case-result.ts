import type { GateEvalDefect, GateResult } from "@debatekit/schema";
import type { Label, Outcome } from "./metrics.js";

/** Where a block pointed, against the defect the set names: at its line (within LINE_SLACK), its file, or elsewhere. */
export type Pointed = "line" | "file" | "elsewhere";

/** How far (in lines) a blocking finding may be from the defect's line and still point at it. */
export const LINE_SLACK = 3;

/** What one case's evaluation left: written once, atomically, when the case is done (a resumed run skips it). */
export interface CaseResult {
  id: string;
  label: Label;
  /** The gate's one-line reason under the policy as given. */
  reason: string;
  /** Per severity threshold (e.g. "P1", "P1,P2"): the outcome, and for a block of a case with a known defect, where it pointed. */
  thresholds: Record<string, { outcome: Outcome; pointed?: Pointed }>;
  /** Per judged round of a panel: each judge's recommendation. */
  votes: Array<Record<string, string>>;
  /** Seat calls, their known cost in USD, and calls whose cost is unknown. */
  calls: number;
  cost_usd: number;
  unknown_cost_calls: number;
  wall_ms: number;
  /** The gate's result under the run's policy (redacted): other thresholds are worked out from it. */
  gate: GateResult;
}

/** Where the blocking findings of `result` point, against `defects` (undefined when nothing blocks or no defect is known). */
export function pointedAt(
  result: GateResult,
  defects: readonly GateEvalDefect[] | undefined,
): Pointed | undefined {
  if (result.outcome !== "blocked" || !defects?.length) return undefined;
  const blocking = result.findings.filter((f) => f.blocking && f.side !== "old");
  const near = (d: GateEvalDefect) =>
    blocking.some(
      (f) => f.file === d.file && f.line !== undefined && Math.abs(f.line - d.line) <= LINE_SLACK,
    );
  if (defects.some(near)) return "line";
  return defects.some((d) => blocking.some((f) => f.file === d.file)) ? "file" : "elsewhere";
}
