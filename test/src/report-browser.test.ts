import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readDebateFolder, readJournal } from "@debatekit/files";
import { createReport } from "@debatekit/report";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, requireChromium } from "./browser.js";
import { repoRoot } from "./workspace.js";

// report.html in a real headless Chromium (Debian's, installed by scripts/install-chromium.mjs):
// no console error, no request, the chart's points and the graph's nodes, axe-core's checks, and
// screenshots at desktop and phone width in test/.output/report/ (ignored by git).
const OUT = join(repoRoot, "test/.output/report");
const FIXTURE = join(repoRoot, "../shared/fixtures/dialectic/halt-ai-development");

requireChromium("report-browser.test.ts");

let work: string;
let browser: Browser;
beforeAll(async () => {
  if (!CHROMIUM) return;
  work = await mkdtemp(join(tmpdir(), "report-browser-"));
  await mkdir(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function writeReport(
  name: string,
  source: string,
): Promise<{ file: string; nodes: number; points: number }> {
  const dir = join(work, name);
  await cp(source, dir, { recursive: true });
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(read.errors[0]!.message);
  const { report, html } = createReport({
    state: read.value.state,
    journal: await readJournal(dir).catch(() => []),
  });
  const file = join(dir, "report.html");
  await import("node:fs/promises").then((fs) => fs.writeFile(file, html));
  const b = report.body!;
  return {
    file,
    nodes: b.graph.nodes.length,
    points: b.chart.series.reduce((n, s) => n + s.points.length, 0),
  };
}

describe.skipIf(!CHROMIUM)("report.html in headless Chromium", () => {
  it("the dialectic fixture's page: no error, no request, 10 chart points, 14 nodes, no axe violation", async () => {
    const { file, nodes, points } = await writeReport("halt-ai-development", FIXTURE);
    expect([nodes, points]).toEqual([14, 10]);
    for (const [label, viewport] of [
      ["desktop", { width: 1280, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      const page = await browser.newPage({ viewport });
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
      expect(await page.locator("#standing-chart circle.point").count()).toBe(points);
      expect(await page.locator("#argument-graph g.node").count()).toBe(nodes);
      expect(await page.locator("#argument-graph path.edge").count()).toBe(38);
      // Nothing wider than the phone's screen except inside the scrolling regions.
      // (a string: the test package's types have no DOM)
      const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
      expect(overflow).toBeLessThanOrEqual(0);
      const violations = await axeViolations(page);
      expect(violations).toEqual([]);
      await page.screenshot({ path: join(OUT, `halt-ai-development-${label}.png`), fullPage: true });
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    }
  });

  it("the crossfire example's page, after a run, has 6 chart points and 13 nodes", async () => {
    const { spawnSync } = await import("node:child_process");
    const dir = join(work, "crossfire-grpc");
    await cp(join(repoRoot, "examples/crossfire-grpc"), dir, { recursive: true });
    const ran = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), "run", dir], {
      env: { ...process.env, CI: "1" },
    });
    expect(ran.status).toBe(0);
    await rm(join(work, "crossfire-copy"), { recursive: true, force: true });
    const { file, nodes, points } = await writeReport("crossfire-copy", dir);
    expect([nodes, points]).toEqual([13, 6]);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator("#standing-chart circle.point").count()).toBe(6);
    expect(await page.locator("#argument-graph g.node").count()).toBe(13);
    await page.screenshot({ path: join(OUT, "crossfire-grpc-phone.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
