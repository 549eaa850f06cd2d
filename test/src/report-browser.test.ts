import { spawnSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readDebateFolder, readJournal } from "@debatekit/files";
import { createReport } from "@debatekit/report";
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium } from "./browser.js";
import { addReplayReporter } from "./reporter-seat.js";
import { repoRoot } from "./workspace.js";

// report.html in a real headless Chromium (Debian's, installed by scripts/install-chromium.mjs):
// no console error, no request, the chart's points and the graph's nodes, axe-core's checks, and
// screenshots at desktop and phone width in test/.output/report/ (ignored by git).
const OUT = join(repoRoot, "test/.output/report");
const FIXTURE = join(repoRoot, "../shared/fixtures/dialectic/halt-ai-development");

const session = useChromium("report-browser.test.ts", OUT);

async function writeReport(
  name: string,
  source: string,
): Promise<{ file: string; nodes: number; points: number }> {
  const dir = join(session.work, name);
  await cp(source, dir, { recursive: true });
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(read.errors[0]!.message);
  const { report, html } = createReport({
    state: read.value.state,
    journal: await readJournal(dir).catch(() => []),
  });
  const file = join(dir, "report.html");
  await writeFile(file, html);
  const b = report.body!;
  return {
    file,
    nodes: b.graph.nodes.length,
    points: b.chart.series.reduce((n, s) => n + s.points.length, 0),
  };
}

const VIEWPORTS = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/**
 * Loads a report.html at desktop and phone width and checks it: no console error, no request, the
 * chart's points, the graph's nodes and edges, nothing wider than the screen outside the scrolling
 * regions, no axe-core violation; screenshots go to test/.output/report/<name>-<width>.png.
 */
async function checkPage(
  name: string,
  file: string,
  expected: { points: number; nodes: number; edges: number; sections?: string[] },
): Promise<void> {
  for (const [label, viewport] of VIEWPORTS) {
    const page = await session.browser.newPage({ viewport });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => {
      if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    expect(await page.locator("#standing-chart circle.point").count()).toBe(expected.points);
    expect(await page.locator("#argument-graph g.node").count()).toBe(expected.nodes);
    expect(await page.locator("#argument-graph path.edge").count()).toBe(expected.edges);
    for (const id of expected.sections ?? []) expect(await page.locator(`h2#${id}`).count()).toBe(1);
    // Nothing wider than the phone's screen except inside the scrolling regions.
    // (a string: the test package's types have no DOM)
    const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUT, `${name}-${label}.png`), fullPage: true });
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  }
}

function runCli(args: string[]): void {
  const ran = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), ...args], {
    env: { ...process.env, CI: "1" },
  });
  expect(ran.status, String(ran.stderr)).toBe(0);
}

describe.skipIf(!CHROMIUM)("report.html in headless Chromium", () => {
  it("the dialectic fixture's page: no error, no request, 10 chart points, 14 nodes, 38 edges, no axe violation", async () => {
    const { file, nodes, points } = await writeReport("halt-ai-development", FIXTURE);
    expect([nodes, points]).toEqual([14, 10]);
    await checkPage("halt-ai-development", file, { points, nodes, edges: 38 });
  });

  it("the crossfire example's page, after a run: 6 chart points, 13 nodes, 9 edges", async () => {
    const dir = join(session.work, "crossfire-grpc");
    await cp(join(repoRoot, "examples/crossfire-grpc"), dir, { recursive: true });
    runCli(["run", dir]);
    const { file, nodes, points } = await writeReport("crossfire-copy", dir);
    expect([nodes, points]).toEqual([13, 6]);
    await checkPage("crossfire-grpc", file, { points, nodes, edges: 9 });
  });

  it("the review example's page, with a reporter seat's narrative: 9 chart points (3 severities x 3 rounds), 3 findings, 2 repeats", async () => {
    const dir = join(session.work, "redis");
    await cp(join(repoRoot, "examples/review-sum/redis"), dir, { recursive: true });
    runCli(["run", dir]);
    const paragraph =
      "Three rounds, one concern: the critic's [r01-f1] came back reworded as [r02-f1] and [r03-f1], and each time the judge found the trade-off already stated and accepted in the proposal. The last wording lost its quote and fell to P2. ";
    const text = Array.from({ length: 12 }, () => paragraph + paragraph).join("\n\n");
    await addReplayReporter(dir, [text.split(/ +/).slice(0, 500).join(" ")]);
    runCli(["report", dir]);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain(
      "*Written by the reporter seat (replay)",
    );
    await checkPage("review-redis", join(dir, "report.html"), {
      points: 9,
      nodes: 3,
      edges: 2,
      sections: ["findings", "decisions", "judges", "reliability", "usage", "narrative"],
    });
  });
});
