// What a format's report is made of: pure data that @debatekit/report renders without knowing formats.

/** Which side a series, node or argument belongs to (crossfire's proposer and challenger map to these). */
export type ReportSide = "proposition" | "opposition";

/** A point of the standing chart: `x` orders the points, `label` names them (`exchange 2`, `round 1`). */
export interface ChartPoint {
  x: number;
  label: string;
  y: number;
}

/** The standing over the debate: one series per side. */
export interface StandingChart {
  title: string;
  /** One sentence for screen readers and the markdown report. */
  description: string;
  xLabel: string;
  yLabel: string;
  /** Counts (review's findings): whole-number ticks. */
  yInteger?: boolean;
  /** One line per side (formal, crossfire) or per severity (review): `color`/`dash` override the side's. */
  series: Array<{ side?: ReportSide; name: string; points: ChartPoint[]; color?: string; dash?: boolean }>;
}

/** One argument or point of the graph. */
export interface GraphNode {
  id: string;
  side: ReportSide;
  /** Fill colour instead of the side's (review: the severity's); must carry white text at WCAG AA. */
  color?: string;
  /** Short text shown on hover and in the markdown list. */
  title: string;
  /** More text for the hover (an argument's claim). */
  detail?: string;
  /** The exchange or round it belongs to: the graph stands it in that column, earliest on the left. */
  rank?: number;
  score?: number;
}

/** An attack or defense (formal), a flaw or resolution (crossfire), a finding raised again (review): `from` acts on `to`. */
export interface GraphEdge {
  from: string;
  to: string;
  kind: "attack" | "defense" | "repeat";
  label: string;
}

/** An argument ranked by its score (or, without scores, by what the verdict rests on). */
export interface RankedArgument {
  id: string;
  side: ReportSide;
  title: string;
  score?: number;
  why: string;
}

/** A moment that moved the debate: a swing of the standing, or a rescore. */
export interface TurningPoint {
  kind: "swing" | "rescore" | "concession";
  label: string;
  detail: string;
  /** How much it moved (absolute); sorts the list. */
  magnitude: number;
}

/** One piece of a judge's reasoning. */
export interface JudgeNote {
  heading: string;
  judge: string;
  text: string;
}

/** A labelled piece of an entry's text (a claim, its grounds, a finding's evidence): model text, escaped where it lands. */
export interface TranscriptPiece {
  label: string;
  text: string;
  /** Quoted material (a ground's source, a finding's evidence quote): drawn as a quote. */
  quote?: boolean;
}

/** A judge's word on one entry: a score or a classification, with its reasoning. */
export interface TranscriptJudgement {
  heading: string;
  judge: string;
  text: string;
  score?: number;
}

/** One argument, turn point or finding in the debate's order, with its full text. */
export interface TranscriptEntry {
  /** The id other entries link to (an argument's id, a point's, a finding's). */
  id: string;
  side: ReportSide;
  title: string;
  /** A short line under the title (`P1, src/a.ts:12`, `flaw, security`). */
  meta?: string;
  pieces: TranscriptPiece[];
  /** What the entry acts on: each `target` is another entry's id (a link when it is in the transcript). */
  links: Array<{ kind: GraphEdge["kind"]; target: string; label: string }>;
  /** The judge's scores, rescores or classification of this entry, once, next to it. */
  judgements: TranscriptJudgement[];
}

/** One unit of the debate (an exchange, a round): its entries in order, and what the judge said of the whole unit. */
export interface TranscriptSection {
  id: string;
  title: string;
  entries: TranscriptEntry[];
  /** Prose of the unit itself (a turn's position, a round's summary, the judge's recommendation). */
  notes: JudgeNote[];
}

/** One line of an artifact as a report shows it: its number in the file, its number before the change, its text. */
export interface ArtifactLine {
  /** Its number in the file as reviewed (a text's own line; a diff's new side). Absent for a line the change removed. */
  line?: number;
  /** Its number before the change (a diff's removed and unchanged lines). */
  oldLine?: number;
  /** `+` the change added it, `-` the change removed it; absent for an unchanged line. */
  mark?: "+" | "-";
  text: string;
}

/** A file of the artifact under review (a changed file, a text), its lines in order. */
export interface ArtifactFile {
  path: string;
  lines: ArtifactLine[];
}

/** A note pinned to one line of the artifact (review: a finding followed across rounds, once), with its full text. */
export interface ArtifactNote {
  id: string;
  title: string;
  /** A short line under the title (severity, where it points, rounds). */
  meta?: string;
  /** The colour of its mark (review: the severity's); carries white text at WCAG AA. */
  color?: string;
  /** The line it points at: a path of `files` and a number (`side: "old"`: the number before the change). Absent: it cites no line. */
  at?: { path: string; line: number; side?: "new" | "old" };
  /** Where it points in words (`sum.ts:40`), said when that line is not in `files`. */
  cites?: string;
  pieces: TranscriptPiece[];
  /** The transcript entries it gathers (a finding raised in several rounds): linked when in the transcript. */
  entries: string[];
}

/** The artifact under review with notes on its lines, like a code-review page (review's findings on the change). */
export interface ReportArtifact {
  title: string;
  /** One sentence under the title. */
  description: string;
  files: ArtifactFile[];
  notes: ArtifactNote[];
  /** The heading over the notes that point at no line shown (they cite nothing, or a line the artifact does not have). */
  apartTitle: string;
}

/** What one format contributes to a report (docs/architecture.md#reports): computed from the state, never guessed. */
export interface FormatReport {
  sideNames: Record<ReportSide, string>;
  chart: StandingChart;
  graph: { nodes: GraphNode[]; edges: GraphEdge[] };
  strongest: RankedArgument[];
  weakest: RankedArgument[];
  turningPoints: TurningPoint[];
  /** Judge notes not already in the transcript (with a transcript: none, everything is inline). */
  judges: JudgeNote[];
  /** The debate as a document: every unit in order with the full text of its entries. */
  transcript?: TranscriptSection[];
  verdict: {
    headline: string;
    winner?: ReportSide;
    totals?: Record<ReportSide, number>;
    details: Array<{ label: string; text: string }>;
  };
  /** Format-specific alerts (unscored arguments, a failed seat recorded in the state). */
  alerts: string[];
  /** Format-specific tables (review: the findings, the decision history), drawn in this order after the verdict. */
  tables?: ReportTable[];
  /** The artifact under review with the notes anchored on its lines (review). */
  artifact?: ReportArtifact;
  /** What the ranked items are called in headings (`arguments` by default; review: `findings`). */
  itemName?: string;
  /** What the legend under the graph says each colour and line means. */
  graphLegend?: string;
  /** What the chart's points count, for the alt text of a table-less reader ("Standing over time" by default). */
  chartHeading?: string;
}

/** A plain table of a report: header cells and rows of text. */
export interface ReportTable {
  id: string;
  title: string;
  /** One sentence above the table. */
  caption?: string;
  columns: string[];
  rows: string[][];
}
