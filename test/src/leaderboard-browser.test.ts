import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  createTournament,
  parseEntrants,
  parseMotions,
  runTournament,
  writeTournamentReport,
} from "@debatekit/tournament";
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium } from "./browser.js";
import { repoRoot } from "./workspace.js";

// leaderboard.html of the offline example tournament (one debate broken on purpose, so the failed
// list shows) in a real headless Chromium: no error, no request, the chart's rows and intervals,
// the head-to-head matrix, the failed debate before the ratings, links that lead to files that
// exist, axe-core's checks, screenshots in test/.output/leaderboard/ (ignored by git).
const OUT = join(repoRoot, "test/.output/leaderboard");
const example = join(repoRoot, "examples/tournament-replay");
const bin = join(repoRoot, "apps/debate/dist/bin.js");

const session = useChromium("leaderboard-browser.test.ts", OUT);

describe.skipIf(!CHROMIUM)("leaderboard.html in headless Chromium", () => {
  it("the example tournament's page: chart, matrix, failed first, working links, no axe violation", async () => {
    const dir = join(session.work, "t");
    await createTournament(dir, {
      motions: parseMotions(await readFile(join(example, "motions.jsonl"), "utf8"), "motions.jsonl"),
      players: parseEntrants("replay:alice,replay:bob,replay:carol", "--seats"),
      judges: parseEntrants("replay", "--judges"),
      format: "crossfire",
      length: 1,
      replayDir: join(example, "recordings"),
      now: "2026-11-24T04:00:00.000Z",
    });
    // The judge's answer is missing from one recording: that debate fails, the others go on.
    const broken = join(dir, "debates/m02-replay-bob-vs-replay-carol/replay.jsonl");
    const kept = (await readFile(broken, "utf8"))
      .split("\n")
      .filter((l) => l && !l.includes('"role":"judge"'));
    await writeFile(broken, `${kept.join("\n")}\n`);
    expect(await runTournament(dir, { env: { ...process.env, CI: "1" } })).toMatchObject({
      done: 11,
      failed: 1,
    });
    const { leaderboard } = await writeTournamentReport(dir);
    const file = join(dir, "leaderboard.html");
    // The head-to-head points worked out again from the debates' winners: a win 1, a tie 1/2.
    const expected = new Map<string, { score: number; games: number }>();
    for (const d of leaderboard.debates) {
      if (d.status !== "done" || !d.winner) continue;
      for (const [me, other] of [
        [d.first, d.second],
        [d.second, d.first],
      ] as const) {
        const cell = expected.get(`${me} ${other}`) ?? { score: 0, games: 0 };
        cell.games += 1;
        cell.score += d.winner === me ? 1 : d.winner === "tie" ? 0.5 : 0;
        expected.set(`${me} ${other}`, cell);
      }
    }
    for (const [label, viewport] of [
      ["desktop", { width: 1280, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
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
      expect(await page.locator("svg.chart g.player").count()).toBe(3);
      expect(await page.locator("svg.chart g.player line").count()).toBe(3);
      expect(await page.locator("svg.chart g.player").first().textContent()).toContain("replay:alice");
      // The failed debate is listed before the ratings.
      const order = await page.evaluate(
        "[document.querySelector('#failed')?.compareDocumentPosition(document.querySelector('svg.chart'))]",
      );
      expect(order).toEqual([4]); // DOCUMENT_POSITION_FOLLOWING: the chart comes after the alert
      expect(await page.locator("#failed li").textContent()).toContain("m02-replay-bob-vs-replay-carol");
      // Head to head: a heat map, one row per player, each cell the row's points against the column
      // in numbers (the colour only repeats them), matching the debates' winners.
      const matrix = page.locator("[aria-label='Head to head'] table");
      expect(await matrix.locator("tbody tr").count()).toBe(3);
      expect(await matrix.locator("tbody tr").first().locator("th, td").allTextContents()).toEqual([
        "replay:alice",
        "-",
        "3/4",
        "4/4",
      ]);
      const cells = (await page.evaluate(
        `[...document.querySelectorAll("[aria-label='Head to head'] td[data-row]")].map((td) => [td.dataset.row, td.dataset.column, td.textContent, getComputedStyle(td).backgroundColor])`,
      )) as Array<[string, string, string, string]>;
      expect(cells).toHaveLength(6);
      for (const [row, column, text] of cells) {
        const e = expected.get(`${row} ${column}`) ?? { score: 0, games: 0 };
        expect(text, `${row} against ${column}`).toBe(`${e.score}/${e.games}`);
      }
      // Colour follows the share: the row that won every game is not shaded like the one that lost every game.
      const shade = (text: string) => cells.find((c) => c[2] === text)?.[3];
      expect(shade("4/4")).not.toBe(shade("0/4"));
      // The interval axis: round ticks (1, 2 or 5 times a power of ten apart), at least three.
      const ticks = (await page.evaluate(
        `[...document.querySelectorAll("svg.chart text.tick-x")].map((t) => Number(t.textContent))`,
      )) as number[];
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      const step = ticks[1]! - ticks[0]!;
      expect(step / 10 ** Math.floor(Math.log10(step) + 1e-9)).toSatisfy((m: number) =>
        [1, 2, 5].some((k) => Math.abs(m - k) < 1e-6),
      );
      expect(ticks.every((t, i) => t === ticks[0]! + i * step && t % step === 0)).toBe(true);
      // Every table is explained in one line, tied to it for screen readers.
      const notes = (await page.evaluate(
        `[...document.querySelectorAll("table")].map((t) => document.getElementById(t.closest("[aria-describedby]")?.getAttribute("aria-describedby") ?? "")?.textContent ?? "")`,
      )) as string[];
      expect(notes.length).toBeGreaterThanOrEqual(6);
      expect(notes.filter((n) => n.trim().length < 20)).toEqual([]);
      expect(notes.join(" ")).toContain("(correct)");
      // Every link leads to a file that exists.
      const links = (await page
        .locator("a")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")))) as string[];
      expect(links.length).toBe(13);
      for (const href of links) expect(existsSync(join(dir, decodeURIComponent(href))), href).toBe(true);
      const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
      expect(overflow).toBeLessThanOrEqual(0);
      const violations = await axeViolations(page);
      expect(violations).toEqual([]);
      await page.screenshot({ path: join(OUT, `example-${label}.png`), fullPage: true });
      await page.screenshot({ path: join(OUT, `example-${label}-top.png`) });
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    }
  });

  it("a judge-panel tournament through the built binary: agreement, pairs and flips in the page", async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [bin, ...args], {
        cwd: session.work,
        env: { ...process.env, NO_COLOR: "1", CI: "1" },
      });
    // examples/tournament-replay/panel-recordings: j1 rules as the single judge, j2 always picks
    // the stronger player, j3 flips with the order on m01 and picks the proposer on m02.
    await run([
      "tournament",
      "new",
      "p",
      "--motions",
      join(example, "motions.jsonl"),
      "--seats",
      "replay:alice,replay:bob,replay:carol",
      "--judges",
      "replay:j1,replay:j2,replay:j3",
      "--swap",
      "--format",
      "crossfire",
      "--rounds",
      "1",
      "--replay",
      join(example, "panel-recordings"),
    ]);
    await run(["tournament", "run", "p"]);
    const { stdout } = await run(["tournament", "report", "p", "--json"]);
    const panel = JSON.parse(stdout).leaderboard.panel;
    expect(panel).toMatchObject({ steps: 12, debates: 12, swap: true, flips: { agree: 6, n: 36 } });
    const file = join(session.work, "p", "leaderboard.html");
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    const rows = (label: string) =>
      page
        .locator(`[aria-label='${label}'] tbody tr`)
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll("th, td")].map((td) => td.textContent)),
        );
    // Hand-computed from the recordings: 11 debates have a majority (m01 bob-vs-alice is split:
    // j1 bob, j2 alice, j3 a tie vote); j2 parts from it once (m02 carol-vs-bob, j1 and j3 carol);
    // j3's tie votes on m01 never agree, on m02 its proposer is the majority 4 times of 6.
    expect(await rows("Judge panel")).toEqual([
      ["replay:j1", "100% (11/11)", "0% (0/12)"],
      ["replay:j2", "91% (10/11)", "0% (0/12)"],
      ["replay:j3", "36% (4/11)", "50% (6/12)"],
    ]);
    expect(await rows("Pairwise agreement")).toEqual([
      ["replay:j1 and replay:j2", "83% (10/12)"],
      ["replay:j1 and replay:j3", "33% (4/12)"],
      ["replay:j2 and replay:j3", "25% (3/12)"],
    ]);
    expect(await page.locator("h2:text('Judge panel') + p").textContent()).toContain("12 judged step(s)");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(OUT, "panel-desktop.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
