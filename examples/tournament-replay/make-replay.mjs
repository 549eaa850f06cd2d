// Writes recordings/<match id>.jsonl: one crossfire round and a verdict per match of this example
// (3 replay players x 2 motions x both sides = 12 debates), and panel-recordings/<match id>.jsonl:
// the same debates judged by a blind panel of three asked in both orders (--judges
// replay:j1,replay:j2,replay:j3 --swap). Run after a build: node make-replay.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { blindCrossfireText, firstSide, labelsFor } from "../../packages/core/dist/index.js";

const players = ["alice", "bob", "carol"];
// Who the recorded judge gives the win: the stronger player, except two upsets so no one is perfect.
const strength = { alice: 3, bob: 2, carol: 1 };
const upsets = new Set(["m02-replay-carol-vs-replay-bob", "m01-replay-bob-vs-replay-alice"]);
const ev = (kind, ref, detail) => ({ kind, ref, detail });

const turn = (who, motion) => ({
  proposer: {
    position: `${who} argues for: ${motion}`,
    points: [
      {
        claim: `${who}: the change removes a class of defects we measured last quarter.`,
        category: "correctness",
        evidence: [ev("data", "incidents/2026-Q3.csv", "3 incidents in the affected area, 11 engineer-hours")],
      },
      { claim: `${who}: teams asked for it in the last survey.`, category: "developer_experience", unsupported: true },
    ],
  },
  challenger: {
    position: `${who} argues against: ${motion}`,
    points: [
      {
        claim: `${who}: the defects cited had other causes.`,
        stance: "flaw",
        targets: ["P1.1"],
        category: "correctness",
        evidence: [ev("doc", "postmortems/q3.md", "two of three incidents were configuration errors")],
      },
      {
        claim: `${who}: the change widens who can touch sensitive paths.`,
        stance: "flaw",
        targets: ["P1.2"],
        category: "security",
        evidence: [ev("file", "CODEOWNERS", "payments/ has a single owner group today")],
      },
      {
        claim: `${who}: every team must learn a new workflow.`,
        category: "developer_experience",
        evidence: [ev("doc", "docs/onboarding.md", "onboarding covers today's workflow only")],
      },
    ],
  },
});

const verdict = (winner) => ({
  winner,
  reasoning:
    winner === "proposer"
      ? "P1.1's incident data stands: C1.1 explains only part of it, and C1.2 names a risk without showing it happened."
      : "C1.1 shows that the incidents behind P1.1 had other causes, and P1.2 rests on no evidence.",
  cited_points: ["P1.1", "P1.2", "C1.1", "C1.2"],
  ratings: { genuine_disagreement: "medium", evidence_quality: "medium", challenge_depth: "medium" },
  agreements: [{ text: "The incidents of last quarter are real.", points: ["P1.1", "C1.1"] }],
  disagreements: ["Whether the change would have prevented them."],
  unresolved: ["The cost of the new workflow was not measured."],
  recommendation: "Measure the incident causes before deciding.",
});

const motions = [
  "Should we move our internal service-to-service API from REST/JSON to gRPC?",
  "Should every pull request that touches payments get a second human review?",
];
/** A panel judge's verdict for `winner`, blind: in the labels that judge saw (its own coin per debate). */
function blindVerdict(debateId, judge, winner) {
  const labels = labelsFor(debateId, { judge }, ["proposer", "challenger"]);
  const blind = JSON.parse(blindCrossfireText(JSON.stringify(verdict(winner)), labels));
  return JSON.stringify({ ...blind, winner: `Debater ${labels[winner]}` });
}

// The panel: judge (j1) rules as the single recorded judge (upsets included) in both orders;
// judge_2 (j2) always picks the stronger player; judge_3 (j3) picks the side it reads first on
// m01 (it flips with the order: a tie vote) and the proposer on m02.
function panelLines(id, motionIndex, stronger, winner) {
  const lines = [];
  for (const [index, judge] of ["judge", "judge_2", "judge_3"].entries()) {
    for (const swapped of [false, true]) {
      const pick =
        judge === "judge"
          ? winner
          : judge === "judge_2"
            ? stronger
            : motionIndex === 0
              ? firstSide({ index, swapped }, ["proposer", "challenger"])
              : "proposer";
      const role = swapped ? `${judge}_swapped` : judge;
      lines.push({ exchange: 1, role, model: `j${index + 1}`, text: blindVerdict(id, judge, pick) });
    }
  }
  return lines;
}

mkdirSync(new URL("recordings/", import.meta.url), { recursive: true });
mkdirSync(new URL("panel-recordings/", import.meta.url), { recursive: true });
let count = 0;
motions.forEach((motion, m) => {
  for (let i = 0; i < players.length; i++) {
    for (let j = i + 1; j < players.length; j++) {
      for (const [first, second] of [
        [players[i], players[j]],
        [players[j], players[i]],
      ]) {
        const id = `m0${m + 1}-replay-${first}-vs-replay-${second}`;
        const stronger = strength[first] > strength[second] ? "proposer" : "challenger";
        const winner = upsets.has(id) ? (stronger === "proposer" ? "challenger" : "proposer") : stronger;
        const lines = [
          { exchange: 1, role: "proposer", model: first, text: JSON.stringify(turn(first, motion).proposer) },
          { exchange: 1, role: "challenger", model: second, text: JSON.stringify(turn(second, motion).challenger) },
          { exchange: 1, role: "judge", model: "judge", text: JSON.stringify(verdict(winner)) },
        ];
        writeFileSync(new URL(`recordings/${id}.jsonl`, import.meta.url), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
        const panel = [...lines.slice(0, 2), ...panelLines(id, m, stronger, winner)];
        writeFileSync(
          new URL(`panel-recordings/${id}.jsonl`, import.meta.url),
          panel.map((l) => `${JSON.stringify(l)}\n`).join(""),
        );
        count++;
      }
    }
  }
});
console.log(`wrote ${count} recordings`);
