import { type ChildProcess, spawn } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { formatOfState } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium } from "./browser.js";
import { debate, debateBin, exists, newcomer, newManualDebate, until } from "./newcomer.js";
import { folderFingerprint, repoRoot } from "./workspace.js";

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

/** A formal debate of one exchange whose debaters ask the loopback model server (the judge is a person). */
async function modelDebate(slug: string, models: ModelServer): Promise<string> {
  const made = debate(
    ["new", MOTION, "--slug", slug, "--dir", ".", "--exchanges", "1"].concat([
      "--proposition",
      "http:prop",
      "--opposition",
      "http:opp",
      "--judge",
      "manual",
    ]),
    { cwd: join(cwd, "debates"), env },
  );
  expect(made.code, made.stderr).toBe(0);
  const file = join(cwd, "debates", slug, "debate.md");
  await writeFile(
    file,
    (await readFile(file, "utf8")).replace(
      /^( {4})model: (prop|opp)$/gm,
      `$1model: $2\n$1base_url: ${models.url}/v1`,
    ),
  );
  return join(cwd, "debates", slug);
}

/**
 * Every file of a debate's folder and its text, with the debate's own name made `<slug>` and what
 * must differ between two plays masked: the times (`*_at`), the seats' durations (`durationMs`) and
 * the argument index's file-stat keys (inode, mtime: a cache key of the files as they sit on disk).
 */
async function folderFiles(dir: string, slug: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = join(entry.parentPath, entry.name);
      out[relative(dir, file)] = (await readFile(file, "utf8"))
        .replaceAll(slug, "<slug>")
        .replace(/^(\s*\w+_at): .*$/gm, "$1: <time>")
        .replace(/"(\w+_at)": "[^"]*"/g, '"$1": "<time>"')
        .replace(/"durationMs": \d+/g, '"durationMs": <ms>')
        .replace(/"stat":"[\d:]+"/g, '"stat":"<stat>"');
    }
  return out;
}

/** What the format itself finds wrong in an answer of `role` to the debate in `dir` as it stands. */
async function formatProblems(dir: string, role: string, text: string): Promise<string[]> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(`${dir} does not read`);
  const parsed = formatOfState(read.value.state).parseAnswer(read.value.state, role, text);
  return parsed.ok ? [] : parsed.errors.map((e) => e.message);
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
    () => /open (http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+\/\?token=\S+)/.test(out),
    20_000,
  );
  url = /open (http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+\/\?token=\S+)/.exec(out)![1]!;
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
 * A full-page screenshot in OUT, taken with the report's frame in sight: Chromium paints a frame of
 * another origin (the sandboxed report) only where the window shows it, as a person scrolling to it sees it.
 */
async function screenshot(page: Page, name: string): Promise<void> {
  const frame = page.locator("#report");
  if (await frame.count()) {
    // In the page, in one go: the frame may be swapped for its next load meanwhile.
    await page.evaluate(`document.getElementById("report").scrollIntoView()`);
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: join(OUT, name), fullPage: true });
  // Back where the test had the page: a click after this needs nothing scrolled for it.
  await page.evaluate("window.scrollTo(0, 0)");
}

/**
 * Clicks a button of the debate page's panel and waits until the server's answer to its post is
 * shown (the page sends its forms itself and marks the panel busy meanwhile).
 */
async function submit(page: Page, button: string): Promise<void> {
  const posted = page.waitForResponse((r) => r.request().method() === "POST", { timeout: 15_000 });
  await page.click(button);
  await posted;
  await page.waitForSelector("#panel:not([aria-busy])", { timeout: 15_000 });
}

/** Fills a seat's answer form and sends it. */
async function send(page: Page, stem: string, text: string): Promise<void> {
  await page.fill(`#text-${stem}`, text);
  await submit(page, `form:has(#text-${stem}) button[type=submit]`);
}

/** A manual debate of one exchange whose first prompts are out (as `debate run` writes them). */
async function askedDebate(slug: string): Promise<string> {
  const dir = await manualDebate(slug);
  expect(debate(["run", dir], { cwd, env }).code).toBe(0);
  return dir;
}

/** A debate's page, opened with the token, its event stream open. */
async function openDebate(slug: string): Promise<Page> {
  const page = await session.browser.newPage();
  await page.goto(url);
  await page.goto(new URL(`d/${slug}`, url).href);
  await streamOpen(page);
  return page;
}

/** Waits until the page's live stream is open: a change made after it shows on the page. */
async function streamOpen(page: Page): Promise<void> {
  await page.locator('body[data-live="open"]').waitFor({ timeout: 10_000 });
}

/** Saves debate.md as an editor does without a change: the folder's watcher reports a change. */
async function touch(dir: string): Promise<void> {
  const file = join(dir, "debate.md");
  await writeFile(file, await readFile(file, "utf8"));
}

describe.skipIf(!CHROMIUM)("debate serve in Chromium", () => {
  it("lists the debates, and shows a change made outside the browser", async () => {
    const page = await session.browser.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(url);
    // The token moved into a cookie: the address bar no longer shows it.
    expect(page.url()).not.toContain("token=");
    expect(await page.locator("#rows tr").count()).toBe(2);
    expect(await page.locator('tr[data-debate="played"]').innerText()).toContain("formal");
    await streamOpen(page);
    const file = join(cwd, "debates/replayed/debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^current_phase: .*$/m, "$&\npaused: true"));
    // Without a reload: the live stream brings it (how fast is the machine's load, not a test's).
    await page.locator('tr[data-debate="replayed"]', { hasText: "paused" }).waitFor({ timeout: 10_000 });
    await screenshot(page, "list.png");
    expect(errors).toEqual([]);
    expect(await accessibilityProblems("./")).toEqual([]);
    await page.close();
  });

  it("plays a manual debate to its end: a bad answer shows every problem and writes nothing", async () => {
    const dir = join(cwd, "debates/played");
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("d/played", url).href);
    await submit(page, "button:text-is('Run')");
    await page.waitForSelector("#text-e000-proposition", { timeout: 30_000 });
    expect(await page.locator("#panel h2").allInnerTexts()).toEqual([
      "Your turn: opposition",
      "Your turn: proposition",
    ]);

    // An answer that breaks several of the format's rules: every one is shown at once, nothing is written.
    const answer = JSON.parse(await recorded(0, "proposition"));
    delete answer.arguments[0].claim;
    answer.arguments[1].grounds = [];
    const bad = JSON.stringify(answer, null, 2);
    const expected = await formatProblems(dir, "proposition", bad);
    expect(expected.length).toBeGreaterThan(1);
    const before = await folderFingerprint(dir);
    await send(page, "e000-proposition", bad);
    const problems = await page.locator(".errors li").allInnerTexts();
    expect(problems).toHaveLength(expected.length);
    for (const [i, message] of expected.entries()) expect(problems[i]).toContain(message);
    expect(problems.join("\n")).toMatch(/[A-Z_]{6,}/);
    expect(await folderFingerprint(dir)).toEqual(before);
    // What the person typed is kept for them to fix.
    expect(await page.inputValue("#text-e000-proposition")).toBe(bad);
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    await screenshot(page, "answer-form.png");

    await send(page, "e000-proposition", await recorded(0, "proposition"));
    await send(page, "e000-opposition", await recorded(0, "opposition"));
    await page.waitForSelector("#text-e000-judge", { timeout: 20_000 });
    expect(await page.locator("#progress li").allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("committed exchange 0/1 arguments")]),
    );
    // The report's page, rendered by the report's own code, in a frame of the debate's page.
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    expect(await page.frameLocator("#report").locator("h1").innerText()).toContain("played");
    await screenshot(page, "manual-debate.png");
    await send(page, "e000-judge", await recorded(0, "judge"));
    await until(
      "the debate completes",
      async () => JSON.parse(debate(["status", dir, "--json"], { cwd, env }).stdout)[0].phase === "complete",
      20_000,
    );
    await page.locator("#facts", { hasText: "complete" }).waitFor({ timeout: 5000 });
    expect(await accessibilityProblems("d/played")).toEqual([]);
    await page.close();

    // The same answers written into inbox/ as files, run by `debate run`: the same committed folder.
    const byFiles = await manualDebate("by-files");
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    for (const role of ["proposition", "opposition"])
      await writeFile(join(byFiles, `inbox/e000-${role}.md`), await recorded(0, role));
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    await writeFile(join(byFiles, "inbox/e000-judge.md"), await recorded(0, "judge"));
    expect(debate(["run", byFiles], { cwd, env }).code).toBe(0);
    const [a, b] = [await folderFiles(dir, "played"), await folderFiles(byFiles, "by-files")];
    expect(a).toEqual(b);
  }, 120_000);

  it("decides a manual review from the page: the choices, the judge's recommendation and reasons", async () => {
    // The example's review, in manual mode: after the judge it waits for a person's decision.
    const dir = join(cwd, "debates/decided");
    await cp(join(repoRoot, "examples/review-sum/redis"), dir, { recursive: true });
    const file = join(dir, "debate.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^mode: auto$/m, "mode: manual"));
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("d/decided", url).href);
    await submit(page, "button:text-is('Run')");
    await page.waitForSelector("#decision-title", { timeout: 30_000 });
    // The run has stopped to wait for the person: its forms stay as they are until they act.
    await page.locator("button:text-is('Run')").waitFor({ timeout: 10_000 });
    expect(await page.locator("#panel").innerText()).toContain("The judge recommends D");
    expect(await page.locator("#panel li").count()).toBeGreaterThan(0);
    expect(await page.locator("#panel input[name=decision]").count()).toBe(5);
    expect(await page.locator("#panel label", { hasText: "A: keep the original" }).count()).toBe(1);
    expect(await page.isChecked("#panel input[name=decision][value=D]")).toBe(true);
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    await screenshot(page, "review-decision.png");

    await page.check("#panel input[name=decision][value=A]");
    await submit(page, "button:has-text('Decide')");
    await until(
      "the review completes with the person's decision",
      async () => JSON.parse(debate(["status", dir, "--json"], { cwd, env }).stdout)[0].phase === "complete",
      20_000,
    );
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(decision).toMatchObject({ decision: "A" });
    expect(await readFile(file, "utf8")).toMatch(/^decided_by: manual$/m);
    expect(await accessibilityProblems("d/decided")).toEqual([]);
    await page.close();
  }, 90_000);

  it("raises a debate's length from the page, through the format's own key", async () => {
    const file = join(cwd, "debates/replayed/debate.md");
    const before = Number(/^exchanges: (\d+)$/m.exec(await readFile(file, "utf8"))![1]);
    const page = await session.browser.newPage();
    await page.goto(url);
    await page.goto(new URL("d/replayed", url).href);
    const field = page.getByLabel("exchanges");
    expect(await field.inputValue()).toBe(String(before));
    await field.fill(String(before + 2));
    await submit(page, "button:has-text('Set')");
    expect(await readFile(file, "utf8")).toMatch(new RegExp(`^exchanges: ${before + 2}$`, "m"));
    // Lowering it is refused with a notice, and nothing is written.
    await page.getByLabel("exchanges").fill("1");
    await submit(page, "button:has-text('Set')");
    await page.locator("#panel .notice").waitFor({ timeout: 5000 });
    expect(await page.getByLabel("exchanges").inputValue()).toBe("1");
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
    await page.goto(new URL("t/cup", url).href);
    expect(await page.locator("#facts").innerText()).toContain("0/12 debates done");
    await streamOpen(page);
    const ran = debate(["tournament", "run", "debates/cup"], { cwd, env });
    expect(ran.code, ran.stderr).toBe(0);
    await page.locator("#facts", { hasText: "12/12 debates done" }).waitFor({ timeout: 10_000 });
    const board = page.frameLocator("#report");
    await board.locator("h1", { hasText: "Leaderboard: " }).waitFor({ timeout: 30_000 });
    await board.locator("text=replay:alice").first().waitFor({ timeout: 10_000 });
    // The board of every result, not one drawn before the last debates ended.
    await board.locator("text=12 debates: 12 done").waitFor({ timeout: 30_000 });
    await screenshot(page, "tournament.png");
    expect(await accessibilityProblems("t/cup")).toEqual([]);
    await page.close();
  }, 120_000);

  it("never takes a form from under a person: focus and typing survive a change of the folder, and the post is made", async () => {
    const dir = await askedDebate("kept");
    const file = join(dir, "debate.md");
    /** An editor raises the debate's length: the page's forms change (the length field shows it). */
    const lengthen = async (to: number) => {
      const refreshed = page.waitForResponse((r) => r.url().includes("/d/kept/progress"));
      await writeFile(file, (await readFile(file, "utf8")).replace(/^exchanges: \d+$/m, `exchanges: ${to}`));
      await refreshed;
    };
    const page = await openDebate("kept");
    await page.waitForSelector("#text-e000-proposition");
    // The person clicks into the field; the folder changes before they type.
    await page.focus("#text-e000-proposition");
    await lengthen(2);
    // The forms are left as they are, with a line saying the debate moved on.
    await page.locator("#stale").waitFor({ state: "visible", timeout: 5000 });
    const text = await recorded(0, "proposition");
    await page.keyboard.insertText(text);
    expect(await page.inputValue("#text-e000-proposition")).toBe(text);
    // Typed, and the folder changes again before the click: nothing typed is lost.
    await page.locator("#text-e000-proposition").blur();
    await lengthen(3);
    expect(await page.inputValue("#text-e000-proposition")).toBe(text);
    await submit(page, "form:has(#text-e000-proposition) button[type=submit]");
    expect(await readFile(join(dir, "inbox/e000-proposition.md"), "utf8")).toBe(text);
    // The server's answer brought the forms up to date.
    expect(await page.locator("#text-e000-proposition").count()).toBe(0);
    expect(await page.getByLabel("exchanges").inputValue()).toBe("3");
    expect(await page.locator("#stale").isHidden()).toBe(true);
    await page.close();
  }, 60_000);

  it("two pages answer the same seat at once: one answer is written whole, the other is told and keeps its text", async () => {
    const dir = await askedDebate("twotabs");
    const [a, b] = [await openDebate("twotabs"), await openDebate("twotabs")];
    const texts = [
      await recorded(0, "proposition"),
      `${await recorded(0, "proposition")}\n\nThe second tab's words.`,
    ];
    await a.fill("#text-e000-proposition", texts[0]!);
    await b.fill("#text-e000-proposition", texts[1]!);
    const button = "form:has(#text-e000-proposition) button[type=submit]";
    await Promise.all([submit(a, button), submit(b, button)]);
    const written = await readFile(join(dir, "inbox/e000-proposition.md"), "utf8");
    expect(texts).toContain(written);
    const loser = written === texts[0] ? b : a;
    const lost = written === texts[0] ? texts[1]! : texts[0]!;
    expect(await loser.locator("#panel .notice").innerText()).toContain("answered this seat first");
    expect(await loser.inputValue("#kept-e000-proposition")).toBe(lost);
    await a.close();
    await b.close();
  }, 60_000);

  it("an edit of debate.md from the page while an editor changed it on disk: refused, the person's value kept", async () => {
    const dir = await askedDebate("edited");
    const file = join(dir, "debate.md");
    const page = await openDebate("edited");
    expect(await page.getByLabel("exchanges").inputValue()).toBe("1");
    await page.getByLabel("exchanges").fill("3");
    // Meanwhile a person in an editor raises it to 2.
    await writeFile(file, (await readFile(file, "utf8")).replace(/^exchanges: 1$/m, "exchanges: 2"));
    await page.waitForTimeout(500);
    const posted = page.waitForResponse((r) => r.request().method() === "POST");
    await submit(page, "button:has-text('Set')");
    expect((await posted).status()).toBe(409);
    expect(await page.locator("#panel .notice").innerText()).toContain("changed in debate.md");
    expect(await page.getByLabel("exchanges").inputValue()).toBe("3");
    expect(await readFile(file, "utf8")).toMatch(/^exchanges: 2$/m);
    // Sent again, knowing: applied.
    await submit(page, "button:has-text('Set')");
    expect(await readFile(file, "utf8")).toMatch(/^exchanges: 3$/m);
    await page.close();
  }, 60_000);

  it("never shows a blank report: the next one loads out of sight and takes the shown one's place", async () => {
    const dir = join(cwd, "debates/replayed");
    const page = await openDebate("replayed");
    await page.frameLocator("#report").locator("h1").waitFor({ timeout: 10_000 });
    // Each frame element counts its loads: a frame shown and then reloaded went blank meanwhile.
    // (Page scripts as text: this package's types know no DOM.)
    await page.evaluate(`{
      globalThis.frameLoads = new Map();
      document.addEventListener("load", (e) => {
        if (e.target.tagName === "IFRAME") frameLoads.set(e.target, (frameLoads.get(e.target) ?? 0) + 1);
      }, true);
    }`);
    const first = await page.locator("#report").getAttribute("src");
    let sampling = true;
    const empty: number[] = [];
    const sampler = (async () => {
      for (let n = 0; sampling; n++) {
        // Empty only if the frame shown had no heading and is still the one shown after the look.
        const shown = await page.$("#report");
        const heading = await (await shown?.contentFrame())?.$("h1").catch(() => null);
        if (!heading && (await shown?.evaluate((e) => e.isConnected && e.id === "report"))) empty.push(n);
        await page.waitForTimeout(10);
      }
    })();
    for (let i = 0; i < 5; i++) {
      await touch(dir);
      await page.waitForTimeout(400);
    }
    await page.waitForFunction(
      `document.getElementById("report").getAttribute("src") !== ${JSON.stringify(first)}`,
      undefined,
      {
        timeout: 10_000,
      },
    );
    await page.waitForTimeout(1000);
    sampling = false;
    await sampler;
    expect(empty).toEqual([]);
    const loads = await page.evaluate<number[]>("[...frameLoads.values()]");
    expect(loads.length).toBeGreaterThan(0);
    expect(Math.max(...loads)).toBe(1);
    await page.close();
  }, 60_000);

  it("shows a running debate's live progress from the event stream: the seat asked, its elapsed time, the attempt and the error that made it retry", async () => {
    // The proposition's model first answers what the format rejects, then its recorded answer; each answer takes 2.5 s.
    let asked = 0;
    const models = await startModelServer(
      (request) =>
        request.model === "opp"
          ? JSON.parse(JSON.stringify(opposition))
          : ++asked === 1
            ? "I think the motion is right."
            : proposition,
      { delayMs: 2500 },
    );
    const [proposition, opposition] = [await recorded(0, "proposition"), await recorded(0, "opposition")];
    const dir = await modelDebate("live", models);
    const page = await openDebate("live");
    await submit(page, "button:text-is('Run')");
    const progress = page.locator("#progress li");
    // Live, while the seat works: its line and a clock that counts.
    await progress
      .filter({ hasText: /proposition \(http\) thinking \(attempt 1\) · [1-9] s/ })
      .waitFor({ timeout: 10_000 });
    const retry = progress.filter({ hasText: "answer rejected, asking again (attempt 2)" });
    await retry.waitFor({ timeout: 20_000 });
    // The count on the retry line, then each problem on a line of its own, as the terminal prints them.
    expect(await retry.innerText()).toMatch(/attempt 2\): 1 problem$/);
    const lines = await progress.allInnerTexts();
    const at = lines.findIndex((l) => l.includes("answer rejected, asking again (attempt 2)"));
    expect(lines[at + 1], lines.join("\n")).toMatch(/^\s*- [A-Z_]{6,}/);
    await progress
      .filter({ hasText: /proposition \(http\) thinking \(attempt 2\)/ })
      .waitFor({ timeout: 10_000 });
    await screenshot(page, "live-debate.png");
    await page.waitForSelector("#text-e000-judge", { timeout: 30_000 });
    expect(await progress.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("committed exchange 0/1 arguments")]),
    );
    expect((await readdir(join(dir, "arguments"))).length).toBeGreaterThan(0);
    await page.close();
    await models.close();
  }, 90_000);

  it("runs from the page under the same lock as `debate run`: told who holds it; a stop leaves it to resume later", async () => {
    let hang = true;
    const [proposition, opposition] = [await recorded(0, "proposition"), await recorded(0, "opposition")];
    const models = await startModelServer((request) =>
      hang ? { hang: true } : request.model === "opp" ? opposition : proposition,
    );
    const dir = await modelDebate("locked", models);
    // `debate run` in a terminal holds the lock while its seats think.
    const terminal = spawn(process.execPath, [debateBin, "run", dir], { cwd, env, stdio: "ignore" });
    await until("`debate run` holds the lock", () => exists(join(dir, ".debate/lock")), 20_000);
    const page = await openDebate("locked");
    const posted = page.waitForResponse((r) => r.request().method() === "POST");
    await submit(page, "button:text-is('Run')");
    expect((await posted).status()).toBe(409);
    expect(await page.locator("#panel .notice").innerText()).toMatch(
      new RegExp(`being advanced by pid ${terminal.pid} .*debate run`),
    );
    expect(await page.locator("button:has-text('Stop the run')").count()).toBe(0);
    terminal.kill("SIGINT");
    await until(
      "`debate run` let go of the lock",
      async () => !(await exists(join(dir, ".debate/lock"))),
      20_000,
    );

    // Run from the page, then stop it while its seats think: it stops as Ctrl-C stops `debate run`.
    await page.reload();
    await submit(page, "button:text-is('Run')");
    await page.locator("#progress li", { hasText: "thinking" }).first().waitFor({ timeout: 10_000 });
    await submit(page, "button:has-text('Stop the run')");
    await page.locator("button:text-is('Run')").waitFor({ timeout: 10_000 });
    expect(await exists(join(dir, ".debate/lock"))).toBe(false);
    expect(await readdir(join(dir, "arguments")).catch(() => [])).toEqual([]);
    expect(await page.locator("#progress li", { hasText: "run stopped" }).count()).toBe(1);
    expect(await page.locator("#progress li", { hasText: "stopped by the user" }).count()).toBe(2);
    // Later it resumes where it stopped.
    hang = false;
    await submit(page, "button:text-is('Run')");
    await page.waitForSelector("#text-e000-judge", { timeout: 30_000 });
    expect((await readdir(join(dir, "arguments"))).length).toBeGreaterThan(0);
    await page.close();
    await models.close();
  }, 90_000);

  it("two servers in one browser keep their own token: opening one does not sign the other out", async () => {
    // A browser keeps cookies by host, not port: one cookie name for both would be overwritten.
    const second = spawn(process.execPath, [debateBin, "serve", "debates/replayed", "--port", "0"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    second.stdout!.on("data", (d) => (out += d));
    const pattern = /open (http:\/\/127\.0\.0\.1:\d+\/s\/[\w-]+\/\?token=\S+)/;
    await until("the second server prints its URL", () => pattern.test(out), 20_000);
    const secondUrl = pattern.exec(out)![1]!;
    const context = await session.browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.goto(secondUrl);
    expect(await page.locator('tr[data-debate="replayed"]').count()).toBe(1);
    // Back to the first server, by its address without the token: still signed in.
    const first = await page.goto(new URL("./", url).href);
    expect(first?.status()).toBe(200);
    expect(await page.locator('tr[data-debate="played"]').count()).toBe(1);
    const again = await page.goto(new URL("./", secondUrl).href);
    expect(again?.status()).toBe(200);
    const cookies = (await context.cookies()).map((c) => c.name).sort();
    expect(cookies).toEqual(
      [`debatekit_serve_${new URL(url).port}`, `debatekit_serve_${new URL(secondUrl).port}`].sort(),
    );
    await context.close();
    second.kill("SIGTERM");
  }, 60_000);

  it("the token stays with its server: another server on 127.0.0.1 the browser visits gets no serve cookie", async () => {
    // A plain HTTP server on loopback that records the Cookie header of every request it gets.
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.cookie ?? "");
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>other</title><p>other</p>");
    });
    await new Promise<void>((done) => other.listen(0, "127.0.0.1", done));
    const port = (other.address() as AddressInfo).port;
    const context = await session.browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    expect(await page.locator('tr[data-debate="played"]').count()).toBe(1);
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.goto(`http://127.0.0.1:${port}/s/anything/?x=1`);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.join("\n")).not.toContain("debatekit_serve");
    await context.close();
    await new Promise<void>((done) => other.close(() => done()));
  }, 60_000);
});
