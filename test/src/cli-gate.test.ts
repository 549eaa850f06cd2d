import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { validateGateResult } from "@debatekit/schema";
import AjvDraft04 from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bugCritique as bug,
  buggySum,
  gitEnv,
  goodSum as good,
  bugJudgment as judgeBug,
} from "./gate-fixtures.js";
import { repoRoot, runDebateAsync } from "./workspace.js";

// `debate gate` end to end through the built CLI: a real git repository (main, a clean change and a
// change with a real bug), every seat an `http` seat on the loopback model server, which scripts the
// critic and the judges by model name and fails or hangs on demand.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const clean = JSON.stringify({ findings: [], recommendation: "A", agree: true });
const judgeClean = JSON.stringify({ classifications: [], recommendation: "A", reasons: ["Nothing to fix."] });

function reply(request: ModelRequest) {
  const prompt = request.allText;
  switch (request.model) {
    case "critic":
      return prompt.includes("xs.length - 1") ? bug : clean;
    case "judge":
      return prompt.includes("r01-f1 [P1]") ? judgeBug : judgeClean;
    case "down":
      return {
        error: 503 as const,
        message: "upstream overloaded: try again later (sk-ant-api03-Zq8xK2mP9vL4nR7tW1yB6cD3fG5hJ0)",
      };
    case "near":
      // The bug's code is on line 3; the critic names line 4.
      return prompt.includes("xs.length - 1") ? bug.replace('"line":3', '"line":4') : clean;
    case "slow":
      return { hang: true as const };
    default:
      return "?";
  }
}

let work: string;
let repo: string;
let server: ModelServer;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    env: gitEnv,
  })
    .toString()
    .trim();

beforeAll(async () => {
  server = await startModelServer(reply);
  work = await mkdtemp(join(tmpdir(), "cli-gate-"));
  repo = join(work, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  await writeFile(join(repo, "sum.ts"), good);
  git("add", "sum.ts");
  git("commit", "-q", "-m", "sum");
  git("checkout", "-q", "-b", "clean");
  await writeFile(join(repo, "sum.ts"), `${good}\nexport const zero = sum([]);\n`);
  git("commit", "-q", "-am", "zero");
  git("checkout", "-q", "-b", "buggy", "main");
  await writeFile(join(repo, "sum.ts"), buggySum);
  git("commit", "-q", "-am", "faster sum");
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** A policy file whose seats are http seats on the loopback server, by model name. */
async function policy(name: string, seats: Record<string, string>, extra: object = {}): Promise<string> {
  const seat = (model: string) => ({
    adapter: "http",
    base_url: `${server.url}/v1`,
    model,
    timeout_ms: 30_000,
  });
  const data = {
    ...Object.fromEntries(Object.entries(seats).map(([role, model]) => [role, seat(model)])),
    ...extra,
  };
  const file = join(work, `${name}.json`);
  await writeFile(file, JSON.stringify(data));
  return file;
}

function gate(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runDebateAsync(["gate", "--dir", join(work, "debates"), ...args], repo, {
    ...process.env,
    NO_COLOR: "1",
    CI: "1",
    GITHUB_STEP_SUMMARY: "",
    ...env,
  });
}

const seats = { critic: "critic", judge: "judge", author: "judge" };

describe("debate gate", () => {
  it("passes a clean change: exit 0, the reason on stderr, --json valid", async () => {
    git("checkout", "-q", "clean");
    const run = await gate(["--scope", "base:main", "--policy", await policy("ok", seats), "--json"]);
    expect(run.stderr).toMatch(/^gate: pass: decision A \(keep\), no blocking finding in 1 round\(s\)$/m);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(validateGateResult(result).ok).toBe(true);
    expect(result).toMatchObject({
      outcome: "pass",
      exit_code: 0,
      scope: "base:main",
      degraded: [],
      findings: [],
    });
  });

  it("blocks the buggy change: exit 1; SARIF 2.1.0 valid against the official schema; the comment and step summary", async () => {
    git("checkout", "-q", "buggy");
    const summary = join(work, "step-summary.md");
    await writeFile(summary, "");
    const sarif = join(work, "gate.sarif");
    const comment = join(work, "gate.md");
    const run = await gate(
      ["--scope", "base:main", "--policy", await policy("ok", seats), "--sarif", sarif, "--comment", comment],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(run.stderr).toContain(
      "gate: blocked: 1 blocking finding(s): r01-f1 [P1] Off-by-one drops the last element (sum.ts:3)\n",
    );
    expect(run.code).toBe(1);
    const log = JSON.parse(await readFile(sarif, "utf8"));
    const require = createRequire(import.meta.url);
    const schema = require("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    // The official schema has a pattern that is invalid as a unicode RegExp (`-[a-zA-Z]{2}]?$`).
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: "P1",
        level: "error",
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: "sum.ts", uriBaseId: "%SRCROOT%" },
              region: { startLine: 3 },
            },
          },
        ],
        properties: expect.objectContaining({ verdict: "valid", evidence: "verified", blocking: true }),
      }),
    ]);
    const md = await readFile(comment, "utf8");
    expect(md).toContain("## ❌ debatekit gate: **blocked** (exit 1)");
    expect(md).toContain(
      "| **blocks** | P1 | Off-by-one drops the last element | `sum.ts:3` | valid | verified |",
    );
    expect(md).not.toContain("Degraded");
    expect(await readFile(summary, "utf8")).toBe(md);
  });

  it("exits 2 when the critic fails, with the provider's real error (secrets redacted), never 0", async () => {
    git("checkout", "-q", "clean");
    const run = await gate([
      "--scope",
      "base:main",
      "--policy",
      await policy("critic-down", { ...seats, critic: "down" }),
      "--json",
    ]);
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout);
    expect(result.outcome).toBe("undecided");
    expect(result.reason).toMatch(/^undecided: the critic \(http\) failed: .*503.*upstream overloaded/);
    expect(result.degraded).toMatchObject([{ cause: "seat_failed", role: "critic", adapter: "http" }]);
    expect(result.degraded[0].error).toContain("upstream overloaded");
    expect(run.stdout + run.stderr).not.toContain("Zq8xK2mP9vL4nR7tW1yB6cD3fG5hJ0");
    expect(run.stderr.trim().split("\n").at(-1)).toBe(`gate: ${result.reason}`);
  });

  it("exits 0 when the fallback judge saves it; the result says it is degraded", async () => {
    git("checkout", "-q", "clean");
    const comment = join(work, "fallback.md");
    const run = await gate([
      "--scope",
      "base:main",
      "--policy",
      await policy("fallback", { ...seats, judge: "down", fallback_judge: "judge" }),
      "--json",
      "--comment",
      comment,
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ outcome: "pass", decision: "A" });
    expect(result.degraded).toMatchObject([
      { cause: "fallback_judge", role: "judge", adapter: "http", code: "SEAT_EXIT" },
    ]);
    expect(result.degraded[0].error).toContain("upstream overloaded");
    expect(result.reason).toContain("degraded: fallback_judge");
    const md = await readFile(comment, "utf8");
    expect(md.indexOf("**Degraded:**")).toBeLessThan(md.indexOf("debatekit gate: **pass**"));
    // The same state in status: the folder says who failed and who judged instead.
    const status = execFileSync(process.execPath, [bin, "status", result.dir, "--json"]).toString();
    expect(JSON.parse(status)[0]).toMatchObject({ degraded: [{ cause: "fallback_judge" }] });
    expect(
      execFileSync(process.execPath, [bin, "status", result.dir], {
        env: { ...process.env, NO_COLOR: "1" },
      }).toString(),
    ).toContain("complete (degraded: fallback_judge)");
    // And in `debate run`'s summary of the finished folder.
    const run2 = execFileSync(process.execPath, [bin, "run", result.dir], {
      env: { ...process.env, NO_COLOR: "1" },
    }).toString();
    expect(run2).toMatch(
      /degraded \(fallback_judge\): the judge \(http\) failed in round 1; the fallback judge \(http\) answered instead: .*upstream overloaded/,
    );
  });

  it("exits 2 when the fallback judge fails too", async () => {
    git("checkout", "-q", "clean");
    const run = await gate([
      "--scope",
      "base:main",
      "--policy",
      await policy("both-down", { ...seats, judge: "down", fallback_judge: "down" }),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /gate: undecided: the judge panel missed its quorum \(1 of 1\); the judge \(http\) failed: /,
    );
  });

  it("exits 2 when the judge panel misses its quorum (2 of 3 judges down, no fallback)", async () => {
    git("checkout", "-q", "clean");
    const { judge: _j, ...rest } = seats;
    const file = await policy("panel-short", rest);
    const data = JSON.parse(await readFile(file, "utf8"));
    const http = (model: string) => ({ ...data.critic, model });
    await writeFile(
      file,
      JSON.stringify({ ...data, judges: [http("judge"), http("down"), http("down")], quorum: 2 }),
    );
    const run = await gate(["--scope", "base:main", "--policy", file, "--json"]);
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout);
    expect(validateGateResult(result).ok).toBe(true);
    expect(result.outcome).toBe("undecided");
    expect(result.reason).toMatch(
      /^undecided: the judge panel missed its quorum \(2 of 3\); the judge_[23] \(http\) failed: /,
    );
    expect(result.degraded).toMatchObject([{ cause: "quorum_missed", adapter: "http", configured: 3 }]);
    expect(result.degraded[0].error).toContain("upstream overloaded");
    expect(result.degraded[0].error).not.toContain("Zq8xK2mP9vL4nR7tW1yB6cD3fG5hJ0");
    // The folder's debate.md holds the panel as the gate wrote it.
    expect(await readFile(join(result.dir, "debate.md"), "utf8")).toMatch(/judges:\n {2}panel:\n/);
  });

  it("exits 0 when the fallback judge saves a panel that missed its quorum; a 2-judge panel decides by majority", async () => {
    git("checkout", "-q", "clean");
    const { judge: _j, ...rest } = seats;
    const file = await policy("panel-fallback", { ...rest, fallback_judge: "judge" });
    const data = JSON.parse(await readFile(file, "utf8"));
    const http = (model: string) => ({ ...data.critic, model });
    await writeFile(file, JSON.stringify({ ...data, judges: [http("judge"), http("down")], quorum: 2 }));
    const run = await gate(["--scope", "base:main", "--policy", file, "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ outcome: "pass", decision: "A" });
    expect(result.degraded).toMatchObject([{ cause: "fallback_judge", role: "judge_2", adapter: "http" }]);
    expect(result.reason).toContain("degraded: fallback_judge");
    const panel = await readFile(join(result.dir, "judges", "r01.md"), "utf8");
    expect(panel).toMatch(/answered: 2\n/);
    expect(panel).toMatch(/fallback_used: true\n/);
    expect(panel).toMatch(/votes:\n {2}judge: A\n {2}judge_fallback: A\n/);
  });

  it("--judge and --judges together are a usage error (exit 2)", async () => {
    const run = await gate(["--scope", "base:main", "--judge", "claude", "--judges", "codex,gemini"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give --judge (one judge) or --judges (a panel), not both");
  });

  it("exits 2 when the budget runs out before a decision", async () => {
    git("checkout", "-q", "buggy");
    const run = await gate([
      "--scope",
      "base:main",
      "--policy",
      await policy("slow", { ...seats, critic: "slow" }, { budget_minutes: 0.02 }),
      "--json",
    ]);
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ outcome: "undecided", stop_reason: "budget" });
    expect(result.reason).toMatch(/^undecided: the 0.02-minute budget ran out before a decision/);
    expect(result.degraded.map((d: { cause: string }) => d.cause)).toEqual(["seat_failed", "budget_spent"]);
  });

  it("a bad policy is undecided (exit 2), naming the file and the field", async () => {
    const file = join(work, "bad.yml");
    await writeFile(file, "block_on: [P9]\n");
    const run = await gate(["--scope", "base:main", "--policy", file, "--json"]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).reason).toMatch(
      /^undecided: .*bad\.yml: field `block_on\[0\]` must be one of/,
    );
    const flag = await gate(["--intensity", "huge"]);
    expect(flag.code).toBe(2);
  });
  it("an install command in the comment is a code span copied as written, never a broken @-mention", async () => {
    git("checkout", "-q", "clean");
    const file = join(work, "codex-critic.json");
    await writeFile(file, JSON.stringify({ critic: { adapter: "codex" } }));
    const comment = join(work, "install.md");
    // No `codex` on PATH: git alone, so the critic seat fails with its install hint.
    const bin = join(work, "bin-git-only");
    execFileSync("mkdir", ["-p", bin]);
    execFileSync("ln", ["-sf", execFileSync("which", ["git"]).toString().trim(), join(bin, "git")]);
    const run = await gate(["--scope", "base:main", "--policy", file, "--comment", comment], {
      PATH: `${bin}:${join(process.execPath, "..")}`,
    });
    expect(run.code).toBe(2);
    const text = await readFile(comment, "utf8");
    expect(text).toContain("`npm install -g @openai/codex`");
    expect(text).not.toContain("@&#8203;openai/codex");
  });
  it("a quote found on a nearby line anchors the finding there: SARIF, the comment and the folder name that line", async () => {
    git("checkout", "-q", "buggy");
    const sarif = join(work, "near.sarif");
    const comment = join(work, "near.md");
    const dir = join(work, "near-debates");
    const run = await runDebateAsync(
      [
        "gate",
        "--dir",
        dir,
        "--scope",
        "base:main",
        "--policy",
        await policy("near", { ...seats, critic: "near" }),
        "--sarif",
        sarif,
        "--comment",
        comment,
        "--json",
      ],
      repo,
      { ...process.env, NO_COLOR: "1", CI: "1", GITHUB_STEP_SUMMARY: "" },
    );
    const result = JSON.parse(run.stdout);
    expect(result.findings[0]).toMatchObject({ file: "sum.ts", line: 3, evidence_status: "verified" });
    const log = JSON.parse(await readFile(sarif, "utf8"));
    expect(log.runs[0].results[0].locations[0].physicalLocation.region.startLine).toBe(3);
    const text = await readFile(comment, "utf8");
    expect(text).toContain("`sum.ts:3`");
    expect(text).not.toContain("sum.ts:4");
    // The review folder records the line the code was found on, never the line the critic named.
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    const saved = await Promise.all(files.map((e) => readFile(join(e.parentPath, e.name), "utf8")));
    expect(saved.some((t) => /\bline"?:\s*3\b/.test(t))).toBe(true);
    expect(saved.some((t) => /\bline"?:\s*4\b/.test(t))).toBe(false);
  });
});
