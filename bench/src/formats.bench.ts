import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { runDebate } from "@debatekit/runner";
import { percentile, report } from "./measure.js";

// The engine's overhead per unit of debate, for each format, with instant replay seats: what a
// step costs besides the model (prompt building, rules, journal writes, commit, fsyncs).
const formalExample = new URL("../../examples/ai-review-gate/", import.meta.url).pathname;
const crossfireExample = new URL("../../examples/crossfire-grpc/", import.meta.url).pathname;
const ROUNDS = 5;
const REPEATS = 5;

interface Entry {
  exchange: number;
  role: string;
  attempt?: number;
  text: string;
}

const ev = (ref: string) => ({ kind: "benchmark", ref, detail: `what ${ref} shows` });

/** The example's rounds 1-2, then generated rounds 3..5 with their summaries, then its verdict. */
async function crossfireRecording(): Promise<string> {
  const recorded: Entry[] = (await readFile(join(crossfireExample, "replay.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const lines = recorded.filter((e) => e.exchange <= 2);
  const summary = JSON.parse(recorded.find((e) => e.role === "summarizer")!.text);
  summary.concessions = [
    "Protobuf decoding is faster than JSON parsing for the orders payload.",
    "Browser clients cannot call gRPC directly without a grpc-web proxy.",
  ];
  for (let r = 3; r <= ROUNDS; r++) {
    lines.push({ exchange: r, role: "summarizer", text: JSON.stringify(summary) });
    const proposer = {
      position: `Round ${r}: the pilot still stands.`,
      points: [
        {
          claim: "A generated defense.",
          targets: [`C${r - 1}.1`],
          category: "cost",
          evidence: [ev(`bench/p${r}.md`)],
        },
      ],
    };
    const challenger = {
      position: `Round ${r}: the exit criteria still need work.`,
      points: [
        {
          claim: "A generated flaw.",
          stance: "flaw",
          targets: [`P${r}.1`],
          category: "correctness",
          evidence: [ev(`bench/c${r}.md`)],
        },
      ],
    };
    lines.push({ exchange: r, role: "proposer", text: JSON.stringify(proposer) });
    lines.push({ exchange: r, role: "challenger", text: JSON.stringify(challenger) });
  }
  const verdict = recorded.find((e) => e.role === "judge")!;
  lines.push({ ...verdict, exchange: ROUNDS });
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

async function prepare(
  parent: string,
  name: string,
  example: string,
  edit: (debate: string) => string,
  replay?: string,
) {
  const dir = join(parent, name);
  await cp(example, dir, { recursive: true });
  await writeFile(join(dir, "debate.md"), edit(await readFile(join(dir, "debate.md"), "utf8")));
  if (replay) await writeFile(join(dir, "replay.jsonl"), replay);
  return dir;
}

/** Wall time from the start of a run until `until` says the last unit is committed, and the steps committed. */
async function timeRun(
  dir: string,
  until: (phase: string) => boolean,
): Promise<{ ms: number; steps: number }> {
  const start = performance.now();
  let end = 0;
  const summary = await runDebate(dir, {
    skillRoots: [],
    onEvent: (e) => {
      if (e.type === "step_committed" && until(e.phase)) end = performance.now();
    },
  });
  if (summary.status !== "done" || end === 0) throw new Error(`run stopped: ${JSON.stringify(summary)}`);
  return { ms: end - start, steps: summary.committed };
}

/** Formal's per-exchange overhead next to crossfire's per-round overhead (median of 5 runs each). */
export async function run(): Promise<void> {
  const parent = await mkdtemp(join(tmpdir(), "bench-formats-"));
  try {
    const replay = await crossfireRecording();
    const formal: number[] = [];
    const crossfire: number[] = [];
    let formalSteps = 0;
    let crossfireSteps = 0;
    for (let i = 0; i < REPEATS; i++) {
      // formal: the example's recorded 5 exchanges (both debaters in parallel, then the judge).
      const f = await prepare(parent, `formal-${i}`, formalExample, (t) => t);
      const fr = await timeRun(f, (phase) => phase === "awaiting_arguments");
      formal.push(fr.ms / 5);
      formalSteps = fr.steps;
      // crossfire: 5 rounds (proposer, then challenger; a summary before rounds 3-5); the verdict not counted.
      const c = await prepare(
        parent,
        `crossfire-${i}`,
        crossfireExample,
        (t) => t.replace(/^rounds: \d+$/m, `rounds: ${ROUNDS}`),
        replay,
      );
      const cr = await timeRun(c, (phase) => phase === "awaiting_verdict");
      crossfire.push(cr.ms / ROUNDS);
      crossfireSteps = cr.steps;
    }
    report("formal: per exchange (2 steps: arguments, judgment), p50", percentile(formal, 50), "ms");
    report(
      "crossfire: per round (2-3 steps: [summary,] proposer, challenger), p50",
      percentile(crossfire, 50),
      "ms",
    );
    report("formal: steps committed in 5 exchanges", formalSteps, "steps");
    report(`crossfire: steps committed in ${ROUNDS} rounds + verdict`, crossfireSteps, "steps");
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}
