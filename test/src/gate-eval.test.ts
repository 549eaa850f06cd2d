import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  keysOf,
  type ModelReply,
  type ModelRequest,
  type ModelServer,
  startModelServer,
} from "@debatekit/model-server";
import { validateGateEvalCase, validateGatePolicy } from "@debatekit/schema";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { exited, freePort, REDIS, spawnDebate } from "./queue-helpers.js";
import { repoRoot, runDebateAsync } from "./workspace.js";

// `debate gate eval` end to end: the offline example (a repository with real bug-introducing and
// fixing commits, the set `gate eval build` makes of it, `gate eval run` with http seats on a
// loopback model server), its figures checked against values worked out by hand, and a run killed
// with SIGKILL in the middle of a case, then resumed.
const example = join(repoRoot, "examples/gate-eval");
const { makeCartRepo } = (await import(pathToFileURL(join(example, "make-repo.mjs")).href)) as {
  makeCartRepo: (dir: string) => Record<string, string>;
};
const { reply } = (await import(pathToFileURL(join(example, "seats.mjs")).href)) as {
  reply: (request: ModelRequest) => ModelReply;
};

interface Figure {
  k: number;
  n: number;
  value?: number;
  low?: number;
  high?: number;
}

/**
 * The example's figures by hand. The scripted critic catches the discount bug (P1) and the rounding
 * bug (P2), misses the counting bug and wrongly flags free shipping (P1). block_on [P1]: bad 1
 * blocked / 2 passed, good 1 blocked / 2 passed; [P1, P2]: bad 2 / 1, good 1 / 2. Wilson (z = 1.96):
 * 1/2 -> [0.0945, 0.9055], 1/3 -> [0.0615, 0.7923], 2/3 -> [0.2077, 0.9385], 0/6 -> [0, 0.3903].
 */
function expectHandFigures(summary: {
  cases: object;
  thresholds: Array<{ threshold: string; confusion: object; rates: Record<string, Figure>; pointed: object }>;
  offline: boolean;
}) {
  const close = (f: Figure, k: number, n: number, low: number, high: number) => {
    expect([f.k, f.n]).toEqual([k, n]);
    expect(f.value).toBeCloseTo(k / n, 10);
    expect(f.low).toBeCloseTo(low, 4);
    expect(f.high).toBeCloseTo(high, 4);
  };
  expect(summary.cases).toEqual({ n: 6, bad: 3, good: 3 });
  expect(summary.offline).toBe(true);
  const [p1, p12] = summary.thresholds;
  expect(p1!.threshold).toBe("P1");
  expect(p1!.confusion).toEqual({
    bad: { blocked: 1, pass: 2, undecided: 0 },
    good: { blocked: 1, pass: 2, undecided: 0 },
  });
  close(p1!.rates.precision!, 1, 2, 0.0945, 0.9055);
  close(p1!.rates.recall!, 1, 3, 0.0615, 0.7923);
  close(p1!.rates.false_positive_rate!, 1, 3, 0.0615, 0.7923);
  close(p1!.rates.undecided_rate!, 0, 6, 0, 0.3903);
  expect(p1!.pointed).toEqual({ n: 1, line: 1, file: 0, elsewhere: 0 });
  expect(p12!.threshold).toBe("P1,P2");
  expect(p12!.confusion).toEqual({
    bad: { blocked: 2, pass: 1, undecided: 0 },
    good: { blocked: 1, pass: 2, undecided: 0 },
  });
  close(p12!.rates.precision!, 2, 3, 0.2077, 0.9385);
  close(p12!.rates.recall!, 2, 3, 0.2077, 0.9385);
  close(p12!.rates.false_positive_rate!, 1, 3, 0.0615, 0.7923);
  expect(p12!.pointed).toEqual({ n: 2, line: 2, file: 0, elsewhere: 0 });
}

const run = promisify(execFile);
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "gate-eval-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** The example's repository in `dir`/cart and its labelled set `dir`/cart.jsonl, built by `gate eval build`. */
async function buildCartSet(dir: string): Promise<void> {
  makeCartRepo(join(dir, "cart"));
  const build = await runDebateAsync(
    ["gate", "eval", "build", "--repo", "cart", "--out", "cart.jsonl"],
    dir,
    process.env,
  );
  expect(build.code, build.stderr).toBe(0);
  expect(build.stdout).toBe("cart.jsonl: 3 bad, 3 good case(s)\n");
}

/** Writes `dir`/policy.json: `seats` (role -> model name, or a list of them for a panel) as http seats on `server`. */
async function writePolicy(
  dir: string,
  server: ModelServer,
  seats: Record<string, string | string[]>,
): Promise<void> {
  const seat = (model: string) => ({
    adapter: "http",
    base_url: `${server.url}/v1`,
    model,
    timeout_ms: 30_000,
  });
  const policy = Object.fromEntries(
    Object.entries(seats).map(([role, model]) => [
      role,
      Array.isArray(model) ? model.map(seat) : seat(model),
    ]),
  );
  await writeFile(join(dir, "policy.json"), JSON.stringify(policy));
}

/**
 * A loopback model server scripted by the example's seats whose judge never answers on the
 * free-shipping case (the fourth) until `release()`: a run is inside that case, its critic's answer
 * journaled, while the judge is stuck.
 */
async function serverStuckOnFreeShipping(): Promise<{
  server: ModelServer;
  release: () => void;
  stuck: () => Promise<void>;
}> {
  let hang = true;
  const server = await startModelServer((request) =>
    hang && request.model === "judge" && request.allText.includes("Free shipping starts above 50")
      ? { hang: true }
      : reply(request),
  );
  const stuck = async () => {
    const asked = () =>
      server.requests.some((r) => r.model === "judge" && r.allText.includes("Free shipping"));
    for (let waited = 0; !asked(); waited += 100) {
      expect(waited, "the evaluation never reached the free-shipping case").toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    server,
    release: () => {
      hang = false;
    },
    stuck,
  };
}

/**
 * After a stopped evaluation was resumed: the hand-computed figures, only the cut-off case's judge
 * asked again (its critic's answer was kept), and every seat call answered once.
 */
function expectResumedOnce(server: ModelServer, before: number, stdout: string): void {
  expectHandFigures(JSON.parse(stdout));
  const again = server.requests.slice(before);
  expect(again.filter((r) => r.allText.includes("return amount > 50")).map((r) => r.model)).toEqual([
    "judge",
  ]);
  const answered = keysOf(server.requests, "answered");
  expect(answered).toEqual([...new Set(answered)]);
  expect(answered).toHaveLength(12);
}

describe("debate gate eval", () => {
  it("the offline example builds its set by SZZ and runs end to end in under a minute, with the hand-computed figures", async () => {
    const dir = join(work, "example");
    const started = Date.now();
    const ran = await run(process.execPath, [join(example, "run.mjs"), dir], { cwd: repoRoot });
    expect(Date.now() - started).toBeLessThan(60_000);
    const lines = (await readFile(join(dir, "cart.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const c of lines) expect(validateGateEvalCase(c).ok).toBe(true);
    expect(lines.map((c) => [c.label, c.defects])).toEqual([
      ["bad", [{ file: "cart.js", line: 7 }]],
      ["bad", [{ file: "cart.js", line: 10 }]],
      ["bad", [{ file: "cart.js", line: 14 }]],
      ["good", undefined],
      ["good", undefined],
      ["good", undefined],
    ]);
    expectHandFigures(JSON.parse(await readFile(join(dir, "cart.eval", "eval.json"), "utf8")));
    // eval.md is what the example prints: the figures with their case counts and the one-line caveat.
    expect(ran.stdout).toContain("they measure the pipeline, not a model");
    expect(ran.stdout).toContain("| recall (bad changes blocked) | 33.3% [6.1%, 79.2%] (1/3) |");
    expect(ran.stdout).toContain(
      "| precision (blocked changes that were bad) | 66.7% [20.8%, 93.9%] (2/3) |",
    );
    // A threshold asked for later is worked out from the stored reviews: no seat is asked (the
    // example's model server is gone), and nothing in the set is P3, so it blocks as [P1, P2] does.
    const again = await runDebateAsync(
      ["gate", "eval", "run", "cart.jsonl", "--policy", "policy.json", "--block-on", "P1,P2,P3", "--json"],
      dir,
      process.env,
    );
    expect(again.code, again.stderr).toBe(0);
    const [wider] = JSON.parse(again.stdout).thresholds;
    expect(wider.threshold).toBe("P1,P2,P3");
    expect(wider.confusion).toEqual({
      bad: { blocked: 2, pass: 1, undecided: 0 },
      good: { blocked: 1, pass: 2, undecided: 0 },
    });
    // tune: from the stored results (no seat asked), the severities reaching precision 0.6 with the
    // best recall are [P1, P2] (2/3 precision, 2/3 recall; [P1] has 1/2): a policy file with its figures.
    const tuned = await runDebateAsync(["gate", "eval", "tune", "cart.jsonl"], dir, process.env);
    expect(tuned.code, tuned.stderr).toBe(0);
    expect(tuned.stdout).toBe(`${join("cart.eval", "tuned-policy.yml")}: block_on [P1, P2]\n`);
    const policyText = await readFile(join(dir, "cart.eval", "tuned-policy.yml"), "utf8");
    expect(policyText).toContain(
      "#   block_on [P1, P2]: precision 66.7% [20.8%, 93.9%] (2/3), recall 66.7% [20.8%, 93.9%] (2/3), false-positive rate 33.3% [6.1%, 79.2%] (1/3)",
    );
    const tunedPolicy = parseYaml(policyText);
    expect(tunedPolicy.block_on).toEqual(["P1", "P2"]);
    expect(validateGatePolicy(tunedPolicy).ok).toBe(true);
    const unreachable = await runDebateAsync(
      ["gate", "eval", "tune", "cart.jsonl", "--target", "0.9"],
      dir,
      process.env,
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain("no severity threshold reaches precision 0.9 on these 6 case(s)");
    // eval.md carries the labels' measured quality.
    expect(ran.stdout).toContain("## Labels");
    expect(ran.stdout).toMatch(/bad labels right \d+\.\d% \[/);
    // Results of one policy are never mixed with another's.
    await writeFile(join(dir, "other.json"), JSON.stringify({ block_on: ["P1"] }));
    const other = await runDebateAsync(
      ["gate", "eval", "run", "cart.jsonl", "--policy", "other.json"],
      dir,
      process.env,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /cart\.eval: holds results of another policy .*give another --out, or remove the folder/,
    );
  }, 90_000);

  it.each([
    ["SIGKILL", null],
    ["SIGINT", 130],
  ] as const)(
    "stopped with %s in the middle of a case, then resumed: the same figures, no answered seat call asked twice",
    async (signal, code) => {
      const dir = join(work, `stopped-${signal}`);
      await buildCartSet(dir);
      const { server, release, stuck } = await serverStuckOnFreeShipping();
      try {
        await writePolicy(dir, server, { critic: "critic", judge: "judge", author: "judge" });
        const args = [
          "gate",
          "eval",
          "run",
          "cart.jsonl",
          "--policy",
          "policy.json",
          "--parallel",
          "1",
          "--json",
        ];
        const bin = join(repoRoot, "apps/debate/dist/bin.js");
        const child = spawn(process.execPath, [bin, ...args], {
          cwd: dir,
          env: process.env,
          stdio: "ignore",
        });
        const exited = new Promise<number | null>((done) => child.on("close", done));
        await stuck();
        child.kill(signal);
        expect(await exited).toBe(code);
        // The three cases before it are done; the one cut off is not.
        const done = await readdir(join(dir, "cart.eval", "cases"));
        expect(done.filter((f) => f.startsWith("bad-"))).toHaveLength(3);
        expect(done).toHaveLength(3);
        const before = server.requests.length;
        release();
        const resumed = await runDebateAsync(args, dir, process.env);
        expect(resumed.code, resumed.stderr).toBe(0);
        // The cases finished before the kill were not run again.
        expectResumedOnce(server, before, resumed.stdout);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
  it("a judge panel: the judges' agreement is Cohen's kappa over the judged rounds (hand-computed 0.4)", async () => {
    const dir = join(work, "panel");
    await buildCartSet(dir);
    // The second judge accepts the critique of the rounding bug (B) where the first keeps the change
    // (A); they agree on the other two bad cases. Votes (B, B), (A, B), (A, A): observed 2/3; chance
    // 2/3 * 1/3 + 1/3 * 2/3 = 4/9; kappa (2/3 - 4/9) / (5/9) = 0.4.
    const server = await startModelServer((request) =>
      request.model === "judge-b" && request.allText.includes("Rounding down loses cents")
        ? JSON.stringify({
            classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "Floor loses a cent." }],
            recommendation: "B",
            reasons: ["A valid P2 is worth a change."],
          })
        : reply({ ...request, model: request.model.startsWith("judge") ? "judge" : request.model }),
    );
    try {
      await writePolicy(dir, server, { critic: "critic", author: "judge", judges: ["judge", "judge-b"] });
      const ran = await runDebateAsync(
        ["gate", "eval", "run", "cart.jsonl", "--policy", "policy.json", "--limit", "3", "--json"],
        dir,
        process.env,
      );
      expect(ran.code, ran.stderr).toBe(0);
      const summary = JSON.parse(ran.stdout);
      expect(summary.cases).toEqual({ n: 3, bad: 3, good: 0 });
      // Every call counts, each panel judge's too: the critic and both judges, once per case.
      expect(keysOf(server.requests, "answered")).toHaveLength(9);
      expect(summary.per_change).toMatchObject({ n: 3, calls: 3 });
      expect(summary.agreement).toMatchObject({ method: "cohen", judges: 2, items: 3 });
      expect(summary.agreement.kappa).toBeCloseTo(0.4, 10);
      expect(await readFile(join(dir, "cart.eval", "eval.md"), "utf8")).toContain(
        "- Judge agreement: Cohen's kappa 0.40 (2 judges, 3 judged rounds)",
      );
    } finally {
      await server.close();
    }
  }, 120_000);
  it("SZZ on a public repository's history (a slice of mitt, a bundle): the suspects checked by hand with git blame", async () => {
    // test/fixtures/szz-mitt/README.md: where the slice comes from and the hand check.
    const dir = join(work, "szz-mitt");
    await mkdir(dir, { recursive: true });
    await run(
      "git",
      ["clone", "-q", "-b", "slice", join(repoRoot, "test/fixtures/szz-mitt/mitt.bundle"), "mitt"],
      {
        cwd: dir,
      },
    );
    const built = await runDebateAsync(
      ["gate", "eval", "build", "--repo", "mitt", "--out", "mitt.jsonl", "--json"],
      dir,
      process.env,
    );
    expect(built.code, built.stderr).toBe(0);
    const { notes } = JSON.parse(built.stdout) as { notes: string[] };
    const cases = (await readFile(join(dir, "mitt.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const short = (sha?: string) => sha?.slice(0, 7);
    const bad = cases
      .filter((c) => c.label === "bad")
      .map((c) => [
        short(c.head),
        short(c.fix),
        c.defects.map((d: { file: string; line: number }) => `${d.file}:${d.line}`),
      ]);
    expect(bad).toEqual(
      expect.arrayContaining([
        ["22ee5e8", "7b23618", ["src/index.js:51"]],
        // The README's lines are docs: only the type definition counts.
        ["c09055b", "4bdde7d", ["mitt.d.ts:11"]],
        ["b7d8bec", "fb03239", ["rollup.config.js:4"]],
        // package.json's "testonly" script line is inert: only the dependency line counts.
        ["8a7e10d", "8c0dcfe", ["package.json:73"]],
        // Blamed by 22ee5e8 and 7b23618: one case, labelled with the earlier fix. 712dd1e says
        // `fix(...)` only in its body ("Add Standard Version"): no fix.
        ["ab7c4b8", "22ee5e8", ["src/index.js:54"]],
      ]),
    );
    expect(bad).toHaveLength(5);
    // As many good changes, none of them blamed.
    const good = cases.filter((c) => c.label === "good").map((c) => short(c.head));
    expect(good).toHaveLength(5);
    for (const [head] of bad) expect(good).not.toContain(head);
    // 5793881 ("more precise type annotation") has no fix word: 7b23618 is no case.
    expect(bad.map(([head]) => head)).not.toContain("7b23618");
    // The real bug fix of the slice blames lines older than the slice; a fix that only adds lines has no suspect.
    expect(notes).toContain("c0a3d0c: blamed c31b222, the root commit (no base to compare with): skipped");
    expect(notes).toContain(
      "36706e0: only adds lines (or changes whitespace, comments, tests, docs or lock files): no suspect",
    );
    expect(notes).toContain("8c0dcfe: blamed 924db1e, huge (6 files, 4561 lines): skipped");
  });
  it("docs: 'Before you make the gate required' fits one screen, says what scripted figures measure, and its flags exist", async () => {
    const doc = await readFile(join(repoRoot, "docs/gate-eval.md"), "utf8");
    const section = doc.split(/^## /m).find((s) => s.startsWith("Before you make the gate required"))!;
    const lines = section.trimEnd().split("\n");
    // One terminal screen: 24 lines of at most 100 characters, the heading included.
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(section.replace(/\s+/g, " ")).toContain("measure the pipeline, not a model");
    for (const sub of ["build", "run"]) {
      const help = await runDebateAsync(["gate", "eval", sub, "--help"], work, process.env);
      const used = lines
        .filter((l) => l.startsWith(`debate gate eval ${sub} `) || (sub === "run" && l.startsWith("# ->")))
        .flatMap((l) => l.match(/--[a-z-]+/g) ?? []);
      expect(used.length).toBeGreaterThan(0);
      for (const flag of used) expect(help.stdout).toContain(flag);
    }
  });
  it("bad input is a clear error (exit 2) naming the flag, or the file, line and field", async () => {
    const dir = join(work, "bad-input");
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "set.jsonl"),
      `${JSON.stringify({ id: "a", repo: ".", base: "abcdef0", head: "abcdef1", label: "good", reasons: ["r"] })}\n{"id":"b"}\n`,
    );
    await writeFile(join(dir, "policy.json"), "{}");
    const noRepo = await runDebateAsync(["gate", "eval", "build", "--repo", "missing"], dir, process.env);
    expect([noRepo.code, noRepo.stderr]).toEqual([
      2,
      "debate: --repo missing: not a folder (expected a git repository on disk)\n",
    ]);
    const badLine = await runDebateAsync(
      ["gate", "eval", "run", "set.jsonl", "--policy", "policy.json"],
      dir,
      process.env,
    );
    expect(badLine.code).toBe(2);
    expect(badLine.stderr).toMatch(/^debate: .*set\.jsonl:2: field `repo` is required; a valid case: \{/);
    const badThreshold = await runDebateAsync(
      ["gate", "eval", "run", "set.jsonl", "--policy", "policy.json", "--block-on", "P4"],
      dir,
      process.env,
    );
    expect([badThreshold.code, badThreshold.stderr]).toEqual([
      2,
      'debate: --block-on: expected severities P1, P2, P3 joined by commas (e.g. P1,P2), got "P4"\n',
    ]);
  });
});

describe("debate gate eval run --queue", () => {
  // The cases run on `debate worker` processes through a real redis-server on loopback (Debian's,
  // started here on a free port, never a system service), as a tournament's debates do.
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited(child);
      }
    }
  });

  /** redis-server on a free loopback port, without persistence (it outlives every worker of a test). */
  async function startRedis(): Promise<string> {
    const port = await freePort();
    const child = spawn(
      REDIS!,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    children.push(child);
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
    });
    for (let waited = 0; !/Ready to accept connections/.test(out); waited += 50) {
      expect(waited, "redis-server did not start").toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    return `redis://127.0.0.1:${port}`;
  }

  /**
   * A `debate worker` in a folder of its own, running the policy's http seats on `server` (and
   * nothing else); a dead worker's job is taken over within about 3 s.
   */
  function startWorker(dir: string, url: string, name: string, server: ModelServer): ChildProcess {
    const { child } = spawnDebate(
      [
        "worker",
        url,
        "--adapters",
        "http",
        "--endpoint",
        server.url,
        "--dir",
        join(dir, "workers", name),
        "--lock-duration",
        "2000",
        "--stalled-interval",
        "1000",
      ],
      { cwd: dir, env: process.env },
    );
    children.push(child);
    return child;
  }

  /**
   * `gate eval run <set> --queue` on `workers` new workers, the example's seats on a loopback model
   * server (the caller closes it); the run must succeed.
   */
  async function runQueued(
    dir: string,
    set: string,
    workers: number,
    answer: (request: ModelRequest) => ModelReply = reply,
    extra: string[] = [],
  ) {
    const url = await startRedis();
    const server = await startModelServer(answer);
    await writePolicy(dir, server, { critic: "critic", judge: "judge", author: "judge" });
    for (let i = 1; i <= workers; i++) startWorker(dir, url, `w${i}`, server);
    const ran = await runDebateAsync(
      ["gate", "eval", "run", set, "--policy", "policy.json", "--queue", url, "--json", ...extra],
      dir,
      process.env,
    );
    expect(ran.code, ran.stderr).toBe(0);
    return { server, stdout: ran.stdout };
  }

  it("two workers give the figures of a local run, each seat call answered once", async () => {
    const dir = join(work, "queue-two");
    await buildCartSet(dir);
    const { server, stdout } = await runQueued(dir, "cart.jsonl", 2);
    try {
      const queued = JSON.parse(stdout);
      expectHandFigures(queued);
      const answered = keysOf(server.requests, "answered");
      expect(answered).toEqual([...new Set(answered)]);
      expect(answered).toHaveLength(12);
      // The same set run in this process: every figure alike (seat calls per change included) but time.
      const local = await runDebateAsync(
        ["gate", "eval", "run", "cart.jsonl", "--policy", "policy.json", "--out", "local.eval", "--json"],
        dir,
        process.env,
      );
      expect(local.code, local.stderr).toBe(0);
      const untimed = (summary: { per_change: object }) => ({
        ...summary,
        per_change: { ...summary.per_change, wall_ms: 0 },
      });
      expect(untimed(queued)).toEqual(untimed(JSON.parse(local.stdout)));
      expect(queued.per_change.calls).toBe(2);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("a queued review asks with the role prompts of the case's base revision, as the gate in CI would", async () => {
    const dir = join(work, "queue-prompts");
    const repo = join(dir, "repo");
    await mkdir(join(repo, ".debatekit", "agents"), { recursive: true });
    const git = (...args: string[]) => run("git", args, { cwd: repo });
    await git("init", "-q", "-b", "main");
    await git("config", "user.email", "t@example.com");
    await git("config", "user.name", "t");
    const critique = await readFile(join(repoRoot, "agents/review-critique.md"), "utf8");
    await writeFile(
      join(repo, ".debatekit/agents/review-critique.md"),
      critique.replace(/\n---\n\n/, "\n---\n\nTEAM CRITIC RULES FROM THE BASE\n\n"),
    );
    await writeFile(join(repo, "a.js"), "export const a = 1;\n");
    await git("add", "-A");
    await git("commit", "-q", "-m", "a, and the team's critic prompt");
    const base = (await git("rev-parse", "HEAD")).stdout.trim();
    await writeFile(join(repo, "a.js"), "export const a = 2;\n");
    await git("commit", "-q", "-am", "a is 2");
    const head = (await git("rev-parse", "HEAD")).stdout.trim();
    await writeFile(
      join(dir, "set.jsonl"),
      `${JSON.stringify({ id: "good-a", repo: "repo", base, head, label: "good", reasons: ["a hand-written case"] })}\n`,
    );
    const { server } = await runQueued(dir, "set.jsonl", 1);
    try {
      const critic = server.requests.filter((r) => r.model === "critic");
      expect(critic).toHaveLength(1);
      expect(critic[0]!.allText).toContain("TEAM CRITIC RULES FROM THE BASE");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("a review that fails for good on its workers is an undecided case under every threshold, with its reason", async () => {
    const dir = join(work, "queue-failed");
    await buildCartSet(dir);
    // The critic's provider refuses every call: each attempt of the job fails, then the job does.
    const { server, stdout } = await runQueued(
      dir,
      "cart.jsonl",
      1,
      (request) => (request.model === "critic" ? { error: 400, message: "model not found" } : reply(request)),
      ["--limit", "1"],
    );
    try {
      const summary = JSON.parse(stdout);
      expect(summary.cases).toEqual({ n: 1, bad: 1, good: 0 });
      for (const t of summary.thresholds)
        expect(t.confusion.bad).toEqual({ blocked: 0, pass: 0, undecided: 1 });
      const [file] = await readdir(join(dir, "cart.eval", "cases"));
      const record = JSON.parse(await readFile(join(dir, "cart.eval", "cases", file!), "utf8"));
      expect(record.gate.outcome).toBe("undecided");
      expect(record.reason).toMatch(/^undecided: .*model not found/);
    } finally {
      await server.close();
    }
  }, 90_000);

  it("a worker killed with SIGKILL mid-case, the evaluation too, then resumed: the same figures, no answered seat call asked twice", async () => {
    const dir = join(work, "queue-killed");
    await buildCartSet(dir);
    const url = await startRedis();
    // The worker is inside the free-shipping case, its critic's answer checkpointed, when it is killed.
    const { server, release, stuck } = await serverStuckOnFreeShipping();
    try {
      await writePolicy(dir, server, { critic: "critic", judge: "judge", author: "judge" });
      const args = ["gate", "eval", "run", "cart.jsonl", "--policy", "policy.json", "--queue", url, "--json"];
      const first = startWorker(dir, url, "w1", server);
      const evaluation = spawnDebate(args, { cwd: dir, env: process.env });
      children.push(evaluation.child);
      await stuck();
      first.kill("SIGKILL");
      evaluation.child.kill("SIGKILL");
      await Promise.all([exited(first), exited(evaluation.child)]);
      const before = server.requests.length;
      release();
      startWorker(dir, url, "w2", server);
      const resumed = await runDebateAsync(args, dir, process.env);
      expect(resumed.code, resumed.stderr).toBe(0);
      // The cut-off case's critic answer came back from Redis.
      expectResumedOnce(server, before, resumed.stdout);
    } finally {
      await server.close();
    }
  }, 150_000);
});
