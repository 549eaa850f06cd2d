import type {
  FormatReport,
  GraphEdge,
  GraphNode,
  RankedArgument,
  ReportSide,
  TranscriptEntry,
  TranscriptSection,
  TurningPoint,
} from "../../report-model.js";
import { seatConfigs } from "../../seats.js";
import { type CrossfireState, summaryOf, type Turn, turnsOf, verdictOf } from "./state.js";

const SIDE = { proposer: "proposition", challenger: "opposition" } as const satisfies Record<
  string,
  ReportSide
>;

const seatName = (state: CrossfireState, role: string) => {
  const seat = seatConfigs(state.frontmatter)[role];
  if (seat) return [seat.adapter, seat.model].filter(Boolean).join(" / ");
  // A verdict panel (judges:): its judges' adapters.
  const panel = state.frontmatter.judges?.panel;
  if (role === "judge" && panel)
    return `panel: ${panel.map((s) => [s.adapter, s.model].filter(Boolean).join(" / ")).join(", ")}`;
  return role;
};

const pointId = (t: Turn, i: number, id: string | undefined) => id ?? `r${t.round}-${t.role}-${i + 1}`;

/** The crossfire debate as a document: each round's turns (position, points with evidence, concessions), the summaries, the verdict. */
function crossfireTranscript(state: CrossfireState, turns: Turn[]): TranscriptSection[] {
  const judge = seatName(state, "judge");
  const rounds = [...new Set(turns.map((t) => t.round))].sort((a, b) => a - b);
  const sections: TranscriptSection[] = rounds.map((round) => {
    const mine = turns.filter((t) => t.round === round);
    const summary = summaryOf(state, round);
    return {
      id: `round-${round}`,
      title: `Round ${round}`,
      notes: [
        ...(summary ? [{ heading: `summary read in round ${round}`, judge, text: summary.summary }] : []),
        ...mine.map((t) => ({
          heading: `the ${t.role}'s position${t.data.kind ? ` (${t.data.kind})` : ""}`,
          judge: seatName(state, t.role),
          text: [
            t.data.position,
            ...(t.data.concessions ?? []).map((c) => `Concedes${c.target ? ` ${c.target}` : ""}: ${c.text}`),
          ].join("\n\n"),
        })),
      ],
      entries: mine.flatMap((t) =>
        t.data.points.map(
          (p, i): TranscriptEntry => ({
            id: pointId(t, i, p.id),
            side: SIDE[t.role],
            title: p.claim.length > 90 ? `${p.claim.slice(0, 89)}…` : p.claim,
            meta: [t.role, p.stance ?? "claim", p.category, p.unsupported ? "unsupported" : undefined]
              .filter(Boolean)
              .join(", "),
            pieces: [
              // A short claim is the entry's title already; a long one is shown whole here.
              ...(p.claim.length > 90 ? [{ label: "Claim", text: p.claim }] : []),
              ...(p.evidence ?? []).map((e) => ({
                label: `${e.kind}: ${e.ref}`,
                text: e.detail,
                quote: true,
              })),
            ],
            links: (p.targets ?? []).map((target) => ({
              kind: p.stance === "flaw" ? ("attack" as const) : ("defense" as const),
              target,
              label: p.stance ?? "claim",
            })),
            judgements: [],
          }),
        ),
      ),
    };
  });
  const verdict = verdictOf(state);
  if (verdict)
    sections.push({
      id: "verdict-reasoning",
      title: "The verdict",
      entries: [],
      notes: [{ heading: "verdict", judge, text: verdict.reasoning }],
    });
  return sections;
}

/** The report's body for a crossfire debate: points and the flaws aimed at them per round; the verdict's citations rank the points. */
export function crossfireReport(state: CrossfireState): FormatReport {
  const fm = state.frontmatter;
  const turns = turnsOf(state);
  const verdict = verdictOf(state);
  const rounds = [...new Set(turns.map((t) => t.round))].sort((a, b) => a - b);

  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const flawsAt = new Map<string, number>();
  for (const t of turns)
    for (const p of t.data.points) {
      if (!p.id) continue;
      // One column per turn: the proposer speaks first in a round, the challenger answers.
      nodes.push({
        id: p.id,
        side: SIDE[t.role],
        title: p.claim,
        rank: 2 * t.round + (t.role === "challenger" ? 1 : 0),
      });
      for (const target of p.targets ?? []) {
        const kind = p.stance === "flaw" ? "attack" : "defense";
        edges.push({ from: p.id, to: target, kind, label: p.stance ?? "claim" });
        if (p.stance === "flaw") flawsAt.set(target, (flawsAt.get(target) ?? 0) + 1);
      }
    }
  const known = new Set(nodes.map((n) => n.id));
  const shownEdges = edges.filter((e) => known.has(e.to));

  // Standing per round: the points each side has put on the table so far, less those the other side's flaws hit.
  const series = (["proposer", "challenger"] as const).map((role) => ({
    side: SIDE[role],
    name: role === "proposer" ? "Proposer" : "Challenger",
    points: rounds.map((round) => {
      const mine = turns.filter((t) => t.role === role && t.round <= round).flatMap((t) => t.data.points);
      const hit = turns
        .filter((t) => t.role !== role && t.round <= round)
        .flatMap((t) => t.data.points)
        .filter((p) => p.stance === "flaw")
        .flatMap((p) => p.targets ?? [])
        .filter((id) => mine.some((m) => m.id === id));
      return { x: round, label: `round ${round}`, y: mine.length - new Set(hit).size };
    }),
  }));

  const citations = new Map<string, number>();
  for (const id of verdict?.cited_points ?? []) citations.set(id, (citations.get(id) ?? 0) + 1);
  for (const a of verdict?.agreements ?? [])
    for (const id of a.points ?? []) citations.set(id, (citations.get(id) ?? 0) + 1);
  const rankedOf = (n: GraphNode, why: string): RankedArgument => ({
    id: n.id,
    side: n.side,
    title: n.title,
    why,
  });
  const strongest = nodes
    .filter((n) => (citations.get(n.id) ?? 0) > 0 && (flawsAt.get(n.id) ?? 0) === 0)
    .sort((a, b) => citations.get(b.id)! - citations.get(a.id)! || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((n) => rankedOf(n, `cited ${citations.get(n.id)}× by the verdict, no flaw found in it`));
  // A point of the winner's that the verdict cites is what the result rests on: a flaw aimed at it did not carry.
  const winner = verdict && verdict.winner !== "tie" ? SIDE[verdict.winner] : undefined;
  const decisive = (n: GraphNode) => n.side === winner && verdict!.cited_points.includes(n.id);
  const weakest = nodes
    .filter((n) => (flawsAt.get(n.id) ?? 0) > 0 && !decisive(n))
    .sort((a, b) => flawsAt.get(b.id)! - flawsAt.get(a.id)! || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((n) => rankedOf(n, `${flawsAt.get(n.id)} flaw(s) found in it by the other side`));

  const turningPoints: TurningPoint[] = [];
  for (const t of turns) {
    for (const c of t.data.concessions ?? [])
      turningPoints.push({
        kind: "concession",
        label: `round ${t.round}: the ${t.role} concedes${c.target ? ` ${c.target}` : ""}`,
        detail: c.text,
        magnitude: 1,
      });
    for (const w of t.data.withdrawals ?? [])
      turningPoints.push({
        kind: "concession",
        label: `round ${t.round}: the ${t.role} withdraws a concession`,
        detail: JSON.stringify(w),
        magnitude: 1,
      });
  }
  for (let i = 0; i < rounds.length; i++) {
    const margin = (k: number) => series[0]!.points[k]!.y - series[1]!.points[k]!.y;
    const swing = margin(i) - (i === 0 ? 0 : margin(i - 1));
    if (swing !== 0)
      turningPoints.push({
        kind: "swing",
        label: `round ${rounds[i]}: ${swing > 0 ? "+" : ""}${swing} toward the ${swing > 0 ? "proposer" : "challenger"}`,
        detail: `standing points: proposer ${series[0]!.points[i]!.y}, challenger ${series[1]!.points[i]!.y}`,
        magnitude: Math.abs(swing),
      });
  }
  turningPoints.sort((a, b) => b.magnitude - a.magnitude || a.label.localeCompare(b.label));

  const alerts = (fm.failures ?? []).map(
    (f) => `the ${f.role} failed in round ${f.round}: ${f.code}: ${f.message}`,
  );
  return {
    sideNames: { proposition: "Proposer", opposition: "Challenger" },
    chart: {
      title: "Standing points per side after each round",
      description: `Points made and not hit by a flaw, after rounds ${rounds.join(", ")}: ${series
        .map((s) => `${s.name} ${s.points.map((p) => p.y).join(", ")}`)
        .join("; ")}.`,
      xLabel: "round",
      yLabel: "standing points",
      yInteger: true,
      series,
    },
    graph: { nodes, edges: shownEdges },
    strongest,
    weakest,
    turningPoints,
    // The summaries and the verdict's reasoning sit in the transcript, in their rounds.
    judges: [],
    transcript: crossfireTranscript(state, turns),
    verdict: {
      headline: verdict
        ? verdict.winner === "tie"
          ? "a tie: the judge panel is split"
          : `the ${verdict.winner} wins`
        : "no verdict yet",
      ...(winner ? { winner } : {}),
      details: verdict
        ? [
            { label: "Recommendation", text: verdict.recommendation },
            { label: "Cited points", text: verdict.cited_points.join(", ") },
            {
              label: "Ratings",
              text: Object.entries(verdict.ratings)
                .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`)
                .join("; "),
            },
            ...verdict.agreements.map((a) => ({ label: "Agreement", text: a.text })),
            ...verdict.disagreements.map((d) => ({ label: "Disagreement", text: String(d) })),
            ...verdict.unresolved.map((u) => ({ label: "Unresolved", text: String(u) })),
          ]
        : [],
    },
    alerts,
  };
}
