import { execFileSync, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateReviewDecision } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate review` end to end through the built CLI: a real git repository, the recorded answers of
// examples/review-sum (a code change with a real bug, a proposal), manual decisions.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/review-sum");
const good =
  "export function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n";

let work: string;
let repo: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-review-"));
  repo = join(work, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: repo,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  await writeFile(join(repo, "sum.ts"), good);
  git("add", "sum.ts");
  git("commit", "-q", "-m", "sum");
  await writeFile(join(repo, "sum.ts"), good.replace("i < xs.length;", "i < xs.length - 1;"));
  git("commit", "-q", "-am", "faster sum");
});
afterAll(() => rm(work, { recursive: true, force: true }));

function debate(
  args: string[],
  cwd = work,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
  });
  child.stdin.end(stdin ?? "");
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

const replaySeats = ["--critic", "replay", "--author", "replay", "--judge", "replay", "--no-run"];

async function reviewCommit(slug: string, extra: string[] = []): Promise<string> {
  const made = await debate(
    [
      "review",
      "--scope",
      "commit:HEAD",
      ...replaySeats,
      "--slug",
      slug,
      "--dir",
      join(work, "debates"),
      ...extra,
    ],
    repo,
  );
  // Recorded answers have no findings of their own to favour: no warning that they might.
  expect(made.stderr).not.toContain("is the critic's own adapter");
  expect(made.code).toBe(0);
  const dir = join(work, "debates", slug);
  await copyFile(join(example, "code.jsonl"), join(dir, "replay.jsonl"));
  return dir;
}

/** Creates a review of the example proposal (folder `slug`) with its recorded answers, not yet run. */
async function reviewProposal(slug: string): Promise<string> {
  const made = await debate([
    "review",
    join(example, "proposal.md"),
    ...replaySeats,
    "--slug",
    slug,
    "--dir",
    join(work, "debates"),
  ]);
  expect(made.code).toBe(0);
  const dir = join(work, "debates", slug);
  await copyFile(join(example, "redis/replay.jsonl"), join(dir, "replay.jsonl"));
  return dir;
}

describe("debate review", () => {
  it("a commit with a real bug: the [P1] answer is read, evidence checked against the repository, B materialized", async () => {
    const dir = await reviewCommit("sum");
    const v1 = await readFile(join(dir, "artifact/v1.md"), "utf8");
    expect(v1).toMatch(/^---\nkind: original\nversion: 1\nscope: commit:HEAD\nrevision: [0-9a-f]{40}\n---\n/);
    expect(v1).toContain("+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];");
    expect(v1).toContain("### File `sum.ts` at ");
    expect(await readFile(join(dir, "debate.md"), "utf8")).toMatch(
      /target: code\nmode: auto\nintensity: standard\nmax_rounds: 3\nbudget_minutes: 20\n/,
    );
    const run = await debate(["run", dir]);
    expect(run.code).toBe(0);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(validateReviewDecision(decision).ok).toBe(true);
    expect(decision).toMatchObject({
      decision: "B",
      decided_by: "auto",
      stop_reason: "decision",
      rounds: 1,
      final_artifact: "artifact/v2.md",
      findings: { P1: 1, P2: 1, P3: 0, verified: 1 },
    });
    const critique = await readFile(join(dir, "rounds/r01-critique.md"), "utf8");
    expect(critique).toContain("form: bullets");
    expect(critique).toContain("- r01-f2 [P2] Integer overflow on large arrays (evidence needs_evidence)"); // the invented P1 (no line 40) was demoted
    expect(await readFile(join(dir, "artifact/v2.md"), "utf8")).toContain("i < xs.length; i++");
    const summary = await readFile(join(dir, "summary.md"), "utf8");
    expect(summary).toContain("B — Accept the critique (auto)");
    expect(summary).toContain("Verified by evidence: 1");
    // Its report: the verified P1 is the strongest finding, the invented one the weakest; decision B.
    const reported = await debate(["report", dir, "--json"]);
    expect(reported.code).toBe(0);
    expect(JSON.parse(reported.stdout)).toMatchObject({
      format: "review",
      status: "complete",
      headline: "decision B: accept the critique, after 1 round; stopped by the decision",
      strongest: "r01-f1",
      weakest: "r01-f2",
      nodes: 2,
      edges: 0,
      chartPoints: [1, 1, 1],
    });
    const report = await readFile(join(dir, "report.md"), "utf8");
    expect(report).toContain("| 1 | 1 | 1 | 0 |"); // round 1: one P1, one P2 (the demoted one), no P3
    expect(report).toMatch(/\| r01-f1 \| P1 \| [^|]+ \| sum\.ts:3 \| verified \| round 1: valid \|/);
    expect(report).toMatch(
      /\| r01-f2 \| P2 \| Integer overflow on large arrays \| sum\.ts:40 \| not found \(needs evidence\) \| round 1: /,
    );
    expect(report).toContain(
      "| 1 | 1/1/0 | - | B: accept the critique | B: accept the critique | the accepted version |",
    );
    expect(report).toContain("- **Final artifact**: artifact/v2.md");
  });

  it("a proposal: markdown, JSON and [P1] rewordings of one concern converge after three rounds", async () => {
    const dir = await reviewProposal("redis");
    expect(await readFile(join(dir, "debate.md"), "utf8")).toContain("target: proposal");
    const run = await debate(["run", dir]);
    expect(run.code).toBe(0);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(decision).toMatchObject({
      stop_reason: "converged",
      rounds: 3,
      decision: "D",
      final_artifact: "artifact/v1.md",
    });
    expect(decision.history.map((h: { recommendation: string }) => h.recommendation)).toEqual([
      "D",
      "D",
      "D",
    ]);
    expect(await readFile(join(dir, "rounds/r01-rebuttal.md"), "utf8")).toContain("a restart logs users out");
  });

  it("one finding raised again in other words over rounds is counted once in summary.md, decision.json and the report", async () => {
    const dir = await reviewProposal("redis-once");
    expect((await debate(["run", dir])).code).toBe(0);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    const summary = await readFile(join(dir, "summary.md"), "utf8");
    const listed = (sev: string) => {
      const section = summary.split(`### ${sev}\n\n`)[1]!.split("\n\n")[0]!;
      return section === "- none" ? 0 : section.split("\n").length;
    };
    for (const sev of ["P1", "P2", "P3"]) expect(listed(sev), sev).toBe(decision.findings[sev]);
    // The repeat names every round's id of the one finding it follows.
    expect(summary).toMatch(/- r01-f1, r02-f1, r03-f1 /);
  });

  it("a person in every seat is not warned of favouring their own findings; a CLI judging its own critique is", async () => {
    const seats = (who: string) => ["--critic", who, "--author", who, "--judge", who, "--no-run"];
    const manual = await debate(
      [
        "review",
        join(example, "proposal.md"),
        ...seats("manual"),
        "--slug",
        "people",
        "--dir",
        join(work, "debates"),
      ],
      repo,
    );
    expect(manual.code).toBe(0);
    expect(manual.stderr).not.toContain("critic's own adapter");
    const cli = await debate(
      [
        "review",
        join(example, "proposal.md"),
        ...seats("codex"),
        "--slug",
        "cli",
        "--dir",
        join(work, "debates"),
      ],
      repo,
    );
    expect(cli.stderr).toContain(
      "warning: the judge (codex) is the critic's own adapter, model and endpoint",
    );
  });

  it("manual: the run ends waiting for `decision:`; once written in debate.md the next run applies it", async () => {
    const dir = await reviewCommit("sum-manual", ["--mode", "manual"]);
    const first = await debate(["run", dir]);
    expect(first.code).toBe(0);
    const md = await readFile(join(dir, "debate.md"), "utf8");
    expect(md).toContain("current_phase: awaiting_decision");
    await expect(readFile(join(dir, "decision.json"), "utf8")).rejects.toThrow();
    await writeFile(
      join(dir, "debate.md"),
      md.replace("current_phase: awaiting_decision\n", "current_phase: awaiting_decision\ndecision: A\n"),
    );
    const second = await debate(["run", dir]);
    expect(second.code).toBe(0);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(decision).toMatchObject({
      decision: "A",
      decided_by: "manual",
      final_artifact: "artifact/v1.md",
      unresolved: ["Off-by-one drops the last element"],
    });
  });

  it("manual: an answer in inbox/decision-r01.md is applied by the next `debate run`", async () => {
    const dir = await reviewCommit("sum-inbox", ["--mode", "manual"]);
    const first = await debate(["run", dir]);
    expect(first.code).toBe(0);
    expect(await readFile(join(dir, "debate.md"), "utf8")).toContain("current_phase: awaiting_decision");
    await mkdir(join(dir, "inbox"), { recursive: true });
    await writeFile(join(dir, "inbox/decision-r01.md"), "---\ndecision: E\n---\n");
    const second = await debate(["run", dir]);
    expect(second.code).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "decision.json"), "utf8"))).toMatchObject({
      decision: "E",
      decided_by: "manual",
    });
  });

  it("--text - reads the artifact from stdin; --target mixed is kept", async () => {
    const text =
      "# Proposal: cache sessions in Redis\n\nWe would move sessions out of memory.\n\n```ts\nexport const ttl = 3600;\n```\n";
    const made = await debate(
      [
        "review",
        "--text",
        "-",
        "--target",
        "mixed",
        ...replaySeats,
        "--slug",
        "stdin",
        "--dir",
        join(work, "debates"),
      ],
      work,
      text,
    );
    expect(made.code).toBe(0);
    const dir = join(work, "debates", "stdin");
    expect(await readFile(join(dir, "artifact/v1.md"), "utf8")).toContain(
      "We would move sessions out of memory.",
    );
    expect(await readFile(join(dir, "debate.md"), "utf8")).toContain("target: mixed");
  });

  it("--help says what the decision letters it names mean", async () => {
    const help = await debate(["review", "--help"]);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, " ");
    expect(flat).toContain("--no-materialize");
    expect(flat).toMatch(/--no-materialize [^-]*B \(accept the critique\)/);
  });

  it("refuses two sources, a bad scope and a bad intensity, naming them", async () => {
    const two = await debate(["review", "x.md", "--text", "y"]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("exactly one of <path>, --scope <scope> or --text");
    const scope = await debate(["review", "--scope", "commit:--output=/tmp/x", "--no-run"], repo);
    expect(scope.stderr).toContain("is not a git ref");
    // A ref the repository does not have is named, for review and gate alike.
    for (const [command, value] of [
      ["review", "base:nope"],
      ["review", "commit:nope"],
      ["review", "range:HEAD..nope"],
      ["gate", "base:nope"],
    ] as const) {
      const seats = command === "gate" ? replaySeats.filter((a) => a !== "--no-run") : replaySeats;
      const missing = await debate([command, "--scope", value, ...seats], repo);
      expect(missing.code, `${command} ${value}`).toBe(2);
      expect(missing.stderr, `${command} ${value}`).toContain("no commit named `nope` in the repository");
    }
    const budget = await debate(["review", "--text", "# Design\nx", "--budget-minutes", "0", "--no-run"]);
    expect(budget.code).not.toBe(0);
  });
});
