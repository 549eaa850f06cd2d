import type {
  ArtifactFile,
  ArtifactLine,
  ArtifactNote,
  ChartPoint,
  FormatReport,
  GraphEdge,
  GraphNode,
  JudgeNote,
  RankedArgument,
  ReportArtifact,
  ReportSide,
  ReportTable,
  StandingChart,
  TranscriptEntry,
  TranscriptJudgement,
  TranscriptPiece,
  TranscriptSection,
  TurningPoint,
} from "@debatekit/core";

export type {
  ArtifactFile,
  ArtifactLine,
  ArtifactNote,
  ChartPoint,
  FormatReport,
  GraphEdge,
  GraphNode,
  JudgeNote,
  RankedArgument,
  ReportArtifact,
  ReportSide,
  ReportTable,
  StandingChart,
  TranscriptEntry,
  TranscriptJudgement,
  TranscriptPiece,
  TranscriptSection,
  TurningPoint,
};

/** One seat of the header table, with what the journal knows about its calls. */
export interface SeatSummary {
  role: string;
  adapter?: string;
  model?: string;
  calls: number;
  /** Calls that ended without an answer (timeout, exit, error). */
  failedCalls: number;
  /** Answers the format's rules refused (the seat was asked again); counted in `calls`, not in `failedCalls`. */
  rejectedCalls: number;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  costUsd?: number;
  /** Wall time of its calls, journaled ones included. */
  durationMs?: number;
  /** Calls whose cost is unknown (the true cost is higher than `costUsd`). */
  unknownCostCalls?: number;
  /** Calls whose tokens were counted by us, not reported by the CLI. */
  estimatedCalls?: number;
}

/** The narrative section: a `reporter` seat's checked analysis, or why there is none. */
export type Narrative =
  | { ok: true; text: string; seat: string; cited: string[] }
  | { ok: false; seat: string; error: string };

/** Judge-panel reliability (docs/architecture.md#judges), when a panel judged: agreement, order flips, per-judge rows. */
export interface JudgeReliability {
  /** One sentence a reader takes away. */
  summary: string;
  rows: Array<[label: string, value: string]>;
}

/** A whole report, before it is rendered as markdown or HTML. */
export interface Report {
  title: string;
  debateId: string;
  format: string;
  motion: string;
  status: string;
  complete: boolean;
  progress: string;
  seats: SeatSummary[];
  totals: { inputTokens?: number; outputTokens?: number; costUsd?: number; unknownCostCalls?: number };
  /** Failed, partial, aborted or uncontested: shown first, never as a footnote. */
  alerts: string[];
  /** The result rests on fewer seats, rounds or judges than configured (docs/architecture.md#honest-degradation): a banner above everything, with its causes. */
  degraded?: { causes: string[] };
  /** Where the usage figures come from (`the journal`, or a usage ledger), for the usage section. */
  usageSource: string;
  /** Judge-panel figures when there are some; the section says why there are none otherwise. */
  reliability?: JudgeReliability;
  narrative?: Narrative;
  /** Absent for a format without a reporter: the report then holds the header and the standing only. */
  body?: FormatReport;
}
