import { buildReport, createReport, layoutGraph } from "@debatekit/report";
import { longFormalDebate } from "@debatekit/report/testing";
import { percentile, report, timeRuns } from "./measure.js";

// `debate report` on a long formal debate: the state in, report.md and report.html out (no fs).
const EXCHANGES = 500;

export async function run(): Promise<void> {
  const state = longFormalDebate(EXCHANGES);
  const whole = await timeRuns(() => createReport({ state }), 5, 1);
  report(`report of a ${EXCHANGES}-exchange debate (md + html), median`, percentile(whole, 50), "ms");
  report(`report of a ${EXCHANGES}-exchange debate (md + html), max`, Math.max(...whole), "ms");
  const built = buildReport({ state });
  const layout = await timeRuns(() => layoutGraph(built.body!.graph), 5, 1);
  report(
    `  of which the graph layout (${built.body!.graph.nodes.length} nodes), median`,
    percentile(layout, 50),
    "ms",
  );
}
