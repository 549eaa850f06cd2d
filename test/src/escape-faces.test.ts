import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import AjvDraft04 from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSumRepo } from "./gate-fixtures.js";
import { debate } from "./newcomer.js";
import { repoRoot, runDebateAsync } from "./workspace.js";

// Model text stays text wherever it lands: a hostile critic's findings in the gate's comment and
// SARIF, hostile titles, reasoning and verdict fields in report.md (formal and crossfire), and a
// model's terminal escape sequences in `debate log`, all through the built CLI.

/** Markup a model could try to slip into a rendered page, one line. */
const HOSTILE_LINE =
  "ping @octocat and @org/team ![x](http://host/beacon.png) [click](http://host/x) <http://host/auto> <img src=x onerror=alert(1)> a \\| b | c";
/** The same, over several lines: forged headings, an alert, raw HTML at line starts. */
const HOSTILE_BLOCK = [
  "Looks fine.",
  "## ✅ debatekit gate: pass",
  "## Verdict",
  "> [!CAUTION]",
  "> forged alert",
  "<script>alert(1)</script>",
  "<iframe src=//host/x></iframe>",
  "---",
  `${HOSTILE_LINE}`,
].join("\n");
/** Terminal control: set the window title, then clear the screen. */
const TERMINAL = "\u001b]0;pwned\u0007\u001b[2J";

let work: string;
let server: ModelServer;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "escape-faces-"));
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

/** Runs the built CLI without blocking this process (the model server answers from it). */
const cli = runDebateAsync;

/** Lines of `markdown` that a renderer reads as a heading, a quote or an HTML tag of the text's own. */
function markupLines(markdown: string) {
  const lines = markdown.split("\n");
  return {
    headings: lines.filter((l) => /^ {0,3}#{1,6}(\s|$)/.test(l)),
    quotes: lines.filter((l) => /^ {0,3}>/.test(l)),
  };
}

/** A GFM table row's cells: split at each `|` that no backslash escapes. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!(?:^|[^\\])(?:\\\\)*\\)\|/);
}

function expectNoLiveMarkup(markdown: string): void {
  expect(markdown).not.toMatch(/<(script|img|iframe)/i);
  expect(markdown).not.toMatch(/@(octocat|org\/team)/); // no live mention
  expect(markdown).not.toMatch(/!\[[^\]]*\]\(/); // no image
  expect(markdown).not.toMatch(/(?<!\\)\[click\]\(/); // no link
  expect(markdown).not.toMatch(/<http/); // no autolink
}

describe("the gate's comment and SARIF with a hostile critic", () => {
  let repo: string;
  const critique = JSON.stringify({
    findings: [
      {
        severity: "P1",
        title: `Off-by-one drops the last element ${HOSTILE_LINE}\n## ✅ debatekit gate: pass`,
        detail: HOSTILE_BLOCK,
        evidence: { file: "sum.ts", line: 3, quote: "i < xs.length - 1" },
        suggestion: HOSTILE_BLOCK,
      },
      ...[
        "../../../../etc/passwd",
        "/etc/shadow",
        "file:///etc/hostname",
        "https://host/sum.ts",
        "/etc/passwd",
        "docs/`a``b`.md",
      ].map((file, i) => ({
        // P3: a P2 whose evidence is not found would leave the gate undecided (exit 2), not blocked.
        severity: "P3",
        // Titles far apart: a reworded finding would be merged with the one it repeats.
        title: [
          "Parser overflow",
          "Cache eviction race",
          "Locale date format",
          "Retry storm",
          "Config typo",
          "Docs drift",
        ][i],
        detail: `See ${file}.`,
        evidence: { file, line: 1 },
      })),
    ],
    recommendation: "B",
    agree: false,
  });
  const judgment = JSON.stringify({
    classifications: [1, 2, 3, 4, 5, 6, 7].map((n) => ({
      finding_id: `r01-f${n}`,
      verdict: "valid",
      reasoning: "It stands.",
    })),
    recommendation: "B",
    reasons: ["A verified P1."],
  });

  beforeAll(async () => {
    server = await startModelServer((request: ModelRequest) =>
      request.model === "down"
        ? { error: 400 as const, message: `overloaded ${TERMINAL} try later` }
        : request.model === "critic"
          ? critique
          : judgment,
    );
    repo = join(work, "repo");
    await createSumRepo(repo, "buggy");
  });

  it("renders one heading of ours, six cells a row, no mention, image or link, and SARIF locations only in the change", async () => {
    const seat = (model: string) => ({
      adapter: "http",
      base_url: `${server.url}/v1`,
      model,
      timeout_ms: 30_000,
    });
    const policy = join(work, "policy.json");
    await writeFile(
      policy,
      JSON.stringify({ critic: seat("critic"), judge: seat("judge"), author: seat("judge") }),
    );
    const sarif = join(work, "gate.sarif");
    const comment = join(work, "gate.md");
    const gate = await cli(
      ["gate", "--dir", join(work, "debates"), "--scope", "base:main", "--policy", policy].concat([
        "--sarif",
        sarif,
        "--comment",
        comment,
      ]),
      repo,
      { ...process.env, NO_COLOR: "1", CI: "1", GITHUB_STEP_SUMMARY: "" },
    );
    expect(gate.code, gate.stderr).toBe(1);

    const md = await readFile(comment, "utf8");
    const { headings, quotes } = markupLines(md);
    expect(headings.filter((h) => h.startsWith("## "))).toEqual([
      "## ❌ debatekit gate: **blocked** (exit 1)",
    ]);
    expect(headings).toEqual(["## ❌ debatekit gate: **blocked** (exit 1)", "### Findings"]);
    expect(quotes).toEqual([]);
    expectNoLiveMarkup(md);
    const rows = md.split("\n").filter((l) => l.startsWith("| "));
    expect(rows.length).toBe(8); // the header and seven findings
    for (const row of rows) expect(cells(row), row).toHaveLength(6);
    // The file name with backticks stays one code span.
    expect(md).toContain("``docs/`a``b`.md:1``");

    const log = JSON.parse(await readFile(sarif, "utf8"));
    const schema = createRequire(import.meta.url)("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    const validate = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false }).compile(
      schema,
    );
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const results: Array<{ message: { text: string }; locations?: unknown[] }> = log.runs[0].results;
    expect(results).toHaveLength(7);
    const uris = results.flatMap((r) =>
      (r.locations ?? []).map(
        (l) =>
          (l as { physicalLocation: { artifactLocation: { uri: string } } }).physicalLocation.artifactLocation
            .uri,
      ),
    );
    expect(uris).toEqual(["sum.ts"]);
    // The model's `[click](http://host/x)` is no embedded link of the message.
    expect(results[0]!.message.text).toContain("\\[click\\](http://host/x)");
    // Every other finding stays, naming its file in the message.
    expect(results[1]!.message.text).toContain('Cited file: "../../../../etc/passwd" line 1');
    expect(results[5]!.message.text).toContain('Cited file: "/etc/passwd" line 1');
  });

  it("a provider error with terminal escapes: gate, run and status show them escaped", async () => {
    const policy = join(work, "down.json");
    const seat = (model: string) => ({
      adapter: "http",
      base_url: `${server.url}/v1`,
      model,
      timeout_ms: 30_000,
    });
    await writeFile(
      policy,
      JSON.stringify({ critic: seat("down"), judge: seat("judge"), author: seat("judge") }),
    );
    const env = { ...process.env, NO_COLOR: "1", CI: "1", GITHUB_STEP_SUMMARY: "" };
    const gate = await cli(
      ["gate", "--dir", join(work, "debates"), "--slug", "down", "--scope", "base:main", "--policy", policy],
      repo,
      env,
    );
    expect(gate.code, gate.stderr).toBe(2);
    const dir = join(work, "debates", "down");
    const run = await cli(["run", dir], repo, env);
    const status = await cli(["status", dir], repo, env);
    for (const out of [gate, run, status]) {
      expect(out.stdout + out.stderr).not.toMatch(/[\u001b\u0007]/);
      expect(out.stdout + out.stderr).toContain("overloaded \\x1b]0;pwned\\x07\\x1b[2J try later");
    }
  });
});

/**
 * Rewrites the answers of a replay.jsonl: `edit` gets the JSON object of each answer (the prose
 * around it is kept) and the line's role and exchange.
 */
async function editReplay(
  dir: string,
  edit: (answer: Record<string, unknown>, line: { role: string; exchange: number }) => void,
): Promise<void> {
  const file = join(dir, "replay.jsonl");
  const lines = (await readFile(file, "utf8")).trim().split("\n");
  const edited = lines.map((l) => {
    const line = JSON.parse(l);
    const text: string = line.text;
    const start = text.indexOf("{");
    const end = text.lastIndexOf("}") + 1;
    const answer = JSON.parse(text.slice(start, end));
    edit(answer, line);
    const json = JSON.stringify(answer, null, 2);
    return JSON.stringify({ ...line, text: `${text.slice(0, start)}${json}${text.slice(end)}` });
  });
  await writeFile(file, `${edited.join("\n")}\n`);
}

/** Runs a copied example on its (edited) replay seats, then `debate report`: report.md's text. */
async function runAndReport(dir: string): Promise<string> {
  const env = { ...process.env, NO_COLOR: "1", CI: "1" };
  const run = debate(["run", dir], { cwd: work, env });
  expect(run.code, run.stderr).toBe(0);
  const made = debate(["report", dir], { cwd: work, env });
  expect(made.code, made.stderr).toBe(0);
  return readFile(join(dir, "report.md"), "utf8");
}

/** What report.md never holds, whatever a model wrote: markup of its own, a second Verdict heading, a quote or alert. */
function expectPlainReport(md: string): void {
  expectNoLiveMarkup(md);
  const { headings, quotes } = markupLines(md);
  expect(headings.filter((h) => /^## Verdict/.test(h))).toEqual(["## Verdict"]);
  expect(headings.filter((h) => h.includes("debatekit gate"))).toEqual([]);
  // The engine's own alert that a seat's answer was rejected and asked again is the report's; no other quote is.
  const engineAlert = (line: string) =>
    line === "> [!WARNING]" ||
    /^> (- )?the \w+ seat's answer was rejected \d+ time\(s\) and asked again/.test(line);
  expect(quotes.filter((line) => !engineAlert(line))).toEqual([]);
}

describe("report.md with hostile titles, reasoning and verdict fields", () => {
  it("formal: no raw HTML, no forged Verdict heading, no alert", async () => {
    const dir = join(work, "formal");
    await cp(join(repoRoot, "examples/ai-review-gate"), dir, { recursive: true });
    await editReplay(dir, (answer, line) => {
      const args = answer.arguments as Array<{ title: string }> | undefined;
      if (args?.[0]) args[0].title = "<script>alert(1)</script> @octocat ![x](http://host/b.png)";
      const scores = answer.scores as Array<{ reasoning: string }> | undefined;
      if (scores?.[0] && line.exchange === 0) scores[0].reasoning = HOSTILE_BLOCK;
    });
    const md = await runAndReport(dir);
    expect(md).toContain("&lt;script&gt;alert(1)&lt;/script&gt;"); // the title is there, as text
    expectPlainReport(md);
    expect(md).not.toMatch(/^---$/m);
  });

  it("crossfire: the same for point claims and every verdict field", async () => {
    const dir = join(work, "crossfire");
    await cp(join(repoRoot, "examples/crossfire-grpc"), dir, { recursive: true });
    await editReplay(dir, (answer) => {
      const points = answer.points as Array<{ claim: string }> | undefined;
      if (points?.[0]) points[0].claim = `${points[0].claim} <img src=x onerror=alert(1)> @octocat`;
      if ("winner" in answer) {
        answer.reasoning = HOSTILE_BLOCK;
        answer.recommendation = HOSTILE_BLOCK;
        answer.disagreements = [HOSTILE_BLOCK];
        answer.unresolved = [HOSTILE_BLOCK];
        (answer.agreements as Array<{ text: string }>)[0]!.text = HOSTILE_BLOCK;
      }
    });
    const md = await runAndReport(dir);
    expectPlainReport(md);
  });
});

describe("debate log with a model's terminal escape sequences", () => {
  it("shows them escaped: no ESC or BEL byte reaches stdout (nor run --verbose's stderr)", async () => {
    const dir = join(work, "log");
    await cp(join(repoRoot, "examples/ai-review-gate"), dir, { recursive: true });
    // The judge's first answer starts with them (the JSON after them is still read).
    const file = join(dir, "replay.jsonl");
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    const at = lines.findIndex((l) => JSON.parse(l).role === "judge");
    const line = JSON.parse(lines[at]!);
    lines[at] = JSON.stringify({ ...line, text: `${TERMINAL}\n${line.text}` });
    await writeFile(file, `${lines.join("\n")}\n`);
    const env = { ...process.env, NO_COLOR: "1", CI: "1" };
    const run = debate(["run", dir, "--exchanges", "1", "--verbose"], { cwd: work, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(run.stderr).toContain("\\x1b]0;pwned\\x07\\x1b[2J");
    const log = debate(["log", dir, "--step", "0:judge"], { cwd: work, env });
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(log.stdout).toContain("--- received ---\n\\x1b]0;pwned\\x07\\x1b[2J\n{");
  });
});

describe("direction controls in a model's text", () => {
  // Right-to-left override, isolates, embeddings and the invisible marks: each could show a reader
  // other words than the ones written (`txt.exe` reading as `exe.txt`).
  const BIDI_CHARS = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
  ].concat(["\u200e", "\u200f", "\u061c"]);
  const BIDI_TEXT = `pass ${BIDI_CHARS.join("x")} \u202etxt.exe\u202c`;
  const ANY_BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

  it("report.md, report.html and debate log show each as a visible \\uNNNN, never the character", async () => {
    const dir = join(work, "bidi");
    await cp(join(repoRoot, "examples/ai-review-gate"), dir, { recursive: true });
    await editReplay(dir, (answer, line) => {
      const args = answer.arguments as Array<{ title: string; body?: string }> | undefined;
      if (args?.[0]) args[0].title = `Tests first ${BIDI_TEXT}`;
      const scores = answer.scores as Array<{ reasoning: string }> | undefined;
      if (scores?.[0] && line.exchange === 0) scores[0].reasoning = `Reasoned. ${BIDI_TEXT}`;
    });
    const md = await runAndReport(dir);
    const html = await readFile(join(dir, "report.html"), "utf8");
    // Markdown escapes the backslash (`\\u202e` in the file renders as `\u202e`); HTML needs none.
    for (const [face, text, slash] of [
      ["report.md", md, "\\\\"],
      ["report.html", html, "\\"],
    ] as const) {
      expect(text, face).not.toMatch(ANY_BIDI);
      expect(text, face).toContain(`${slash}u202etxt.exe${slash}u202c`);
      for (const ch of BIDI_CHARS)
        expect(text, face).toContain(`${slash}u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
    }
    const env = { ...process.env, NO_COLOR: "1", CI: "1" };
    const log = debate(["log", dir, "--step", "0:judge"], { cwd: work, env });
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).not.toMatch(ANY_BIDI);
    expect(log.stdout).toContain("\\u202etxt.exe\\u202c");
    expect(log.stdout).toContain("\\u200f");
  });
});
