// Writes replay.jsonl: the recorded answers of this example (run after a build: node make-replay.mjs).
// The debaters' answers are the first two exchanges of ../ai-review-gate; the three judges are
// written here. Each judge is blind: it sees the sides as "Debater A" / "Debater B" (its own random
// assignment, recorded in judges/x000N.md) and answers with the labelled ids it was shown (A_000a).
import { readFileSync, writeFileSync } from "node:fs";
import { labelsFor } from "../../packages/core/dist/index.js";

const DEBATE_ID = "judge-panel";
const debaters = readFileSync(new URL("../ai-review-gate/replay.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .filter((e) => e.exchange <= 1 && e.role !== "judge");

/** A judge's answer in its own labels: `scores` by real id, turned into the ids it saw. */
function blindAnswer(judge, scores, why) {
  const labels = labelsFor(DEBATE_ID, { judge }, ["proposition", "opposition"]);
  const blind = (id) => id.replace(/^prop_/, `${labels.proposition}_`).replace(/^opp_/, `${labels.opposition}_`);
  const side = (id) => `Debater ${id.startsWith("prop_") ? labels.proposition : labels.opposition}`;
  return JSON.stringify({
    scores: Object.entries(scores).map(([id, score]) => ({
      argument_id: blind(id),
      score,
      reasoning: `${side(id)}: ${why}`,
    })),
  });
}

const opening = (p, o) => ({
  prop_000a: p[0],
  prop_000b: p[1],
  prop_000c: p[2],
  opp_000a: o[0],
  opp_000b: o[1],
  opp_000c: o[2],
});
// judge and judge_2 keep their verdict in both orders; judge_3 favours whichever order it is given:
// the proposition when it reads it first, the opposition when the order is swapped (a flip).
const JUDGES = {
  0: {
    judge: opening([0.3, 0.2, 0.1], [-0.2, -0.2, -0.2]),
    judge_2: opening([0.4, 0.2, 0], [-0.2, -0.2, -0.2]),
    judge_3: opening([0.2, 0.2, 0.2], [-0.2, -0.2, -0.2]),
    judge_3_swapped: opening([-0.2, -0.2, -0.2], [0.2, 0.2, 0.2]),
  },
  1: {
    judge: { prop_001: 0.3, opp_001: -0.3 },
    judge_2: { prop_001: 0.1, opp_001: -0.1 },
    judge_3: { prop_001: 0.2, opp_001: -0.2 },
    judge_3_swapped: { prop_001: -0.2, opp_001: 0.2 },
  },
};

const lines = [];
for (const exchange of [0, 1]) {
  for (const e of debaters.filter((d) => d.exchange === exchange)) lines.push(e);
  const judges = JUDGES[exchange];
  for (const role of ["judge", "judge_swapped", "judge_2", "judge_2_swapped", "judge_3", "judge_3_swapped"]) {
    const judge = role.replace(/_swapped$/, "");
    const scores = judges[role] ?? judges[judge];
    lines.push({ exchange, role, text: blindAnswer(judge, scores, "weighed on evidence and engagement.") });
  }
}
writeFileSync(new URL("replay.jsonl", import.meta.url), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
