// @debatekit/report: a debate's state in, report.md and report.html text out. Pure: no fs, no network.
export type { ReportInput } from "./build.js";
export { buildReport } from "./build.js";
export {
  escapeCell,
  escapeHtml,
  escapeMarkdown,
  escapeMarkdownBlock,
  escapeSarifText,
  escapeTerminal,
  markdownCode,
  markdownFence,
  sarifArtifactUri,
} from "./escape.js";
export type { GraphLayout, LaidNode } from "./graph.js";
export { COLLAPSE_AT, layoutGraph, renderGraphSvg } from "./graph.js";
export { BASE_STYLE, renderReportHtml } from "./html.js";
export { renderReportMarkdown } from "./markdown.js";
export type {
  ArtifactFile,
  ArtifactLine,
  ArtifactNote,
  ChartPoint,
  FormatReport,
  GraphEdge,
  GraphNode,
  JudgeNote,
  JudgeReliability,
  Narrative,
  RankedArgument,
  Report,
  ReportArtifact,
  ReportSide,
  ReportTable,
  SeatSummary,
  StandingChart,
  TranscriptEntry,
  TranscriptJudgement,
  TranscriptPiece,
  TranscriptSection,
  TurningPoint,
} from "./model.js";
export { checkNarrative, NARRATIVE_WORDS, narrativePrompt, reportIds } from "./narrative.js";
export { axisTicks, renderChartSvg, tickLabel } from "./svg.js";
export { anchorOf } from "./transcript.js";

import { buildReport, type ReportInput } from "./build.js";
import { renderReportHtml } from "./html.js";
import { renderReportMarkdown } from "./markdown.js";
import type { Report } from "./model.js";

/** Both texts of a report at once, with the data they were rendered from. */
export function createReport(input: ReportInput): { report: Report; markdown: string; html: string } {
  const report = buildReport(input);
  return { report, markdown: renderReportMarkdown(report), html: renderReportHtml(report) };
}
