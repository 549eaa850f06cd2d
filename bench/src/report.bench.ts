import { buildReport, checkNarrative, createReport, layoutGraph, narrativePrompt } from "@debatekit/report";
import { longFormalDebate } from "@debatekit/report/testing";
import { percentile, report, timeRuns } from "./measure.js";

// `debate report` on a long formal debate: the state in, report.md and report.html out (no fs).
const EXCHANGES = 500;

export async function run(): Promise<void> {
  const state = longFormalDebate(EXCHANGES);
  const whole = await timeRuns(() => createReport({ state }), 5, 1);
  report(`report of a ${EXCHANGES}-exchange debate (md + html), median`, percentile(whole, 50), "ms");
  report(`report of a ${EXCHANGES}-exchange debate (md + html), max`, Math.max(...whole), "ms");
  // CPU time (user + system) does not count the time spent waiting for a core: the steadier figure on a shared machine.
  const cpu: number[] = [];
  await timeRuns(
    () => {
      const before = process.cpuUsage();
      createReport({ state });
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    },
    5,
    0,
  );
  report(`report of a ${EXCHANGES}-exchange debate, CPU time, median`, percentile(cpu, 50), "ms");
  const built = buildReport({ state });
  const layout = await timeRuns(() => layoutGraph(built.body!.graph), 5, 1);
  report(
    `  of which the graph layout (${built.body!.graph.nodes.length} nodes), median`,
    percentile(layout, 50),
    "ms",
  );
  // `debate report` with a reporter seat builds the facts, the prompt and the check once more.
  const answer = Array.from({ length: 450 }, (_, i) => (i % 40 === 0 ? "[prop_499]" : "word")).join(" ");
  const narrative = await timeRuns(
    () => {
      const facts = buildReport({ state });
      narrativePrompt(facts);
      checkNarrative(answer, facts);
    },
    5,
    1,
  );
  report(
    `reporter seat's prompt and check (${EXCHANGES} exchanges), median`,
    percentile(narrative, 50),
    "ms",
  );
}
