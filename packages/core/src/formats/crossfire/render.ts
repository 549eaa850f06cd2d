import type { CrossfireEvidence, CrossfireSummary, CrossfireTurn, CrossfireVerdict } from "@debatekit/schema";
import { escapeBlock, singleLine } from "../../render/markdown.js";

const evidenceLine = (e: CrossfireEvidence) =>
  `  - _${e.kind}_ \`${singleLine(e.ref).replace(/`/g, "'")}\`: ${singleLine(e.detail)}`;

/** A turn as markdown (turns/rNN-<role>.md's body): position, points with ids and evidence, concessions, walk-backs. */
export function renderTurn(turn: CrossfireTurn): string {
  const lines = [
    `# Round ${turn.round}: ${turn.role} (${turn.kind})`,
    "",
    "## Position",
    "",
    escapeBlock(turn.position),
    "",
    "## Points",
    "",
  ];
  for (const p of turn.points) {
    const stance =
      p.stance && p.stance !== "claim"
        ? ` [${p.stance}${p.targets?.length ? ` of ${p.targets.join(", ")}` : ""}]`
        : "";
    const about =
      p.stance === "claim" || !p.stance ? (p.targets?.length ? ` (on ${p.targets.join(", ")})` : "") : "";
    const category = p.category ? ` _${p.category}_` : "";
    lines.push(`- **${p.id}**${stance}${about}${category}: ${singleLine(p.claim)}`);
    if ((p.evidence ?? []).length === 0) lines.push("  - _unsupported_ (no evidence given)");
    for (const e of p.evidence ?? []) lines.push(evidenceLine(e));
  }
  if (turn.concessions?.length) {
    lines.push("", "## Concessions", "");
    for (const c of turn.concessions)
      lines.push(`- **${c.id}**${c.target ? ` (on ${c.target})` : ""}: ${singleLine(c.text)}`);
  }
  if (turn.withdrawals?.length) {
    lines.push("", "## Walk-backs", "");
    for (const w of turn.withdrawals) {
      lines.push(`- **walk-back of ${singleLine(w.concession)}**: ${singleLine(w.reason)}`);
      for (const e of w.evidence) lines.push(evidenceLine(e));
    }
  }
  return `\n${lines.join("\n")}\n`;
}

/** A summary as markdown (turns/rNN-summary.md's body). */
export function renderSummary(summary: CrossfireSummary): string {
  const lines = [
    `# Summary of rounds 1-${summary.covers} (read from round ${summary.round})`,
    "",
    escapeBlock(summary.summary),
    "",
    "## Positions",
    "",
    `- **proposer**: ${singleLine(summary.positions.proposer)}`,
    `- **challenger**: ${singleLine(summary.positions.challenger)}`,
    "",
    "## Concessions (verbatim)",
    "",
    ...(summary.concessions.length ? summary.concessions.map((c) => `- ${singleLine(c)}`) : ["(none)"]),
    "",
    "## Open disagreements",
    "",
    ...summary.open_disagreements.map((d) => `- ${singleLine(d)}`),
  ];
  return `\n${lines.join("\n")}\n`;
}

/** The verdict as markdown (verdict.md's body). */
export function renderVerdict(verdict: CrossfireVerdict): string {
  const degraded =
    verdict.outcome === "uncontested"
      ? [
          "",
          "> **Uncontested**: the challenger failed in round 1; this verdict rests on the proposer's opening alone.",
        ]
      : verdict.outcome === "partial"
        ? [
            "",
            `> **Partial**: a seat failed; this verdict rests on rounds 1-${verdict.rounds_considered} only.`,
          ]
        : [];
  const lines = [
    verdict.winner === "tie"
      ? "# Verdict: a tie (the judge panel is split)"
      : `# Verdict: the ${verdict.winner} wins`,
    ...degraded,
    "",
    "## Reasoning",
    "",
    escapeBlock(verdict.reasoning),
    "",
    `Cited: ${verdict.cited_points.join(", ")}`,
    "",
    "## Quality",
    "",
    `- genuine disagreement: ${verdict.ratings.genuine_disagreement}`,
    `- evidence quality: ${verdict.ratings.evidence_quality}`,
    `- challenge depth: ${verdict.ratings.challenge_depth}`,
    "",
    "## Agreements",
    "",
    ...(verdict.agreements.length
      ? verdict.agreements.map((a) => `- ${singleLine(a.text)} (${a.points.join(", ")})`)
      : ["(none)"]),
    "",
    "## Disagreements",
    "",
    ...(verdict.disagreements.length ? verdict.disagreements.map((d) => `- ${singleLine(d)}`) : ["(none)"]),
    "",
    "## Unresolved",
    "",
    ...(verdict.unresolved.length ? verdict.unresolved.map((d) => `- ${singleLine(d)}`) : ["(none)"]),
    "",
    "## Recommendation",
    "",
    escapeBlock(verdict.recommendation),
  ];
  return `\n${lines.join("\n")}\n`;
}
