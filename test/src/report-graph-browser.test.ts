import { spawnSync } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { DebateState } from "@debatekit/core";
import { readDebateFolder, readJournal } from "@debatekit/files";
import { createReport } from "@debatekit/report";
import { longFormalDebate } from "@debatekit/report/testing";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium, watchPage } from "./browser.js";
import { repoRoot } from "./workspace.js";

// The pictures of report.html in a real headless Chromium: the argument graph (laid out by exchange
// from left to right, titles in the nodes, each node a link to its argument, a legend, collapsed by
// exchange when large) and the charts of every format's example (round ticks, whole numbers for
// counts, the full width, a legend clear of the data, every point visible). Screenshots go to
// test/.output/report/ (ignored by git).
const OUT = join(repoRoot, "test/.output/report");
const FIXTURE = join(repoRoot, "../shared/fixtures/dialectic/halt-ai-development");

const session = useChromium("report-graph-browser.test.ts", OUT);

async function reportOf(
  dir: string,
): Promise<{ file: string; state: DebateState; ranks: Map<string, number | undefined> }> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(read.errors[0]!.message);
  const { html, report } = createReport({
    state: read.value.state,
    journal: await readJournal(dir).catch(() => []),
  });
  const file = join(dir, "report.html");
  await writeFile(file, html);
  return {
    file,
    state: read.value.state,
    ranks: new Map(report.body!.graph.nodes.map((n) => [n.id, n.rank])),
  };
}

async function copied(name: string, source: string, run = false): Promise<string> {
  const dir = join(session.work, name);
  await cp(source, dir, { recursive: true });
  if (run) {
    const ran = spawnSync(process.execPath, [join(repoRoot, "apps/debate/dist/bin.js"), "run", dir], {
      env: { ...process.env, CI: "1" },
    });
    expect(ran.status, String(ran.stderr)).toBe(0);
  }
  return dir;
}

// The page's DOM is read through strings: the test package's types have no DOM.
const NODES = `[...document.querySelectorAll("#argument-graph g.node")].map((g) => {
  const box = g.querySelector("rect").getBBox();
  const link = g.closest("a");
  return {
    id: g.dataset.id,
    x: box.x + box.width / 2,
    texts: [...g.querySelectorAll("text")].map((t) => t.textContent),
    title: g.querySelector("title")?.textContent ?? "",
    href: link ? link.getAttribute("href") : null,
  };
})`;

interface NodeView {
  id: string;
  x: number;
  texts: string[];
  title: string;
  href: string | null;
}

/** The chart's y tick labels as numbers. */
async function ticksOf(page: Page, chart: string): Promise<number[]> {
  return (await page.evaluate(
    `[...document.querySelectorAll("${chart} text.tick-y")].map((t) => Number(t.textContent))`,
  )) as number[];
}

/** Round: evenly spaced by 1, 2 or 5 times a power of ten, each a whole number of steps. */
function isRound(ticks: number[]): boolean {
  if (ticks.length < 2) return false;
  const step = Math.abs(ticks[1]! - ticks[0]!);
  const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
  if (![1, 2, 5].some((k) => Math.abs(mantissa - k) < 1e-6)) return false;
  return ticks.every(
    (t, i) =>
      Math.abs(Math.abs(t - ticks[0]!) - i * step) < 1e-9 && Math.abs(t / step - Math.round(t / step)) < 1e-6,
  );
}

/**
 * A chart reads at a glance: round ticks (whole numbers when it counts), at least 90% of the text
 * column's width, a legend that covers no point, and every point visible (something of it on top).
 */
async function checkChart(page: Page, integer: boolean): Promise<number[]> {
  const ticks = await ticksOf(page, "#standing-chart");
  expect(isRound(ticks), ticks.join(", ")).toBe(true);
  if (integer) expect(ticks.every(Number.isInteger), ticks.join(", ")).toBe(true);
  const widths = (await page.evaluate(
    `[document.querySelector("#standing-chart").getBoundingClientRect().width, document.querySelector("main").clientWidth]`,
  )) as [number, number];
  expect(widths[0]).toBeGreaterThanOrEqual(0.9 * (widths[1] - 32));
  // elementFromPoint sees only what is on screen.
  await page.locator("#standing-chart").scrollIntoViewIfNeeded();
  const legend = (await page.evaluate(
    `[...document.querySelectorAll("#standing-chart .legend > *")].map((e) => e.getBoundingClientRect())`,
  )) as unknown[];
  expect(legend.length).toBeGreaterThan(0);
  const covered = await page.evaluate(`(() => {
    const boxes = [...document.querySelectorAll("#standing-chart .legend > *")].map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll("#standing-chart circle.point")].filter((c) => {
      const p = c.getBoundingClientRect();
      return boxes.some((b) => p.left < b.right && b.left < p.right && p.top < b.bottom && b.top < p.bottom);
    }).length;
  })()`);
  expect(covered).toBe(0);
  // Nor does a point sit on a tick label.
  const onLabels = await page.evaluate(`(() => {
    const boxes = [...document.querySelectorAll("#standing-chart text")].map((e) => e.getBoundingClientRect());
    return [...document.querySelectorAll("#standing-chart circle.point")].filter((c) => {
      const p = c.getBoundingClientRect();
      return boxes.some((b) => p.left < b.right && b.left < p.right && p.top < b.bottom && b.top < p.bottom);
    }).map((c) => c.querySelector("title").textContent);
  })()`);
  expect(onLabels).toEqual([]);
  const hidden =
    await page.evaluate(`[...document.querySelectorAll("#standing-chart circle.point")].filter((c) => {
    const b = c.getBoundingClientRect();
    const cx = b.left + b.width / 2, cy = b.top + b.height / 2, r = b.width / 2 - 1;
    return ![[cx, cy], [cx - r, cy], [cx + r, cy], [cx, cy - r], [cx, cy + r]].some(([x, y]) => {
      const top = document.elementFromPoint(x, y);
      return top === c || top?.parentElement === c;
    });
  }).map((c) => c.querySelector("title").textContent)`);
  expect(hidden).toEqual([]);
  return ticks;
}

async function open(file: string, width = 1280): Promise<{ page: Page; seen: ReturnType<typeof watchPage> }> {
  const page = await session.browser.newPage({ viewport: { width, height: 900 } });
  const seen = watchPage(page, file);
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return { page, seen };
}

async function finish(page: Page, seen: ReturnType<typeof watchPage>, axe = true): Promise<void> {
  if (axe) expect(await axeViolations(page)).toEqual([]);
  expect(seen.errors).toEqual([]);
  expect(seen.requests).toEqual([]);
  await page.close();
}

describe.skipIf(!CHROMIUM)("the report's graph and charts in headless Chromium", () => {
  it("the formal graph: columns by exchange from left to right, short titles, links to the arguments, a legend", async () => {
    const { file, state } = await reportOf(await copied("halt", FIXTURE));
    const { page, seen } = await open(file);
    const nodes = (await page.evaluate(NODES)) as NodeView[];
    expect(nodes).toHaveLength(state.arguments.length);
    const byId = new Map(state.arguments.map((a) => [a.frontmatter.id, a.frontmatter]));
    for (const n of nodes) {
      const fm = byId.get(n.id)!;
      // A short title in the node, whole or cut with an ellipsis; the full title and the claim on hover.
      const shown = n.texts.slice(1).join(" ");
      expect(shown.length, n.id).toBeGreaterThan(0);
      expect(
        shown.endsWith("…") ? fm.title.startsWith(shown.slice(0, -1).trimEnd()) : fm.title === shown,
        n.id,
      ).toBe(true);
      expect(n.title).toContain(fm.title);
      expect(n.title).toContain(fm.claim);
      // A click jumps to the argument in the transcript.
      expect(n.href, n.id).toMatch(/^#/);
      expect(await page.locator(`article.entry[id="${n.href!.slice(1)}"] h4`).textContent()).toContain(n.id);
    }
    // Every node of a later exchange stands to the right of every node of an earlier one.
    for (const a of nodes)
      for (const b of nodes)
        if (byId.get(a.id)!.exchange < byId.get(b.id)!.exchange)
          expect(a.x, `${a.id} < ${b.id}`).toBeLessThan(b.x);
    // Attacks and defenses look different, and a legend says which is which.
    const looks = (await page.evaluate(
      `[...new Set([...document.querySelectorAll("#argument-graph path.edge")].map((p) => p.dataset.kind + "|" + p.getAttribute("stroke") + "|" + (p.getAttribute("stroke-dasharray") ?? "")))]`,
    )) as string[];
    expect(looks.sort()).toEqual(["attack|#a34700|", "defense|#0d47a1|5 3"]);
    const legend = String(await page.locator(".graph-legend").textContent());
    expect(legend).toContain("attacks");
    expect(legend).toContain("defends");
    await page.locator("#argument-graph").screenshot({ path: join(OUT, "halt-ai-development-graph.png") });
    // The graph's section as a reader meets it: heading, what it shows, the legend, the graph.
    await page.locator("h2#graph").evaluate("(h) => h.scrollIntoView()");
    await page.screenshot({ path: join(OUT, "halt-ai-development-graph-section.png") });
    // Printed (an A4 page is about 700 px wide inside its margins), the graph shrinks to the page
    // instead of being cut at its edge.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.emulateMedia({ media: "print" });
    const printed = (await page.evaluate(
      `[document.querySelector("#argument-graph").getBoundingClientRect().width, document.querySelector("main").clientWidth]`,
    )) as [number, number];
    expect(printed[0]).toBeLessThanOrEqual(printed[1]);
    await page.emulateMedia({ media: "screen" });
    await page.setViewportSize({ width: 1280, height: 900 });
    // A click on a node lands on its argument.
    const first = nodes.find((n) => byId.get(n.id)!.exchange > 0)!;
    await page.locator(`#argument-graph a[href="${first.href}"]`).click();
    expect(await page.evaluate("location.hash")).toBe(first.href);
    await finish(page, seen);
  });

  it("a 500-exchange graph is drawn one box per exchange with counts, and a caption says so", async () => {
    const dir = join(session.work, "long");
    const { html } = createReport({ state: longFormalDebate(500) });
    const file = join(dir, "report.html");
    await cp(FIXTURE, dir, { recursive: true });
    await writeFile(file, html);
    const { page, seen } = await open(file);
    expect(await page.locator("#argument-graph g.node").count()).toBe(500);
    expect(await page.locator("#argument-graph g.node").nth(7).locator("text").allTextContents()).toEqual([
      "exchange 7",
      "1 + 1",
    ]);
    expect(await page.locator("#argument-graph path.edge").count()).toBe(499);
    expect(String(await page.locator("#graph + p").textContent())).toContain("one box per exchange");
    expect(await page.locator("#argument-graph g.node").nth(7).locator("..").getAttribute("href")).toBe(
      "#entry-prop_007",
    );
    await page.evaluate(
      `window.scrollTo(0, document.getElementById("graph").getBoundingClientRect().top + window.scrollY - 8)`,
    );
    await page.screenshot({ path: join(OUT, "long-graph-section.png") });
    // axe-core over a thousand arguments takes half a minute: the small graph above is checked.
    await finish(page, seen, false);
  });

  it("the charts of the formal, crossfire and review examples: round ticks, whole numbers for counts, full width, every point visible", async () => {
    const pages = [
      { name: "halt-ai-development", dir: await copied("halt-chart", FIXTURE), integer: false },
      {
        name: "crossfire-grpc",
        dir: await copied("crossfire", join(repoRoot, "examples/crossfire-grpc"), true),
        integer: true,
      },
      {
        name: "review-redis",
        dir: await copied("review", join(repoRoot, "examples/review-sum/redis"), true),
        integer: true,
      },
    ];
    for (const p of pages) {
      const { file, ranks } = await reportOf(p.dir);
      const { page, seen } = await open(file);
      await checkChart(page, p.integer);
      // Every format's graph reads from left to right: each node has its place in the debate's
      // order (an exchange, a turn, a round), and a later one stands to the right.
      expect([...ranks].filter(([, r]) => r === undefined).map(([id]) => id)).toEqual([]);
      const nodes = (await page.evaluate(NODES)) as NodeView[];
      for (const a of nodes)
        for (const b of nodes)
          if (ranks.get(a.id)! < ranks.get(b.id)!) expect(a.x, `${a.id} < ${b.id}`).toBeLessThan(b.x);
      await page.locator("#standing-chart").screenshot({ path: join(OUT, `${p.name}-chart-check.png`) });
      await page.locator("#argument-graph").screenshot({ path: join(OUT, `${p.name}-graph-check.png`) });
      await finish(page, seen);
    }
  });
});
