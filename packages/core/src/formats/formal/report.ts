import type {
  ChartPoint,
  FormatReport,
  GraphEdge,
  RankedArgument,
  ReportSide,
  TranscriptEntry,
  TranscriptPiece,
  TranscriptSection,
  TurningPoint,
} from "../../report-model.js";
import type { ArgumentRecord, DebateState } from "../../types.js";
import { formalStanding } from "./standing.js";

const SIDE: Record<"prop" | "opp", ReportSide> = { prop: "proposition", opp: "opposition" };
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The exchange a history entry belongs to: a rescore's `triggered_by` (`exchange_2`), else the argument's own. */
function entryExchange(arg: ArgumentRecord, triggeredBy: string | undefined): number {
  const m = triggeredBy === undefined ? null : /(\d+)\s*$/.exec(triggeredBy);
  return m ? Number(m[1]) : arg.frontmatter.exchange;
}

/** Every argument's score as it stood after each judged exchange. */
function scoresByExchange(state: DebateState): {
  exchanges: number[];
  at(arg: ArgumentRecord, e: number): number | undefined;
} {
  const judged = new Set<number>();
  for (const arg of state.arguments)
    for (const h of state.scores[arg.frontmatter.id]?.history ?? [])
      judged.add(entryExchange(arg, h.triggered_by));
  return {
    exchanges: [...judged].sort((a, b) => a - b),
    at(arg, e) {
      let score: number | undefined;
      for (const h of state.scores[arg.frontmatter.id]?.history ?? [])
        if (entryExchange(arg, h.triggered_by) <= e) score = h.score;
      return score;
    },
  };
}

/**
 * A ranked argument, with how it came to its score (its own story, not the list's heading again):
 * `scored 0.40 in exchange 1`, `scored 0.20 in exchange 0, rescored to 0.45 after exchange 2`.
 */
function ranked(state: DebateState, arg: ArgumentRecord): RankedArgument {
  const { id, side, title } = arg.frontmatter;
  const score = state.scores[id]?.current_score;
  return {
    id,
    side: SIDE[side],
    title,
    ...(score === undefined ? {} : { score }),
    why: scoreStory(state, arg),
  };
}

function scoreStory(state: DebateState, arg: ArgumentRecord): string {
  const history = state.scores[arg.frontmatter.id]?.history ?? [];
  const first = history[0];
  if (!first) return "not scored yet";
  const scored = `scored ${first.score.toFixed(2)} in exchange ${arg.frontmatter.exchange}`;
  const last = history.at(-1)!;
  if (history.length === 1) return scored;
  const times = history.length - 1;
  return `${scored}, rescored${times > 1 ? ` ${times} times` : ""} to ${last.score.toFixed(2)} after exchange ${entryExchange(arg, last.triggered_by)}`;
}

/** An exchange's arguments in the order they were given: the proposition's, then the opposition's. */
function spoken(a: ArgumentRecord, b: ArgumentRecord): number {
  const side = (x: ArgumentRecord) => (x.frontmatter.side === "prop" ? 0 : 1);
  return (
    a.frontmatter.exchange - b.frontmatter.exchange ||
    side(a) - side(b) ||
    a.frontmatter.id.localeCompare(b.frontmatter.id)
  );
}

/**
 * An argument's Toulmin body as labelled pieces: each `## Claim`/`## Warrant`... section, each
 * `### 1. source` ground with its quote, and each `**Relevance:**` line under its own label.
 */
export function toulminPieces(body: string): TranscriptPiece[] {
  const pieces: TranscriptPiece[] = [];
  let label = "Text";
  let lines: string[] = [];
  let quote = false;
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text) pieces.push({ label, text, ...(quote ? { quote } : {}) });
    lines = [];
  };
  for (const line of body.split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const bold = /^\*\*([^*]+?):\*\*\s*(.*)$/.exec(line);
    const isQuote = /^\s*>/.test(line);
    if (heading || bold) {
      flush();
      quote = false;
      if (heading) label = heading[1]!.trim();
      else pieces.push({ label: bold![1]!.trim(), text: bold![2]!.trim() });
      continue;
    }
    if (line.trim() !== "" && isQuote !== quote) {
      flush();
      quote = isQuote;
    }
    lines.push(isQuote ? line.replace(/^\s*>\s?/, "") : line);
  }
  flush();
  return pieces;
}

/** The formal debate as a document: its arguments by exchange, full text, links and every score the judge gave each. */
function formalTranscript(state: DebateState, judge: string): TranscriptSection[] {
  const exchanges = [...new Set(state.arguments.map((a) => a.frontmatter.exchange))].sort((a, b) => a - b);
  return exchanges.map((e) => ({
    id: `exchange-${e}`,
    title: e === 0 ? "Opening statements (exchange 0)" : `Exchange ${e}`,
    notes: [],
    entries: state.arguments
      .filter((a) => a.frontmatter.exchange === e)
      .sort(spoken)
      .map((a): TranscriptEntry => {
        const fm = a.frontmatter;
        return {
          id: fm.id,
          side: SIDE[fm.side],
          title: fm.title,
          pieces: toulminPieces(a.body),
          links: [
            ...(fm.attacks ?? []).map((x) => ({
              kind: "attack" as const,
              target: x.target_id,
              label: String(x.type).replace(/_/g, " "),
            })),
            ...(fm.defends ?? []).map((x) => ({
              kind: "defense" as const,
              target: x.target_id,
              label: String(x.type).replace(/_/g, " "),
            })),
          ],
          judgements: (state.scores[fm.id]?.history ?? []).map((h) => ({
            heading:
              h.previous_score === undefined
                ? `scored ${h.score.toFixed(2)}`
                : `rescored ${h.previous_score.toFixed(2)} → ${h.score.toFixed(2)} after exchange ${entryExchange(a, h.triggered_by)}`,
            judge,
            text: h.reasoning,
            score: h.score,
          })),
        };
      }),
  }));
}

/** The report's body for a formal debate (and a dialectic folder): scores per argument, the judge's reasoning per exchange. */
export function formalReport(state: DebateState): FormatReport {
  const { exchanges, at } = scoresByExchange(state);
  const series = (["prop", "opp"] as const).map((code) => ({
    side: SIDE[code],
    name: code === "prop" ? "Proposition" : "Opposition",
    points: exchanges.map(
      (e): ChartPoint => ({
        x: e,
        label: `exchange ${e}`,
        y: round2(
          state.arguments
            .filter((a) => a.frontmatter.side === code)
            .reduce((sum, a) => sum + (at(a, e) ?? 0), 0),
        ),
      }),
    ),
  }));

  const ids = new Set(state.arguments.map((a) => a.frontmatter.id));
  const edges: GraphEdge[] = [];
  for (const arg of state.arguments) {
    for (const attack of arg.frontmatter.attacks ?? [])
      if (ids.has(attack.target_id))
        edges.push({
          from: arg.frontmatter.id,
          to: attack.target_id,
          kind: "attack",
          label: String(attack.type).replace(/_attack$/, ""),
        });
    for (const defense of arg.frontmatter.defends ?? [])
      if (ids.has(defense.target_id))
        edges.push({
          from: arg.frontmatter.id,
          to: defense.target_id,
          kind: "defense",
          label: String(defense.type),
        });
  }

  const scored = state.arguments.filter((a) => state.scores[a.frontmatter.id] !== undefined);
  const byScore = [...scored].sort(
    (a, b) =>
      state.scores[b.frontmatter.id]!.current_score - state.scores[a.frontmatter.id]!.current_score ||
      a.frontmatter.id.localeCompare(b.frontmatter.id),
  );
  const count = Math.min(3, Math.floor(byScore.length / 2) || byScore.length);
  const strongest = byScore.slice(0, count).map((a) => ranked(state, a));
  const weakest = byScore
    .slice(-count)
    .reverse()
    .map((a) => ranked(state, a));

  const turningPoints: TurningPoint[] = [];
  const margin = (i: number) => series[0]!.points[i]!.y - series[1]!.points[i]!.y;
  for (let i = 0; i < exchanges.length; i++) {
    const swing = round2(margin(i) - (i === 0 ? 0 : margin(i - 1)));
    if (swing === 0) continue;
    const toward = swing > 0 ? "the proposition" : "the opposition";
    turningPoints.push({
      kind: "swing",
      label: `exchange ${exchanges[i]}: ${swing > 0 ? "+" : ""}${swing.toFixed(2)} toward ${toward}`,
      detail: `margin (proposition − opposition) ${round2(margin(i)).toFixed(2)} after exchange ${exchanges[i]}`,
      magnitude: Math.abs(swing),
    });
  }
  const judge = state.frontmatter.seats?.judge;
  const judgeName = judge ? [judge.adapter, judge.model].filter(Boolean).join(" / ") : "judge";
  for (const arg of state.arguments) {
    for (const h of state.scores[arg.frontmatter.id]?.history ?? []) {
      const e = entryExchange(arg, h.triggered_by);
      if (h.previous_score !== undefined) {
        turningPoints.push({
          kind: "rescore",
          label: `${arg.frontmatter.id} rescored ${h.previous_score.toFixed(2)} → ${h.score.toFixed(2)} (exchange ${e})`,
          detail: h.reasoning,
          magnitude: Math.abs(h.score - h.previous_score),
        });
      }
    }
  }
  turningPoints.sort((a, b) => b.magnitude - a.magnitude || a.label.localeCompare(b.label));

  const prop = series[0]!.points.at(-1)?.y ?? 0;
  const opp = series[1]!.points.at(-1)?.y ?? 0;
  const winner: ReportSide | undefined = prop > opp ? "proposition" : opp > prop ? "opposition" : undefined;
  const verb = formalStanding(state).complete ? "wins" : "leads";
  const signed = (n: number) => `${n > 0 ? "+" : ""}${n.toFixed(2)}`;
  const unscored = state.arguments
    .filter((a) => state.scores[a.frontmatter.id] === undefined)
    .map((a) => a.frontmatter.id);
  return {
    sideNames: { proposition: "Proposition", opposition: "Opposition" },
    chart: {
      title: "Cumulative score per side after each exchange",
      description: `Cumulative score after exchanges ${exchanges.join(", ")}: ${series
        .map((s) => `${s.name} ${s.points.map((p) => p.y.toFixed(2)).join(", ")}`)
        .join("; ")}.`,
      xLabel: "exchange",
      yLabel: "cumulative score",
      series,
    },
    graph: {
      nodes: state.arguments.map((a) => {
        const score = state.scores[a.frontmatter.id]?.current_score;
        return {
          id: a.frontmatter.id,
          side: SIDE[a.frontmatter.side],
          title: a.frontmatter.title,
          ...(a.frontmatter.claim ? { detail: a.frontmatter.claim } : {}),
          rank: a.frontmatter.exchange,
          ...(score === undefined ? {} : { score }),
        };
      }),
      edges,
    },
    strongest,
    weakest,
    turningPoints,
    // Every score and its reasoning sits next to its argument in the transcript.
    judges: [],
    transcript: formalTranscript(state, judgeName),
    verdict: {
      headline: winner
        ? `the ${winner} ${verb}: ${signed(prop)} to ${signed(opp)}`
        : `tied: ${signed(prop)} to ${signed(opp)}`,
      ...(winner ? { winner } : {}),
      totals: { proposition: prop, opposition: opp },
      details: [
        {
          label: "Proposition",
          text: `${prop.toFixed(2)} over ${state.arguments.filter((a) => a.frontmatter.side === "prop").length} arguments`,
        },
        {
          label: "Opposition",
          text: `${opp.toFixed(2)} over ${state.arguments.filter((a) => a.frontmatter.side === "opp").length} arguments`,
        },
      ],
    },
    alerts:
      unscored.length > 0 ? [`${unscored.length} argument(s) not scored yet: ${unscored.join(", ")}`] : [],
  };
}
