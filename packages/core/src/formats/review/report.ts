import type { ReviewChoice, ReviewFinding, ReviewFrontmatter } from "@debatekit/schema";
import type {
  FormatReport,
  GraphEdge,
  GraphNode,
  RankedArgument,
  ReportTable,
  TranscriptSection,
  TurningPoint,
} from "../../report-model.js";
import { DECISION_LABELS } from "./decision.js";
import { type Finding, reviewArtifact } from "./report-artifact.js";
import type { ReviewRound } from "./round.js";
import { type ReviewState, roundsOf } from "./state.js";

type Severity = ReviewFinding["severity"];
const SEVERITIES: readonly Severity[] = ["P1", "P2", "P3"];
/** Severity colours: each carries white text at WCAG AA; the lines differ by dash as well. */
const SEVERITY_COLOR: Record<Severity, string> = { P1: "#b71c1c", P2: "#8a4b00", P3: "#37474f" };
const CHOICE = DECISION_LABELS;
const STOP: Record<NonNullable<ReviewFrontmatter["stop_reason"]>, string> = {
  decision: "by the decision",
  converged: "converged (two rounds without a new P1/P2)",
  agreed: "the critic agreed",
  max_rounds: "at the round limit",
  budget: "the time budget was spent",
};

/** A round's findings: the judge's classification when there is one (critic's and the judge's own), else the critic's. */
const findingsOf = (r: ReviewRound): Finding[] => (r.classified ?? r.critique.findings) as Finding[];
const keyOf = (f: Finding) => f.fingerprint ?? f.id;
const where = (f: Finding) =>
  f.evidence?.file ? `${f.evidence.file}${f.evidence.line === undefined ? "" : `:${f.evidence.line}`}` : "-";
const evidence = (f: Finding) =>
  f.evidence_status === "verified"
    ? "verified"
    : f.evidence_status === "needs_evidence"
      ? "not found (needs evidence)"
      : "none given";

/**
 * The review as a document: each round's findings with description, evidence (and whether the
 * engine found it), suggestion and the judge's classification; the judge's reasons and the author's answer.
 */
function reviewTranscript(rounds: ReviewRound[], edges: GraphEdge[], judge: string): TranscriptSection[] {
  return rounds.map((r) => ({
    id: `round-${r.round}`,
    title: `Round ${r.round}`,
    notes: [
      ...(r.judgment
        ? [
            {
              heading: `the judge recommends ${r.judgment.recommendation} (${CHOICE[r.judgment.recommendation]})`,
              judge,
              text: r.judgment.reasons.join("\n\n"),
            },
          ]
        : []),
      ...(r.author
        ? [
            {
              heading:
                r.author.kind === "rebuttal"
                  ? "the author's rebuttal"
                  : `the author's ${r.author.kind} version`,
              judge: "author",
              text: r.author.text,
            },
          ]
        : []),
    ],
    entries: findingsOf(r).map((f) => {
      const c = r.judgment?.classifications.find((x) => x.finding_id === f.id);
      return {
        id: f.id,
        side: "opposition" as const,
        title: `${f.severity} ${f.title}`,
        meta: `${f.severity}, ${where(f) === "-" ? "cites no file" : where(f)}, evidence ${evidence(f)}${f.id.includes("-j") ? ", added by the judge" : ""}`,
        pieces: [
          { label: "Description", text: f.detail },
          ...(f.evidence?.quote
            ? [
                {
                  label: where(f) === "-" ? "Evidence quote" : `Evidence at ${where(f)}`,
                  text: f.evidence.quote,
                  quote: true,
                },
              ]
            : []),
          ...(f.suggestion ? [{ label: "Suggestion", text: f.suggestion }] : []),
        ],
        links: edges
          .filter((e) => e.from === f.id)
          .map((e) => ({ kind: e.kind, target: e.to, label: e.label })),
        judgements: c ? [{ heading: `judged ${c.verdict.replace("_", " ")}`, judge, text: c.reasoning }] : [],
      };
    }),
  }));
}

/** The report's body for a review: findings by severity per round, the findings across rounds, every judgment, the decision history. */
export function reviewReport(state: ReviewState): FormatReport {
  const fm = state.frontmatter;
  const rounds = roundsOf(state);

  // The standing: what the critic (and the judge) raised each round, by severity after the evidence check.
  const series = SEVERITIES.map((sev, i) => ({
    name: sev,
    color: SEVERITY_COLOR[sev],
    dash: i > 0,
    points: rounds.map((r) => ({
      x: r.round,
      label: `round ${r.round}`,
      y: findingsOf(r).filter((f) => f.severity === sev).length,
    })),
  }));

  // One row per distinct finding (a reworded repeat keeps its fingerprint), its status in every round it came up.
  const distinct = new Map<
    string,
    { first: Finding; last: Finding; seen: Array<{ round: number; f: Finding }> }
  >();
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const r of rounds)
    for (const f of findingsOf(r)) {
      const key = keyOf(f);
      const known = distinct.get(key);
      if (known) {
        edges.push({ from: f.id, to: known.last.id, kind: "repeat", label: "raised again" });
        known.last = f;
        known.seen.push({ round: r.round, f });
      } else distinct.set(key, { first: f, last: f, seen: [{ round: r.round, f }] });
      nodes.push({
        id: f.id,
        side: "opposition",
        color: SEVERITY_COLOR[f.severity],
        rank: r.round,
        title: `${f.severity} ${f.title}${f.verdict ? ` (${f.verdict.replace("_", " ")})` : ""}`,
      });
    }
  const findingsTable: ReportTable = {
    id: "findings",
    title: "Findings",
    caption: `${distinct.size} distinct finding(s) over ${rounds.length} round(s); a finding raised again in other words keeps its row. Evidence is checked by code against the artifact and the repository at the scope.`,
    columns: ["Finding", "Severity", "Title", "File:line", "Evidence", "Status by round"],
    rows: [...distinct.values()].map(({ first, last, seen }) => [
      seen.map((s) => s.f.id).join(", "),
      [...new Set(seen.map((x) => x.f.severity))].join(" → "),
      last.title,
      where(last),
      evidence(last),
      seen
        .map((s) => `round ${s.round}: ${s.f.verdict ? s.f.verdict.replace("_", " ") : "not judged yet"}`)
        .join("; ") + (first.id.includes("-j") ? " (added by the judge)" : ""),
    ]),
  };

  const history = fm.history ?? [];
  const decisionTable: ReportTable = {
    id: "decisions",
    title: "Decision history",
    caption:
      "Every round: what the critic and the judge recommended, what was applied, and what the author wrote.",
    columns: ["Round", "Findings (P1/P2/P3)", "Critic", "Judge recommends", "Applied", "Author"],
    rows: rounds.map((r) => {
      const counts = SEVERITIES.map((s) => findingsOf(r).filter((f) => f.severity === s).length).join("/");
      const h = history.find((x) => x.round === r.round);
      const applied = r.applied ?? h?.applied;
      return [
        String(r.round),
        counts,
        `${r.critique.recommendation ?? "-"}${r.critique.agree ? " (agrees)" : ""}`,
        r.judgment ? `${r.judgment.recommendation}: ${CHOICE[r.judgment.recommendation]}` : "not judged yet",
        applied ? `${applied}: ${CHOICE[applied]}` : "-",
        r.author ? (r.author.kind === "rebuttal" ? "a rebuttal" : `the ${r.author.kind} version`) : "-",
      ];
    }),
  };

  const ranked = (f: Finding, why: string): RankedArgument => ({
    id: f.id,
    side: "opposition",
    title: `${f.severity} ${f.title}`,
    why,
  });
  const latest = [...distinct.values()].map((d) => d.last);
  const rank = (f: Finding) =>
    SEVERITIES.indexOf(f.severity) * 2 + (f.evidence_status === "verified" ? 0 : 1);
  const strongest = latest
    .filter((f) => f.verdict === "valid")
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((f) => ranked(f, `judged valid, ${f.severity}, evidence ${evidence(f)}`));
  const weakest = latest
    .filter((f) => f.verdict === "invalid" || f.verdict === "needs_evidence")
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map((f) => ranked(f, `judged ${f.verdict!.replace("_", " ")}, evidence ${evidence(f)}`));

  const turningPoints: TurningPoint[] = [];
  const seenKeys = new Set<string>();
  let previous: ReviewChoice | undefined;
  for (const r of rounds) {
    const fresh = findingsOf(r).filter((f) => !seenKeys.has(keyOf(f)));
    for (const f of findingsOf(r)) seenKeys.add(keyOf(f));
    const severe = fresh.filter((f) => f.severity !== "P3" && f.verdict !== "invalid");
    if (severe.length > 0)
      turningPoints.push({
        kind: "swing",
        label: `round ${r.round}: ${severe.length} new P1/P2 finding(s) standing`,
        detail: severe.map((f) => `${f.id} ${f.title}`).join("; "),
        magnitude: severe.length * 2,
      });
    const demoted = findingsOf(r).filter((f) => f.evidence_status === "needs_evidence");
    if (demoted.length > 0)
      turningPoints.push({
        kind: "rescore",
        label: `round ${r.round}: ${demoted.length} finding(s) without evidence`,
        detail: `${demoted.map((f) => `${f.id} (${where(f) === "-" ? "its quote" : where(f)})`).join("; ")}: not found where cited, so it cannot stay P1`,
        magnitude: demoted.length,
      });
    const rec = r.judgment?.recommendation;
    if (rec && previous && rec !== previous)
      turningPoints.push({
        kind: "swing",
        label: `round ${r.round}: the judge moves from ${previous} to ${rec}`,
        detail: r.judgment!.reasons.join(" "),
        magnitude: 3,
      });
    if (rec) previous = rec;
    if (r.author && r.author.kind !== "rebuttal")
      turningPoints.push({
        kind: "concession",
        label: `round ${r.round}: the author writes the ${r.author.kind} version`,
        detail: `decision ${r.applied ?? "?"} applied`,
        magnitude: 4,
      });
  }
  turningPoints.sort((a, b) => b.magnitude - a.magnitude || a.label.localeCompare(b.label));

  const seatName = (s: { adapter: string; model?: string }) =>
    [s.adapter, s.model].filter(Boolean).join(" / ");
  // A judge panel (judges:): its judges; the judgment's first reason gives the tally.
  const judge = fm.judges
    ? `panel: ${fm.judges.panel.map(seatName).join(", ")}`
    : fm.seats?.judge
      ? seatName(fm.seats.judge)
      : "judge";

  const done = fm.current_phase === "complete" && fm.final_decision;
  const unresolved = latest.filter(
    (f) =>
      f.verdict === "valid" && f.severity !== "P3" && fm.final_decision !== "B" && fm.final_decision !== "C",
  );
  const verified = latest.filter((f) => f.verdict !== "invalid" && f.evidence_status === "verified").length;
  const alerts: string[] = [];
  if (fm.stop_reason === "budget")
    alerts.push("the review stopped because its time budget was spent (decision E)");
  if (fm.current_phase === "awaiting_decision")
    alerts.push(
      `round ${fm.current_exchange} waits for a person's decision (inbox/decision-r${String(fm.current_exchange).padStart(2, "0")}.md)`,
    );
  return {
    sideNames: { proposition: "Author", opposition: "Critic" },
    chart: {
      title: "Findings by severity per round",
      description: `Findings raised per round (after the evidence check, judged invalid included), rounds ${rounds.map((r) => r.round).join(", ") || "none"}: ${series
        .map((s) => `${s.name} ${s.points.map((p) => p.y).join(", ") || "-"}`)
        .join("; ")}.`,
      xLabel: "round",
      yLabel: "findings",
      yInteger: true,
      series,
    },
    chartHeading: "Findings by severity per round",
    itemName: "findings",
    graph: { nodes, edges },
    graphLegend: `${nodes.length} findings coloured by severity (P1 dark red, P2 brown, P3 slate), ${edges.length} dotted grey arrows from a finding to the one it repeats from an earlier round.`,
    strongest,
    weakest,
    turningPoints,
    // Each classification sits beside its finding, each recommendation in its round.
    judges: [],
    transcript: reviewTranscript(rounds, edges, judge),
    artifact: reviewArtifact(state, rounds, [...distinct.values()], SEVERITY_COLOR, judge),
    verdict: {
      headline: done
        ? `decision ${fm.final_decision}: ${CHOICE[fm.final_decision!]}, after ${rounds.length} round${rounds.length === 1 ? "" : "s"}; stopped ${STOP[fm.stop_reason!]}`
        : `no decision yet (round ${fm.current_exchange}, ${fm.current_phase.replace(/_/g, " ")})`,
      details: [
        ...(fm.decided_by
          ? [
              {
                label: "Decided by",
                text: fm.decided_by === "auto" ? "the judge's recommendation (auto)" : "a person (manual)",
              },
            ]
          : []),
        { label: "Final artifact", text: `artifact/v${fm.artifact_version ?? 1}.md` },
        {
          label: "Verified findings",
          text: `${verified} of ${latest.filter((f) => f.verdict !== "invalid").length} standing (${latest.length} distinct raised)`,
        },
        {
          label: "Unresolved",
          text: unresolved.length > 0 ? unresolved.map((f) => `${f.id} ${f.title}`).join("; ") : "none",
        },
      ],
    },
    tables: [findingsTable, decisionTable],
    alerts,
  };
}
