import { spawnSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { DebateState } from "@debatekit/core";
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

/** Every piece of text a debate's folder holds that its report must show in full, read from the state (not the report). */
function debateTexts(state: DebateState): string[] {
  const texts: string[] = [];
  // An argument's Toulmin body, line by line (headings, quote marks and `**Label:**` are the report's own layout).
  for (const a of state.arguments)
    for (const line of a.body.split("\n"))
      if (!/^\s*#/.test(line)) texts.push(line.replace(/^\s*>\s?/, "").replace(/^\*\*([^*]+?):\*\*/, "$1:"));
  for (const r of state.records ?? []) {
    const f = r.frontmatter as {
      position?: string;
      points?: Array<{ claim: string; evidence?: Array<{ detail: string }> }>;
      findings?: Array<{ title: string; detail: string; suggestion?: string; evidence?: { quote?: string } }>;
    };
    if (f.position) texts.push(f.position);
    for (const p of f.points ?? []) texts.push(p.claim, ...(p.evidence ?? []).map((e) => e.detail));
    for (const x of f.findings ?? [])
      texts.push(x.title, x.detail, x.suggestion ?? "", x.evidence?.quote ?? "");
  }
  return texts.map((t) => t.replace(/\s+/g, " ").trim()).filter((t) => t.length > 0);
}

async function writeReport(
  name: string,
  source: string,
): Promise<{ file: string; nodes: number; points: number; texts: string[]; attacks: number }> {
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
    texts: debateTexts(read.value.state),
    attacks: b.graph.edges.filter((e) => e.kind === "attack").length,
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
  expected: {
    points: number;
    nodes: number;
    edges: number;
    sections?: string[];
    /** Text of the debate that must be in the page in full. */
    texts: string[];
    /** How many attack links the transcript holds (each must land on an element). */
    attacks: number;
  },
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
    const text = String(await page.evaluate("document.body.innerText")).replace(/\s+/g, " ");
    expect(expected.texts.filter((t) => !text.includes(t))).toEqual([]);
    expect(await page.locator("main a.link-attack").count()).toBe(expected.attacks);
    // Every in-page link lands on an element.
    const dangling = await page.evaluate(
      `[...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute("href")).filter((h) => !document.getElementById(decodeURIComponent(h.slice(1))))`,
    );
    expect(dangling).toEqual([]);
    // Chart ticks are round numbers: one significant step (1, 2 or 5 times a power of ten).
    const ticks = (await page.evaluate(
      `[...document.querySelectorAll("#standing-chart text.tick-y")].map((t) => Number(t.textContent))`,
    )) as number[];
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    const step = Math.abs(ticks[1]! - ticks[0]!);
    expect(step / 10 ** Math.floor(Math.log10(step) + 1e-9)).toSatisfy((m: number) =>
      [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6),
    );
    // Nothing wider than the phone's screen except inside the scrolling regions.
    // (a string: the test package's types have no DOM)
    const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUT, `${name}-${label}.png`), fullPage: true });
    // The first screen a reader sees, and the first argument of the transcript.
    await page.screenshot({ path: join(OUT, `${name}-${label}-top.png`) });
    await page.locator("main article.entry").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, `${name}-${label}-transcript.png`) });
    if (label === "desktop") {
      await page.locator("#standing-chart").screenshot({ path: join(OUT, `${name}-chart.png`) });
      await page.pdf({ path: join(OUT, `${name}-print.pdf`) });
    }
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
    const { file, nodes, points, texts, attacks } = await writeReport("halt-ai-development", FIXTURE);
    expect([nodes, points]).toEqual([14, 10]);
    await checkPage("halt-ai-development", file, { points, nodes, edges: 38, texts, attacks });
  });

  it("the crossfire example's page, after a run: 6 chart points, 13 nodes, 9 edges", async () => {
    const dir = join(session.work, "crossfire-grpc");
    await cp(join(repoRoot, "examples/crossfire-grpc"), dir, { recursive: true });
    runCli(["run", dir]);
    const { file, nodes, points, texts, attacks } = await writeReport("crossfire-copy", dir);
    expect([nodes, points]).toEqual([13, 6]);
    await checkPage("crossfire-grpc", file, { points, nodes, edges: 9, texts, attacks });
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
    const { texts, attacks } = await writeReport("redis-copy", dir);
    expect(await readFile(join(dir, "report.md"), "utf8")).toContain(
      "*Written by the reporter seat (replay)",
    );
    await checkPage("review-redis", join(dir, "report.html"), {
      points: 9,
      nodes: 3,
      edges: 2,
      sections: ["transcript", "findings", "decisions", "reliability", "usage", "narrative"],
      texts,
      attacks,
    });
  });
});
