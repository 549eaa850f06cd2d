import { validateDebateFrontmatter, validateSideOutput } from "@debatekit/schema";
import { report, timeRuns } from "./measure.js";

const debate = {
  debate_id: "bench",
  exchanges: 5,
  current_exchange: 2,
  current_phase: "awaiting_arguments",
  seats: {
    proposition: { adapter: "claude" },
    opposition: { adapter: "gemini" },
    judge: { adapter: "codex" },
  },
  cumulative_scores: { proposition: { total: 0.4, count: 4 }, opposition: { total: -0.4, count: 4 } },
};
const argument = {
  title: "t",
  claim: "c",
  grounds: [{ source: "s", content: "c".repeat(400), relevance: "r" }],
  warrant: "w".repeat(300),
};
const side = { arguments: [argument, argument, argument] };

/** Validator throughput: the AOT-compiled validators on typical documents. */
export async function run(): Promise<void> {
  const n = 100_000;
  const [d] = await timeRuns(() => {
    for (let i = 0; i < n; i++) validateDebateFrontmatter(debate);
  }, 1);
  report("validate debate.md frontmatter", (n / d!) * 1000, "docs/s");
  const [s] = await timeRuns(() => {
    for (let i = 0; i < n; i++) validateSideOutput(side);
  }, 1);
  report("validate an opening answer (3 arguments)", (n / s!) * 1000, "docs/s");
}
