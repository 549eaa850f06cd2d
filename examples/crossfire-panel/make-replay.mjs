// Writes replay.jsonl: the recorded answers of this example (run after a build: node make-replay.mjs).
// The debaters' answers and the summary are ../crossfire-grpc's; the verdict panel is written here.
// Each judge is blind: it sees the sides as "Debater A" / "Debater B" (its own random assignment,
// recorded in judges/verdict.md) and answers with the labelled point ids it was shown (A1.1).
import { readFileSync, writeFileSync } from "node:fs";
import { blindCrossfireText, firstSide, labelsFor } from "../../packages/core/dist/index.js";

const DEBATE_ID = "crossfire-panel";
const SIDES = ["proposer", "challenger"];
const recorded = readFileSync(new URL("../crossfire-grpc/replay.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const debaters = recorded.filter((e) => e.role !== "judge");
const verdict = JSON.parse(recorded.find((e) => e.role === "judge").text);

/** One judge's verdict for `winner`, in the labels and words that judge saw. */
function blindVerdict(judge, winner) {
  const labels = labelsFor(DEBATE_ID, { judge }, SIDES);
  const text = JSON.stringify({
    ...verdict,
    reasoning:
      winner === verdict.winner
        ? verdict.reasoning
        : "The proposer's P1.2 (contract-drift incidents) and the pilot it proposes outweigh C1.1's gzip point.",
  });
  const blind = JSON.parse(blindCrossfireText(text, labels));
  return JSON.stringify({ ...blind, winner: `Debater ${labels[winner]}` }, null, 2);
}

// judge and judge_2 pick the challenger in both orders; judge_3 picks whichever side it reads first
// (the proposer in its own order, the challenger when the order is swapped): a flip, so a tie vote.
const entries = [...debaters];
for (const [index, judge] of ["judge", "judge_2", "judge_3"].entries()) {
  for (const swapped of [false, true]) {
    const role = swapped ? `${judge}_swapped` : judge;
    const first = firstSide({ index, swapped }, SIDES);
    const winner = judge === "judge_3" ? first : "challenger";
    entries.push({ exchange: 3, role, text: blindVerdict(judge, winner) });
  }
}
writeFileSync(
  new URL("./replay.jsonl", import.meta.url),
  `${entries.map((e) => JSON.stringify(e)).join("\n")}\n`,
);
