import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { readDebateFolder } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, useChromium, watchPage } from "./browser.js";
import { repoRoot, runDebateBin } from "./workspace.js";

// A review's report.html as a code-review page, in headless Chromium: the artifact with line numbers,
// every finding anchored on the row of its line (or listed apart when it points at none), every
// finding's full text, no console error, no axe violation, no horizontal scroll at 390 px.
// Screenshots go to test/.output/report/review-*.png (ignored by git).
const OUT = join(repoRoot, "test/.output/report");
const session = useChromium("report-review-browser.test.ts", OUT);

type Finding = {
  id: string;
  title: string;
  detail: string;
  suggestion?: string;
  evidence_status?: string;
  evidence?: { file?: string; line?: number; quote?: string; side?: "new" | "old" };
};

/** Every finding the review's critique records hold, as files read them (not as the report shows them). */
async function findingsOf(dir: string): Promise<Finding[]> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(read.errors[0]!.message);
  return (read.value.state.records ?? []).flatMap(
    (r) => (r.frontmatter as { findings?: Finding[] }).findings ?? [],
  );
}

function debate(args: string[], cwd: string): void {
  const ran = runDebateBin(args, { cwd, home: session.work });
  expect(ran.code, ran.stderr).toBe(0);
}

/** A git repository whose last commit is `change` over `before`; returns its folder. */
async function repoWith(name: string, file: string, before: string, after: string): Promise<string> {
  const repo = join(session.work, name);
  await mkdir(repo, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
  git("init", "-q", "-b", "main");
  await writeFile(join(repo, file), before);
  git("add", file);
  git("commit", "-q", "-m", "before");
  await writeFile(join(repo, file), after);
  git("commit", "-q", "-am", "the change");
  return repo;
}

/** `debate review` of the repository's last commit with recorded answers, run and reported. */
async function reviewCommit(repo: string, slug: string, replay: string): Promise<string> {
  const dir = join(session.work, "debates", slug);
  debate(
    [
      ...["review", "--scope", "commit:HEAD", "--critic", "replay", "--author", "replay"],
      ...["--judge", "replay", "--no-run", "--slug", slug, "--dir", join(session.work, "debates")],
    ],
    repo,
  );
  await writeFile(join(dir, "replay.jsonl"), replay);
  debate(["run", dir], session.work);
  debate(["report", dir], session.work);
  return dir;
}

const VIEWPORTS = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/**
 * For each finding: the id of the note it is in, whether that note sits in a row of the code, and
 * if so the path and line numbers of that row (the row above its run of note rows) and the note its
 * line number links to. Runs in the page (a string: the test package's types have no DOM).
 */
const PLACES = `(ids) => ids.map((id) => {
  const note = document.querySelector('article.finding a[href="#entry-' + id + '"]')?.closest("article");
  if (!note) return { id, note: null };
  const cell = note.closest("tr.note-row");
  if (!cell) return { id, note: note.id, row: null, apart: !!note.closest("section")?.querySelector("#artifact-apart") };
  let row = cell.previousElementSibling;
  while (row && row.classList.contains("note-row")) row = row.previousElementSibling;
  const numbers = [...row.querySelectorAll("td.num a")].map((a) => a.getAttribute("href"));
  const first = row.nextElementSibling.querySelector("article.finding").id;
  return { id, note: note.id, row: { path: row.dataset.path, line: row.dataset.line, oldLine: row.dataset.oldLine }, numbers, first };
})`;

type Place = {
  id: string;
  note: string | null;
  apart?: boolean;
  row?: { path: string; line?: string; oldLine?: string } | null;
  numbers?: string[];
  first?: string;
};

/**
 * Loads the page at desktop and phone width: no console error, no request, no axe violation, nothing
 * wider than the screen; every finding's text in the page; every finding that cites a line the
 * artifact has sits on that line's row, whose number links to the first note there; the others apart.
 */
async function checkReviewPage(name: string, dir: string, expected: { anchored: number; apart: number }) {
  const file = join(dir, "report.html");
  const findings = await findingsOf(dir);
  const texts = findings
    .flatMap((f) => [f.title, f.detail, f.suggestion ?? "", f.evidence?.quote ?? ""])
    .map((t) => t.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  for (const [label, viewport] of VIEWPORTS) {
    const page = await session.browser.newPage({ viewport });
    const seen = watchPage(page, file);
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    // The notes alone (not the transcript) carry every finding's full text.
    const notesText = String(
      await page.evaluate(
        `[...document.querySelectorAll("article.finding")].map((a) => a.innerText).join(" ")`,
      ),
    ).replace(/\s+/g, " ");
    expect(texts.filter((t) => !notesText.includes(t))).toEqual([]);
    const places = (await page.evaluate(
      `(${PLACES})(${JSON.stringify(findings.map((f) => f.id))})`,
    )) as Place[];
    let anchored = 0;
    for (const f of findings) {
      const place = places.find((p) => p.id === f.id)!;
      expect(place.note, f.id).not.toBeNull();
      if (!place.row) continue;
      anchored++;
      // The row's number on the finding's side links to the first note on that row.
      expect(place.numbers, f.id).toContain(`#${place.first}`);
      if (f.evidence?.line !== undefined) {
        expect(place.row.path).toBe(f.evidence.file);
        expect(f.evidence.side === "old" ? place.row.oldLine : place.row.line).toBe(String(f.evidence.line));
      }
    }
    const notes = await page.locator("article.finding").count();
    const apart = await page.locator("#artifact-apart ~ article.finding").count();
    expect({ anchored: notes - apart, apart }).toEqual(expected);
    expect(anchored).toBeGreaterThanOrEqual(expected.anchored);
    // Every in-page link lands on an element.
    const dangling = await page.evaluate(
      `[...document.querySelectorAll('a[href^="#"]')].map((a) => a.getAttribute("href")).filter((h) => !document.getElementById(decodeURIComponent(h.slice(1))))`,
    );
    expect(dangling).toEqual([]);
    expect(
      await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUT, `review-${name}-${label}.png`), fullPage: true });
    await page.locator("#artifact").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, `review-${name}-${label}-artifact.png`) });
    if (label === "desktop") await page.pdf({ path: join(OUT, `review-${name}-print.pdf`) });
    expect(await axeViolations(page)).toEqual([]);
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  }
}

const good =
  "export function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n";

/** A 120-line module with a bug at line 60 and a string of backticks and markup at line 100. */
function bigFile(bug: boolean): string {
  const lines = Array.from({ length: 120 }, (_, i) => `export const value${i + 1} = ${i + 1};`);
  lines[59] = bug ? "export const limit = items.length - 1;" : "export const limit = items.length;";
  lines[99] = "export const fence = '```</pre><script>alert(1)</script>';";
  return `${lines.join("\n")}\n`;
}

const line = (o: object) => `${JSON.stringify(o)}\n`;

describe.skipIf(!CHROMIUM)("a review's report.html as a code-review page", () => {
  it("the example code review: the verified P1 on sum.ts line 3's row, the invented sum.ts:40 listed apart", async () => {
    const repo = await repoWith("sum", "sum.ts", good, good.replace("i < xs.length;", "i < xs.length - 1;"));
    const dir = await reviewCommit(
      repo,
      "sum",
      await readFile(join(repoRoot, "examples/review-sum/code.jsonl"), "utf8"),
    );
    const html = await readFile(join(dir, "report.html"), "utf8");
    // A small file is shown whole, the removed line beside the added one.
    expect(html).toContain('data-path="sum.ts" data-line="5"');
    expect(html).toContain('data-path="sum.ts" data-old-line="3"');
    const md = await readFile(join(dir, "report.md"), "utf8");
    expect(md).toContain("+ 3 >   for (let i = 0; i < xs.length - 1; i++) total += xs[i];");
    expect(md).toContain("cites sum.ts:40, not a line of the artifact");
    await checkReviewPage("sum", dir, { anchored: 1, apart: 1 });
  });

  it("the example proposal review over three rounds: one note for the reworded finding, on the line its quote starts", async () => {
    const dir = join(session.work, "redis");
    await cp(join(repoRoot, "examples/review-sum/redis"), dir, { recursive: true });
    debate(["run", dir], session.work);
    debate(["report", dir], session.work);
    const html = await readFile(join(dir, "report.html"), "utf8");
    expect(html.match(/<article class="finding"/g)).toHaveLength(1);
    await checkReviewPage("redis", dir, { anchored: 1, apart: 0 });
  });

  it("a long file: hunks around each finding, a finding on a removed line, hostile text escaped everywhere", async () => {
    const repo = await repoWith("big", "limits.ts", bigFile(false), bigFile(true));
    const hostile = "```\n</pre><script>window.pwned = 1</script>\n```\n# forged heading";
    const replay = [
      line({
        exchange: 1,
        role: "critic",
        text: JSON.stringify({
          findings: [
            {
              severity: "P1",
              title: "The limit drops the last item",
              detail: "limit is one short, so the last item is never processed.",
              evidence: { file: "limits.ts", line: 60, quote: "items.length - 1" },
              suggestion: "Use items.length.",
            },
            {
              severity: "P2",
              title: "The old bound was right </pre><script>window.pwned = 2</script>",
              detail: hostile,
              evidence: { file: "limits.ts", line: 60, quote: "items.length;", side: "old" },
            },
            {
              severity: "P3",
              title: "A string that closes fences",
              detail: "Line 100 holds backticks and markup.",
              evidence: { quote: "export const fence = '```</pre><script>" },
            },
          ],
          recommendation: "B",
          agree: false,
        }),
      }),
      line({
        exchange: 1,
        role: "judge",
        text: JSON.stringify({
          classifications: [
            { finding_id: "r01-f1", verdict: "valid", reasoning: "Line 60 is one short." },
            { finding_id: "r01-f2", verdict: "valid", reasoning: "The removed line had the right bound." },
            { finding_id: "r01-f3", verdict: "invalid", reasoning: "A string is no bug." },
          ],
          recommendation: "B",
          reasons: ["A verified P1."],
        }),
      }),
      line({ exchange: 1, role: "author", text: "```ts\nexport const limit = items.length;\n```\n" }),
    ].join("");
    const dir = await reviewCommit(repo, "big", replay);
    const html = await readFile(join(dir, "report.html"), "utf8");
    expect(html).not.toMatch(/<script|<\/pre>/i);
    // Lines far from any finding and change are left out, and say so.
    expect(html).toMatch(/<tr class="gap"><td colspan="3">⋯ 56 lines not shown \(1-56\)<\/td><\/tr>/);
    expect(html).not.toContain('data-line="20"');
    const md = await readFile(join(dir, "report.md"), "utf8");
    // The excerpt's fence is longer than the backtick run the file holds; the model's fence is escaped text.
    expect(md).toContain("````diff\n");
    expect(md).toContain("\n  100 > export const fence = '```</pre><script>alert(1)</script>';\n");
    expect(md).not.toMatch(/^```\n<\/pre>/m);
    expect(md).not.toMatch(/^# forged heading/m);
    await checkReviewPage("big", dir, { anchored: 3, apart: 0 });
    // The page ran no script of the model's.
    const page = await session.browser.newPage();
    await page.goto(pathToFileURL(join(dir, "report.html")).href);
    expect(await page.evaluate("window.pwned")).toBeUndefined();
    await page.close();
  });
});
