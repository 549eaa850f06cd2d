import { type ChildProcess, spawn } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium } from "./browser.js";
import { debate, debateBin, exists, newcomer, newManualDebate, until } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// `debate serve` in a real headless Chromium: the list follows the folders live, and a manual formal
// debate is played to its end from the page. Screenshots go to test/.output/serve/ (ignored by git).
const OUT = join(repoRoot, "test/.output/serve");
const session = useChromium("serve-browser.test.ts", OUT);
const MOTION = "This house would require a second AI model's review before merging AI-written code";

let cwd: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess;
let url: string;

/** The example's recorded answer of a seat (valid for the formal format, on this motion). */
async function recorded(exchange: number, role: string): Promise<string> {
  const lines = (await readFile(join(repoRoot, "examples/ai-review-gate/replay.jsonl"), "utf8"))
    .trim()
    .split("\n");
  return lines.map((l) => JSON.parse(l)).find((e) => e.exchange === exchange && e.role === role)
    .text as string;
}

/** A manual formal debate of one exchange in debates/<slug>. */
async function manualDebate(slug: string): Promise<string> {
  const made = newManualDebate(MOTION, slug, { cwd: join(cwd, "debates"), env });
  expect(made.code, made.stderr).toBe(0);
  const file = join(cwd, "debates", slug, "debate.md");
  await writeFile(file, (await readFile(file, "utf8")).replace(/^exchanges: \d+$/m, "exchanges: 1"));
  return join(cwd, "debates", slug);
}

/** What a debate's folder committed, with the times masked (they differ between two runs). */
async function committed(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of [
    "debate.md",
    "scores.json",
    ...(await readdir(join(dir, "arguments"))).map((f) => `arguments/${f}`),
  ])
    out[file] = (await readFile(join(dir, file), "utf8"))
      .replace(/^(\s*\w*_at): .*$/gm, "$1: <time>")
      .replace(/"\w*_at": "[^"]*"/g, '"_at": "<time>"');
  return out;
}

beforeAll(async () => {
  if (!CHROMIUM) return;
  ({ cwd, env } = await newcomer("serve-"));
  expect(debate(["example", "ai-review-gate", "debates/replayed"], { cwd, env }).code).toBe(0);
  await manualDebate("played");
  server = spawn(process.execPath, [debateBin, "serve", "debates", "--port", "0"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  server.stdout!.on("data", (d) => (out += d));
  await until(
    "the server prints its URL",
    () => /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.test(out),
    20_000,
  );
  url = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)![1]!;
}, 60_000);

afterAll(async () => {
  server?.kill("SIGTERM");
});

/** axe-core's findings on one of our pages (its script is injected, so this page alone lets it past our CSP). */
async function accessibilityProblems(path: string): Promise<string[]> {
  const context = await session.browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(url);
  await page.goto(new URL(path, url).href);
  const problems = await axeViolations(page);
  await context.close();
  return problems;
}

/**
 * Fills a seat's form and sends it, waiting for the server's answer to the post. A panel refreshed by
 * the live stream just before the fill can leave the click on a form that no longer holds the text
 * (its `required` field then stops the post): the fill and click are made again, once.
 */
async function send(page: Page, stem: string, text: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.fill(`#text-${stem}`, text);
    const posted = page
      .waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/answer"), {
        timeout: 15_000,
      })
      .then(
        () => true,
        () => false,
      );
    await page.click(`form:has(#text-${stem}) button[type=submit]`);
    if (await posted) break;
    if (attempt === 2) throw new Error(`the answer form for ${stem} was not posted`);
  }
  await page.waitForLoadState("load");
}

describe.skipIf(!CHROMIUM)("debate serve in Chromium", () => {
  it("lists the debates, and shows a change made outside the browser within a second", async () => {
    const page = await session.browser.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(url);
    // The token moved into a cookie: the address bar no longer shows it.
    expect(page.url()).not.toContain("token=");
    expect(await page.locator("#rows tr").count()).toBe(2);
    expect(await page.locator('tr[data-debate="played"]').innerText()).toContain("formal");
    await page.waitForTimeout(300); // the event stream is open
    const file = join(cwd, "debates/replayed/debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^current_phase: .*$/m, "$&\npaused: true"));
    const edited = Date.now();
    await page.locator('tr[data-debate="replayed"]', { hasText: "paused" }).waitFor({ timeout: 1000 });
    expect(Date.now() - edited).toBeLessThan(1000);
    await page.screenshot({ path: join(OUT, "list.png"), fullPage: true });
    expect(errors).toEqual([]);
    expect(await accessibilityProblems("/")).toEqual([]);
    await page.close();
  });

  it("plays a manual debate to its end: a bad answer shows every problem and writes nothing", async () => {
    const dir = join(cwd, "debates/played");
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("/d/played", url).href);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("button:has-text('Run')")]);
    await page.waitForSelector("#text-e000-proposition", { timeout: 30_000 });
    expect(await page.locator("#panel h2").allInnerTexts()).toEqual([
      "Your turn: opposition",
      "Your turn: proposition",
    ]);

    await send(page, "e000-proposition", "I think the motion is right.");
    const problems = await page.locator(".errors li").allInnerTexts();
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join("\n")).toMatch(/[A-Z_]{6,}/);
    expect(await exists(join(dir, "inbox/e000-proposition.md"))).toBe(false);
    // What the person typed is kept for them to fix.
    expect(await page.inputValue("#text-e000-proposition")).toBe("I think the motion is right.");
    await page.screenshot({ path: join(OUT, "answer-form.png"), fullPage: true });

    await send(page, "e000-proposition", await recorded(0, "proposition"));
    await send(page, "e000-opposition", await recorded(0, "opposition"));
    await page.waitForSelector("#text-e000-judge", { timeout: 20_000 });
    expect(await page.locator("#progress li").allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("committed exchange 0/1 arguments")]),
    );
    // The report's page, rendered by the report's own code, in a frame of the debate's page.
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    expect(await page.frameLocator("#report").locator("h1").innerText()).toContain("played");
    await page.screenshot({ path: join(OUT, "live-debate.png"), fullPage: true });
    await send(page, "e000-judge", await recorded(0, "judge"));
    await until(
      "the debate completes",
      async () => JSON.parse(debate(["status", dir, "--json"], { cwd, env }).stdout)[0].phase === "complete",
      20_000,
    );
    await page.locator("#facts", { hasText: "complete" }).waitFor({ timeout: 5000 });
    expect(await accessibilityProblems("/d/played")).toEqual([]);
    await page.close();

    // The same answers written into inbox/ as files, run by `debate run`: the same committed folder.
    const byFiles = await manualDebate("by-files");
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    for (const role of ["proposition", "opposition"])
      await writeFile(join(byFiles, `inbox/e000-${role}.md`), await recorded(0, role));
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    await writeFile(join(byFiles, "inbox/e000-judge.md"), await recorded(0, "judge"));
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    const [a, b] = [await committed(dir), await committed(byFiles)];
    expect(a["debate.md"]!.replace(/played/g, "by-files")).toBe(b["debate.md"]);
    expect({ ...a, "debate.md": "" }).toEqual({ ...b, "debate.md": "" });
  }, 120_000);

  it("decides a manual review from the page: the choices, the judge's recommendation and reasons", async () => {
    // The example's review, in manual mode: after the judge it waits for a person's decision.
    const dir = join(cwd, "debates/decided");
    await cp(join(repoRoot, "examples/review-sum/redis"), dir, { recursive: true });
    const file = join(dir, "debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^mode: auto$/m, "mode: manual"));
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("/d/decided", url).href);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("button:has-text('Run')")]);
    await page.waitForSelector("#decision-title", { timeout: 30_000 });
    expect(await page.locator("#panel").innerText()).toContain("The judge recommends D");
    expect(await page.locator("#panel li").count()).toBeGreaterThan(0);
    expect(await page.locator("#panel input[name=decision]").count()).toBe(5);
    expect(await page.locator("#panel label", { hasText: "A: keep the original" }).count()).toBe(1);
    expect(await page.isChecked("#panel input[name=decision][value=D]")).toBe(true);
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(OUT, "review-decision.png"), fullPage: true });

    await page.check("#panel input[name=decision][value=A]");
    await Promise.all([
      page.waitForNavigation({ waitUntil: "load" }),
      page.click("button:has-text('Decide')"),
    ]);
    await until(
      "the review completes with the person's decision",
      async () => JSON.parse(debate(["status", dir, "--json"], { cwd, env }).stdout)[0].phase === "complete",
      20_000,
    );
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(decision).toMatchObject({ decision: "A" });
    expect(await readFile(file, "utf8")).toMatch(/^decided_by: manual$/m);
    expect(await accessibilityProblems("/d/decided")).toEqual([]);
    await page.close();
  }, 90_000);

  it("raises a debate's length from the page, through the format's own key", async () => {
    const file = join(cwd, "debates/replayed/debate.md");
    const before = Number(/^exchanges: (\d+)$/m.exec(await readFile(file, "utf8"))![1]);
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("/d/replayed", url).href);
    const field = page.getByLabel("exchanges");
    expect(await field.inputValue()).toBe(String(before));
    await field.fill(String(before + 2));
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("button:has-text('Set')")]);
    expect(await readFile(file, "utf8")).toMatch(new RegExp(`^exchanges: ${before + 2}$`, "m"));
    // Lowering it is refused with a notice, and nothing is written.
    await page.getByLabel("exchanges").fill("1");
    await page.click("button:has-text('Set')");
    await page.locator(".notice").waitFor({ timeout: 5000 });
    expect(await readFile(file, "utf8")).toMatch(new RegExp(`^exchanges: ${before + 2}$`, "m"));
    await page.close();
  }, 60_000);

  it("shows a tournament's progress and its leaderboard as it forms", async () => {
    const example = join(repoRoot, "examples/tournament-replay");
    const made = debate(
      [
        ...["tournament", "new", "debates/cup", "--motions", join(example, "motions.jsonl")],
        ...["--seats", "replay:alice,replay:bob,replay:carol", "--judges", "replay", "--format", "crossfire"],
        ...["--rounds", "1", "--replay", join(example, "recordings")],
      ],
      { cwd, env },
    );
    expect(made.code, made.stderr).toBe(0);
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.locator('tr[data-tournament="cup"]').waitFor({ timeout: 5000 });
    await page.goto(new URL("/t/cup", url).href);
    expect(await page.locator("#facts").innerText()).toContain("0/12 debates done");
    await page.waitForTimeout(300); // the event stream is open
    const ran = debate(["tournament", "run", "debates/cup"], { cwd, env });
    expect(ran.code, ran.stderr).toBe(0);
    await page.locator("#facts", { hasText: "12/12 debates done" }).waitFor({ timeout: 10_000 });
    const board = page.frameLocator("#report");
    await board.locator("h1", { hasText: "Leaderboard: " }).waitFor({ timeout: 30_000 });
    await board.locator("text=replay:alice").first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(OUT, "tournament.png"), fullPage: true });
    expect(await accessibilityProblems("/t/cup")).toEqual([]);
    await page.close();
  }, 120_000);
});
