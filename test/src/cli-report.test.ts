import { spawn } from "node:child_process";
import { chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addReplayReporter } from "./reporter-seat.js";
import { repoRoot } from "./workspace.js";

// `debate report` through the built CLI, on real temp copies of the examples (run first with their
// replay seats) and of the dialectic fixture as dialectic wrote it.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const FIXTURE = join(repoRoot, "../shared/fixtures/dialectic/halt-ai-development");

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-report-"));
  await cp(join(repoRoot, "examples/ai-review-gate"), join(work, "ai-review-gate"), { recursive: true });
  await cp(join(repoRoot, "examples/crossfire-grpc"), join(work, "crossfire-grpc"), { recursive: true });
  await cp(FIXTURE, join(work, "halt-ai-development"), { recursive: true });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function debate(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, NO_COLOR: "1", CI: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

/** A reporter's answer of about 450 words, citing `id` (and r03-f1, the weakest finding). */
function narrative(id: string): string {
  const paragraph = `In the first round the concern [${id}] came back in other words while the author's rebuttal stood. The judge found it invalid each time, and the last wording [r03-f1] lost its quote, so it fell to P2. `;
  const filler =
    "The critic and the judge read the same proposal and the same accepted trade-off, and nothing new of weight came up after the first round. ";
  const paragraphs: string[] = [];
  while (paragraphs.join(" ").split(/\s+/).length < 430) paragraphs.push(paragraph + filler.repeat(2));
  return paragraphs.join("\n\n");
}

async function reportOf(name: string) {
  const made = await debate(["report", join(work, name), "--json"]);
  expect(made.stderr).toBe("");
  expect(made.code).toBe(0);
  const html = await readFile(join(work, name, "report.html"), "utf8");
  const markdown = await readFile(join(work, name, "report.md"), "utf8");
  return { facts: JSON.parse(made.stdout), html, markdown };
}

describe("debate report", () => {
  it("reports the formal example after its run: winner, totals, strongest, graph", async () => {
    expect((await debate(["run", join(work, "ai-review-gate")])).code).toBe(0);
    const { facts, html, markdown } = await reportOf("ai-review-gate");
    expect(facts).toMatchObject({
      format: "formal",
      status: "complete",
      winner: "proposition",
      totals: { proposition: 0.2, opposition: -0.65 },
      strongest: "prop_000a",
      weakest: "opp_000c",
      nodes: 14,
      edges: 20,
      chartPoints: [5, 5],
      // The example's recording has the judge answer once with a sum that is not zero: on record.
      alerts: [
        "the judge seat's answer was rejected 1 time(s) and asked again (`debate log` shows each rejection and why)",
      ],
    });
    expect(html.match(/<g class="node"/g)).toHaveLength(14);
    expect(html.match(/<circle class="point"/g)).toHaveLength(10);
    expect(markdown).toContain("**the proposition wins: +0.20 to -0.65**");
    // the replay seats' adapter is in the seats table
    expect(markdown).toMatch(/\| judge \| replay \| [1-9]\d* \| 0 \|/);
  });

  it("reports the crossfire example after its run: the judge's winner, cited points, graph", async () => {
    expect((await debate(["run", join(work, "crossfire-grpc")])).code).toBe(0);
    const { facts, markdown } = await reportOf("crossfire-grpc");
    expect(facts).toMatchObject({
      format: "crossfire",
      status: "complete",
      winner: "opposition",
      headline: "the challenger wins",
      strongest: "C2.1",
      nodes: 13,
      edges: 9,
      chartPoints: [3, 3],
    });
    expect(markdown).toContain("- **Cited points**: C1.1, C2.1, C3.1, P1.1, P1.2, P2.1");
    // The verdict's reasoning closes the debate as a document.
    expect(markdown).toContain("### The verdict");
  });

  it("reports the dialectic fixture as it is, and writes nothing but the two files", async () => {
    const before = await readdir(join(work, "halt-ai-development"));
    const { facts } = await reportOf("halt-ai-development");
    expect(facts).toMatchObject({
      winner: "proposition",
      totals: { proposition: 2.05, opposition: -2.05 },
      strongest: "prop_000b",
      weakest: "opp_000c",
      nodes: 14,
      edges: 38,
      chartPoints: [5, 5],
    });
    const after = await readdir(join(work, "halt-ai-development"));
    expect(after.filter((f) => !before.includes(f)).sort()).toEqual(["report.html", "report.md"]);
  });

  it("reports the review example after its run: findings by severity per round, the findings, every judgment, the decisions", async () => {
    await cp(join(repoRoot, "examples/review-sum/redis"), join(work, "redis"), { recursive: true });
    expect((await debate(["run", join(work, "redis")])).code).toBe(0);
    const { facts, html, markdown } = await reportOf("redis");
    expect(facts).toMatchObject({
      format: "review",
      status: "complete",
      alerts: [],
      headline:
        "decision D: continue with a rebuttal, after 3 rounds; stopped converged (two rounds without a new P1/P2)",
      weakest: "r03-f1",
      nodes: 3,
      edges: 2,
      chartPoints: [3, 3, 3],
    });
    expect(facts.strongest).toBeUndefined(); // the judge found no finding valid
    expect(facts.narrative).toBeUndefined(); // no reporter seat: the report is complete without one
    expect(markdown).toContain("| Progress | 3 of 3 rounds |");
    expect(markdown).toMatch(/\| critic \| replay \| 3 \| 0 \|/);
    // the chart's data: P1 in rounds 1-2, demoted to P2 in round 3 (its quote was not found)
    expect(markdown).toContain(
      "| round | P1 | P2 | P3 |\n|---|---|---|---|\n| 1 | 1 | 0 | 0 |\n| 2 | 1 | 0 | 0 |\n| 3 | 0 | 1 | 0 |",
    );
    // one distinct finding, reworded three times, invalid each round
    expect(markdown).toContain(
      "| r01-f1, r02-f1, r03-f1 | P1 → P2 | Restart of the single Redis node drops all sessions | - | not found (needs evidence) | round 1: invalid; round 2: invalid; round 3: invalid |",
    );
    expect(markdown).toContain(
      "| 1 | 1/0/0 | D | D: continue with a rebuttal | D: continue with a rebuttal | a rebuttal |",
    );
    expect(markdown.match(/^\*\*the judge recommends D \(continue with a rebuttal\)\*\*/gm)).toHaveLength(3);
    // The judge's classification stands under the finding it judges, in the debate as a document.
    expect(markdown).toMatch(
      /^#### r02-f1: [^\n]*\n[\s\S]*?\*\*judged invalid\*\* \(replay\)\n\nA repeat of r01-f1; the rebuttal stands\./m,
    );
    expect(html.match(/<circle class="point"/g)).toHaveLength(9);
    expect(html.match(/<path class="edge" data-kind="repeat"/g)).toHaveLength(2);
    expect(html).toContain('<table id="findings-table">');
    expect(html).toContain('<table id="decisions-table">');
  });

  it("asks a reporter seat for the narrative: journaled, an unknown id refused and asked again, reused the next time", async () => {
    const dir = join(work, "redis-narrated");
    await cp(join(work, "redis"), dir, { recursive: true });
    await addReplayReporter(dir, [narrative("r09-f9"), narrative("r01-f1")]);
    const { facts, html, markdown } = await reportOf("redis-narrated");
    expect(facts.narrative).toEqual({ status: "written", cited: ["r01-f1", "r03-f1"] });
    const journal = join(dir, ".debate/journal");
    const calls = (await readdir(journal)).filter((f) => f.includes("-reporter-"));
    expect(calls).toEqual(["x0003-9-report-reporter-a001.json", "x0003-9-report-reporter-a002.json"]);
    const refused = JSON.parse(await readFile(join(journal, calls[0]!), "utf8"));
    expect(refused.validation.ok).toBe(false);
    expect(refused.validation.errors[0]).toContain("NARRATIVE_UNKNOWN_ID");
    expect(refused.validation.errors[0]).toContain("[r09-f9]");
    expect(markdown).toContain("## Narrative analysis");
    expect(markdown).toContain("the concern \\[r01-f1\\] came back");
    expect(html).toContain('<h2 id="narrative">Narrative analysis</h2>');
    // the reporter's calls are in the usage table like any seat's
    // (replay seats are on record as free, with no tokens: the ledger's rule)
    // (its first answer was refused: rejected, not failed)
    expect(markdown).toMatch(/\| reporter \| replay \| 2 \| 0 \| 1 \| 0 in \/ 0 out \| \\\$0\.0000 \|/);
    // Same state, same prompt: the journaled answer is reused, no new call.
    const again = await debate(["report", dir]);
    expect(again.stdout).toContain("narrative by the reporter seat (replay), citing r01-f1, r03-f1");
    expect((await readdir(journal)).filter((f) => f.includes("-reporter-"))).toHaveLength(2);
  });

  it("writes the whole report when the reporter seat stays invalid, and says so", async () => {
    const dir = join(work, "redis-bad-reporter");
    await cp(join(work, "redis"), dir, { recursive: true });
    await addReplayReporter(dir, Array(3).fill("Too short, see https://example.com"));
    const { facts, markdown } = await reportOf("redis-bad-reporter");
    expect(facts.narrative.status).toBe("failed");
    expect(facts.narrative.error).toContain("still invalid after 3 attempt(s)");
    expect(facts.headline).toMatch(/^decision D/);
    expect(markdown).toContain("## Findings by severity per round");
    expect(markdown).toContain("The reporter seat (replay) gave no usable analysis");
    const refused = JSON.parse(
      await readFile(join(dir, ".debate/journal/x0003-9-report-reporter-a001.json"), "utf8"),
    );
    expect(refused.validation.errors.join(" ")).toMatch(
      /NARRATIVE_LENGTH.*NARRATIVE_MARKUP|NARRATIVE_MARKUP.*NARRATIVE_LENGTH/,
    );
  });

  it("--open hands report.html to $BROWSER, a real process that records its argument", async () => {
    const opener = join(work, "opener.mjs");
    const record = join(work, "opened.txt");
    await writeFile(
      opener,
      `#!${process.execPath}\nimport { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
    );
    await chmod(opener, 0o755);
    const made = await debate(["report", join(work, "halt-ai-development"), "--open"], { BROWSER: opener });
    expect(made.code).toBe(0);
    expect(made.stderr).toBe("");
    await expect.poll(() => readFile(record, "utf8").catch(() => ""), { timeout: 10_000 }).not.toBe("");
    expect(JSON.parse(await readFile(record, "utf8"))).toEqual([
      join(work, "halt-ai-development/report.html"),
    ]);
    // an opener that does not exist is a warning; the report is written all the same
    const missing = await debate(["report", join(work, "halt-ai-development"), "--open"], {
      BROWSER: join(work, "no-such-opener"),
    });
    expect(missing.code).toBe(0);
    expect(missing.stderr).toContain("warning: could not open");
  });

  it("prints the verdict and where the files went, and refuses a folder that is not a debate", async () => {
    const plain = await debate(["report", join(work, "halt-ai-development")]);
    expect(plain.stdout).toBe(
      `the proposition wins: +2.05 to -2.05\nwrote ${join(work, "halt-ai-development/report.md")}, ${join(work, "halt-ai-development/report.html")}\n`,
    );
    const missing = await debate(["report", join(work, "nowhere")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("nowhere");
  });
});
