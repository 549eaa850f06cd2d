import {
  applyArguments,
  applyJudgment,
  argumentId,
  buildPrompt,
  cumulativeScores,
  type DebateState,
  extractJson,
  MAX_MODEL_OUTPUT_CHARS,
  nextAction,
  parseJudgeAnswer,
  renderArgument,
  renderArgumentGraph,
} from "@debatekit/core";
import type { ArgumentDraft, Judgment } from "@debatekit/schema";
import { percentile, report, timeRuns } from "./measure.js";

const NOW = "2026-11-21T12:00:00Z";

// A realistic argument: three grounds of a few hundred characters, like the dialectic fixture's.
function draft(n: string, exchange: number): ArgumentDraft {
  const ground = (i: number) => ({
    source: `Author ${i}, 'A study of ${n}', Journal of Things, 2025 (https://example.org/${n}/${i})`,
    content: `Finding ${i} about ${n}. `.repeat(20),
    relevance: `Shows why ${n} matters for the claim. `.repeat(3),
  });
  const other = n.startsWith("prop") ? "opp" : "prop";
  return {
    title: `Argument ${n} on the motion`,
    claim: `The claim of ${n}, stated in one sentence that is about this long.`,
    grounds: [ground(1), ground(2), ground(3)],
    warrant: `Because of the grounds, ${n} holds. `.repeat(8),
    backing: "A precedent that supports the warrant. ".repeat(4),
    qualifier: "In most cases covered by the scope",
    ...(exchange > 0
      ? {
          attacks: [
            {
              target_id: argumentId(other, exchange - 1, exchange === 1 ? 0 : undefined),
              attack_type: "warrant_attack",
              content: "It fails. ".repeat(20),
            },
          ],
          defends:
            exchange > 1
              ? [
                  {
                    target_id: argumentId(n.startsWith("prop") ? "prop" : "opp", exchange - 1),
                    defense_type: "reinforce",
                    content: "It holds. ".repeat(15),
                  },
                ]
              : [],
        }
      : {}),
  } as ArgumentDraft;
}

function must<T>(r: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

function side(s: "prop" | "opp", exchange: number) {
  return (exchange === 0 ? [0, 1, 2] : [undefined]).map((i) => {
    const id = argumentId(s, exchange, i);
    return renderArgument(draft(id, exchange), { id, side: s, exchange });
  });
}

function judgmentFor(state: DebateState, exchange: number): Judgment {
  const current = state.arguments.filter((a) => a.frontmatter.exchange === exchange);
  const judgment: Judgment = {
    scores: current.map((a) => ({
      argument_id: a.frontmatter.id,
      score: a.frontmatter.side === "prop" ? 0.1 : -0.1,
      reasoning: "Reasoned. ".repeat(10),
    })),
  };
  if (exchange > 1) {
    const old = state.scores[argumentId("opp", exchange - 1)]!.current_score;
    judgment.rescores = [
      {
        argument_id: argumentId("opp", exchange - 1),
        old_score: old,
        new_score: old - 0.01,
        reasoning: "Later.",
      },
    ];
  }
  return judgment;
}

/** A debate driven through the engine up to `exchanges`, stopped awaiting the judgment of the last one. */
function debateAt(exchanges: number): DebateState {
  let state: DebateState = {
    frontmatter: {
      debate_id: "bench",
      format: "formal",
      exchanges: exchanges + 1,
      current_exchange: 0,
      current_phase: "awaiting_arguments",
      seats: {
        proposition: { adapter: "replay" },
        opposition: { adapter: "replay" },
        judge: { adapter: "replay" },
      },
    },
    body: "# Motion\n\nThis house would benchmark.\n",
    motion: { text: "This house would benchmark." },
    arguments: [],
    scores: {},
  };
  for (let e = 0; e <= exchanges; e++) {
    state = must(applyArguments(state, e, { proposition: side("prop", e), opposition: side("opp", e) }));
    if (e < exchanges) state = must(applyJudgment(state, e, judgmentFor(state, e), NOW));
  }
  return state;
}

/** Engine cost on long debates: nextAction, parse + applyJudgment, the judge's prompt and the graph. */
export async function run(): Promise<void> {
  // A model answer of unclosed braces just under the output cap (a quadratic scan would take minutes).
  const hostile = "{".repeat(MAX_MODEL_OUTPUT_CHARS - 10);
  const [scan] = await timeRuns(() => extractJson(hostile), 1, 0);
  report("extractJson on hostile input (unclosed braces, cap - 10)", scan!, "ms");

  const build = performance.now();
  const big = debateAt(500);
  report("drive a debate to exchange 500 (1006 arguments)", performance.now() - build, "ms");

  const n = 100_000;
  const [na] = await timeRuns(() => {
    for (let i = 0; i < n; i++) nextAction(big);
  }, 1);
  report("nextAction at exchange 500", (na! / n) * 1000, "µs/call");

  // Each call on a new scores object, made as a judgment makes one (a copy with a changed record):
  // the sums are remembered per object, so calling it again on the same one measures nothing.
  const id = Object.keys(big.scores)[0]!;
  const fresh = Array.from({ length: 1000 }, (_, i) => ({
    ...big.scores,
    [id]: { ...big.scores[id]!, current_score: i / 1000 },
  }));
  const [cs] = await timeRuns(
    () => {
      for (const scores of fresh) cumulativeScores(scores);
    },
    1,
    0,
  );
  report(`cumulativeScores at exchange 500 (${Object.keys(big.scores).length} records)`, cs!, "µs/call");

  const judgment = judgmentFor(big, 500);
  const text = JSON.stringify(judgment);
  const apply = await timeRuns(
    () => must(applyJudgment(big, 500, must(parseJudgeAnswer(big, text)), NOW)),
    50,
  );
  report("parseJudgeAnswer + applyJudgment at exchange 500 (p50)", percentile(apply, 50), "ms");
  report("parseJudgeAnswer + applyJudgment at exchange 500 (p95)", percentile(apply, 95), "ms");

  for (const at of [100, 500]) {
    const state = at === 500 ? big : debateAt(at);
    // A new state object each call, as each step makes one: the history is assembled again (a state's
    // own is remembered), from the parts of it remembered across states.
    const times = await timeRuns(() => buildPrompt({ ...state }, "judge"), 30);
    const prompt = buildPrompt(state, "judge");
    report(`buildPrompt(judge) at exchange ${at} (p50)`, percentile(times, 50), "ms");
    report(`judge prompt size at exchange ${at}`, prompt.length / 1024, "KiB");
    report(`judge prompt size at exchange ${at} (~chars/4)`, prompt.length / 4, "tokens");
  }
  const rebuttal = await timeRuns(
    () => buildPrompt(must(applyJudgment(big, 500, judgment, NOW)), "proposition"),
    10,
  );
  report("applyJudgment + buildPrompt(rebuttal) at exchange 501 (p50)", percentile(rebuttal, 50), "ms");
  const graph = await timeRuns(() => renderArgumentGraph(big), 30);
  report("renderArgumentGraph at exchange 500 (p50)", percentile(graph, 50), "ms");
}
