import { spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

function debate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: "1", CI: "1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
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
      alerts: [],
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
    expect(markdown).toContain("### verdict");
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

  it("reports a format without a reporter (review, for now) with its header and seats, and no verdict section", async () => {
    await cp(join(repoRoot, "examples/review-sum/redis"), join(work, "redis"), { recursive: true });
    expect((await debate(["run", join(work, "redis")])).code).toBe(0);
    const { facts, markdown } = await reportOf("redis");
    expect(facts).toMatchObject({ format: "review", status: "complete", alerts: [] });
    expect(facts.nodes).toBeUndefined();
    expect(markdown).toContain("| Progress | 3 of 3 rounds |");
    expect(markdown).toMatch(/\| critic \| replay \| 3 \| 0 \|/);
    expect(markdown).not.toContain("## Verdict");
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
