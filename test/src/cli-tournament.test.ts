import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crossfireAnswer, journaledPrompts, keysOf } from "./model-server/debate-answers.js";
import { startModelServer } from "./model-server/server.js";
import { repoRoot } from "./workspace.js";

// `debate tournament` through the built binary, on the offline example (replay seats): the whole
// flow, then a run stopped by Ctrl-C and one killed with -9, each resumed to the same leaderboard.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/tournament-replay");
const run = promisify(execFile);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-tournament-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const envFor = (log: string) => ({ ...process.env, DEBATEKIT_REPLAY_LOG: log, NO_COLOR: "1", CI: "1" });

async function debate(args: string[], log: string) {
  return run(process.execPath, [bin, ...args], { cwd: work, env: envFor(log) });
}

async function newTournament(name: string, log: string) {
  await debate(
    [
      "tournament",
      "new",
      name,
      "--motions",
      join(example, "motions.jsonl"),
      "--seats",
      "replay:alice,replay:bob,replay:carol",
      "--judges",
      "replay",
      "--format",
      "crossfire",
      "--rounds",
      "1",
      "--replay",
      join(example, "recordings"),
    ],
    log,
  );
  return join(work, name);
}

interface Logged {
  debateId: string;
  exchange: number;
  role: string;
  attempt: number;
  pid: number;
}
const key = (r: { debateId: string; exchange: number; role: string; attempt: number }) =>
  `${r.debateId}/${r.exchange}/${r.role}/${r.attempt}`;

async function readLog(log: string): Promise<Logged[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Logged);
}

/** Seat calls journaled (answered) in every debate of a tournament; the example's answers all pass first time. */
async function journaled(dir: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const id of await readdir(join(dir, "debates"))) {
    const journal = join(dir, "debates", id, ".debate/journal");
    for (const file of (await readdir(journal).catch(() => [] as string[])).filter((f) =>
      /^x\d{4}-.+\.json$/.test(f),
    )) {
      const entry = JSON.parse(await readFile(join(journal, file), "utf8"));
      if (entry.result.status === "ok") keys.add(key({ debateId: id, ...entry }));
    }
  }
  return keys;
}

/** Slows every recorded answer so a run can be interrupted mid-call. */
async function slowDown(dir: string, ms: number) {
  for (const id of await readdir(join(dir, "debates"))) {
    const file = join(dir, "debates", id, "replay.jsonl");
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    await writeFile(
      file,
      `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: ms })).join("\n")}\n`,
    );
  }
}

function startRun(dir: string, log: string): { child: ChildProcess; ended: () => number } {
  const child = spawn(process.execPath, [bin, "tournament", "run", dir, "--concurrency", "2"], {
    env: envFor(log),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  return { child, ended: () => (stderr.match(/^\d+\/12 ended/gm) ?? []).length };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

async function until(test: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** leaderboard.md without the tournament's own name (each test's folder has its own). */
async function leaderboard(dir: string, log: string): Promise<string> {
  await debate(["tournament", "report", dir], log);
  return (await readFile(join(dir, "leaderboard.md"), "utf8")).replace(
    /^# Leaderboard: .*$/m,
    "# Leaderboard",
  );
}

let reference: string;

describe("debate tournament (the offline example, through the built CLI)", () => {
  it("new, plan, run, status, report; a second run re-runs nothing", async () => {
    const log = join(work, "ref.log");
    const dir = await newTournament("ref", log);
    const plan = await debate(["tournament", "plan", dir], log);
    expect(plan.stdout).toMatch(/^12 debates \(12 to run\), 36 seat calls to make/);
    expect(plan.stdout).toMatch(/\* estimate: /);
    const first = await debate(["tournament", "run", dir], log);
    expect(first.stdout).toMatch(/^finished: 12 done, 0 failed, 0 not finished of 12 \(12 run now\)/);
    expect(first.stderr).toMatch(/^12\/12 ended \(12 done, 0 failed\)/m);
    const calls = await readLog(log);
    expect(calls).toHaveLength(36);
    const again = await debate(["tournament", "run", dir], log);
    expect(again.stdout).toMatch(/\(0 run now\)/);
    expect(await readLog(log)).toHaveLength(36);
    const status = JSON.parse((await debate(["tournament", "status", dir, "--json"], log)).stdout);
    expect(status).toMatchObject({ status: "finished", total: 12, done: 12, failed: 0, calls: 36 });
    const report = await debate(["tournament", "report", dir], log);
    expect(report.stdout).toMatch(/1\. replay:alice +\d+ \[\d+, \d+\] \(8 debates\)/);
    reference = await leaderboard(dir, log);
    expect(reference).toMatch(/\| 1 \| replay:alice \|/);
  });

  it("bad input: a clear error naming the file and field, exit 1, nothing written", async () => {
    const log = join(work, "bad.log");
    await writeFile(join(work, "bad.jsonl"), '{"motion": "ok"}\n{"motion": 3}\n');
    const failed = await debate(
      ["tournament", "new", "bad", "--motions", join(work, "bad.jsonl"), "--seats", "claude,codex"],
      log,
    ).catch((e) => e as { code: number; stderr: string });
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(/bad\.jsonl:2: `motion` must be a string/);
    await expect(readdir(join(work, "bad"))).rejects.toThrow(/ENOENT/);
  });

  for (const signal of ["SIGINT", "SIGKILL"] as const) {
    it(`${signal === "SIGINT" ? "Ctrl-C" : "kill -9"} mid-run, then run again: finished, no journaled call repeated, same leaderboard`, async () => {
      const log = join(work, `${signal}.log`);
      const dir = await newTournament(signal.toLowerCase(), log);
      await slowDown(dir, 120);
      const { child, ended } = startRun(dir, log);
      await until(() => ended() >= 2);
      child.kill(signal);
      const exit = await exited(child);
      if (signal === "SIGINT") expect(exit.code).toBe(130);
      else expect(exit.signal).toBe("SIGKILL");
      const before = await journaled(dir);
      const firstPid = child.pid;
      const status = JSON.parse((await debate(["tournament", "status", dir, "--json"], log)).stdout);
      expect(status.done).toBeGreaterThanOrEqual(2);
      expect(status.done).toBeLessThan(12);
      const resumed = await debate(["tournament", "run", dir, "--concurrency", "2"], log);
      expect(resumed.stdout, resumed.stderr).toMatch(/^finished: 12 done, 0 failed/);
      const calls = await readLog(log);
      const later = calls.filter((r) => r.pid !== firstPid);
      for (const r of later)
        expect(before.has(key(r)), `${key(r)} was journaled before the restart, yet asked again`).toBe(false);
      // Everything answered once the tournament ends: each of the 36 calls journaled exactly once.
      expect((await journaled(dir)).size).toBe(36);
      expect(await leaderboard(dir, log)).toBe(reference);
    });
  }

  it("a seat answering 429 in a local run pauses and asks again: no debate aborted, nothing journaled twice", async () => {
    let limited = 0;
    const server = await startModelServer((request) => {
      if (limited === 0 && request.model === "alice") {
        limited++;
        return { error: 429, message: "slow down" };
      }
      return crossfireAnswer(request);
    });
    try {
      const motion = (await readFile(join(example, "motions.jsonl"), "utf8")).split("\n")[0]!;
      await writeFile(join(work, "motion-429.jsonl"), `${motion}\n`);
      const base = `${server.url}/v1`;
      const log = join(work, "limited.log");
      await debate(
        [
          "tournament",
          "new",
          "limited",
          "--motions",
          join(work, "motion-429.jsonl"),
          "--seats",
          `http:alice@${base},http:bob@${base}`,
          "--judges",
          `http:judge@${base}`,
          "--format",
          "crossfire",
          "--rounds",
          "1",
        ],
        log,
      );
      const dir = join(work, "limited");
      const { stdout, stderr } = await debate(["tournament", "run", dir], log);
      expect(stdout).toMatch(/^finished: 2 done, 0 failed/m);
      expect(limited).toBe(1);
      // One pause, printed; the first wait without a Retry-After is the backoff's first step.
      expect(stderr.match(/^paused \S+: rate limited, retrying in 1s/gm), stderr).toHaveLength(1);
      for (const id of await readdir(join(dir, "debates"))) {
        const text = await readFile(join(dir, "debates", id, "debate.md"), "utf8");
        expect(text, id).not.toMatch(/^outcome: aborted/m);
        expect(text, id).toMatch(/^winner: /m);
      }
      // 2 debates x 3 calls journaled once each; the server saw them plus the 429 (not journaled).
      const journaled = await journaledPrompts(dir);
      expect(journaled).toHaveLength(6);
      expect(keysOf(server.requests, "answered")).toEqual(journaled);
      expect(server.requests.map((r) => r.outcome).sort()).toEqual([...Array(6).fill("answered"), "error"]);
    } finally {
      await server.close();
    }
  });
});
