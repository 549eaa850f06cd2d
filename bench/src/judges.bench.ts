import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { runDebate } from "@debatekit/runner";
import { report } from "./measure.js";

// examples/judge-panel: a formal debate judged by 3 replay judges, each recorded in both orders;
// examples/crossfire-panel: a crossfire debate whose verdict 3 replay judges give, likewise.
const EXAMPLES = {
  formal: new URL("../../examples/judge-panel/", import.meta.url).pathname,
  crossfire: new URL("../../examples/crossfire-panel/", import.meta.url).pathname,
};
type Kind = keyof typeof EXAMPLES;
const JUDGE_DELAY_MS = 1000;
const RUNS = 3;

interface Entry {
  exchange: number;
  role: string;
  text: string;
  delay_ms?: number;
}

/** A copy of the example judged by the first `judges` judges (in both orders with `swap`), each answer taking 1 s. */
async function prepare(parent: string, kind: Kind, judges: number, swap: boolean): Promise<string> {
  const dir = join(parent, `${kind}-j${judges}${swap ? "-swap" : ""}`);
  await cp(EXAMPLES[kind], dir, { recursive: true });
  const panel = Array.from({ length: judges }, () => "    - { adapter: replay, file: replay.jsonl }").join(
    "\n",
  );
  const debate = (await readFile(join(dir, "debate.md"), "utf8")).replace(
    /^judges:\n(?: {2}.*\n)+/m,
    `judges:\n  panel:\n${panel}\n${swap ? "  swap: true\n" : ""}`,
  );
  await writeFile(join(dir, "debate.md"), debate);
  const entries: Entry[] = (await readFile(join(dir, "replay.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const delayed = entries.map((e) => (e.role.startsWith("judge") ? { ...e, delay_ms: JUDGE_DELAY_MS } : e));
  await writeFile(join(dir, "replay.jsonl"), `${delayed.map((e) => JSON.stringify(e)).join("\n")}\n`);
  return dir;
}

/**
 * Wall time of the judged step: formal, the opening's judgment (from the arguments' commit to the
 * judgment's); crossfire, the verdict (from the last turn's commit to the verdict's).
 */
async function judgmentTime(dir: string, kind: Kind): Promise<number> {
  let argued = 0;
  let judged = 0;
  const waits = kind === "formal" ? "awaiting_judgment" : "awaiting_verdict";
  const summary = await runDebate(dir, {
    ...(kind === "formal" ? { exchanges: 1 } : {}),
    onEvent: (e) => {
      if (e.type !== "step_committed") return;
      if (e.phase === waits) argued = performance.now();
      else if (argued > 0 && judged === 0) judged = performance.now();
    },
  });
  if (summary.status !== "done") throw new Error(`run stopped: ${JSON.stringify(summary)}`);
  return judged - argued;
}

/** A judge panel's wall time next to one judge's: judges are asked in parallel (docs/architecture.md#judges). */
export async function run(): Promise<void> {
  const parent = await mkdtemp(join(tmpdir(), "bench-judges-"));
  try {
    const rows: Array<[string, number, boolean]> = [
      ["1 judge", 1, false],
      ["3-judge panel", 3, false],
      ["1 judge asked in both orders (2 calls)", 1, true],
      ["3-judge panel, both orders (6 calls)", 3, true],
    ];
    for (const kind of ["formal", "crossfire"] as const) {
      let single = 0;
      for (const [name, judges, swap] of rows) {
        // The median of three runs: one run on a loaded machine can be off by half a second.
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++)
          times.push(await judgmentTime(await prepare(join(parent, String(i)), kind, judges, swap), kind));
        const ms = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
        if (judges === 1 && !swap) single = ms;
        report(
          `${kind === "formal" ? "judgment" : "crossfire verdict"} step, ${name} of 1 s each`,
          ms / 1000,
          "s",
        );
        if (single > 0 && !(judges === 1 && !swap))
          report("  overhead over 1 judge (median of 3)", ms - single, "ms");
      }
    }
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}
