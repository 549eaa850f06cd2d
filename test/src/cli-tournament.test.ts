import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  crossfireAnswer,
  journaledPrompts,
  keysOf,
  type ModelServer,
  startModelServer,
} from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate tournament` through the built binary: the whole flow on the offline example (replay
// seats); then, on http seats of the loopback model server, a run stopped by Ctrl-C and one killed
// with -9, each resumed to the same leaderboard; a 429 in a local run.
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

/** A 3-seat crossfire tournament of one round per debate, on the example's motions. */
async function createTournament(
  name: string,
  log: string,
  seats: string,
  judges: string,
  extra: string[] = [],
) {
  await debate(
    [
      "tournament",
      "new",
      name,
      "--motions",
      join(example, "motions.jsonl"),
      "--seats",
      seats,
      "--judges",
      judges,
      "--format",
      "crossfire",
      "--rounds",
      "1",
      ...extra,
    ],
    log,
  );
  return join(work, name);
}

function newTournament(name: string, log: string) {
  return createTournament(name, log, "replay:alice,replay:bob,replay:carol", "replay", [
    "--replay",
    join(example, "recordings"),
  ]);
}

interface Logged {
  debateId: string;
  exchange: number;
  role: string;
  attempt: number;
  pid: number;
}

async function readLog(log: string): Promise<Logged[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Logged);
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
    // Each debate's row says what it was about, not only the motion's id.
    const motions = (await readFile(join(example, "motions.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { motion: string }).motion);
    for (const [i, motion] of motions.entries()) expect(reference).toContain(`| m0${i + 1}: ${motion} |`);
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

  // Ctrl-C and kill -9 of a local run, with http seats of the model server answering after 300 ms:
  // the server's log is the evidence. Its answered requests (model, prompt) must be exactly the
  // journaled calls, counts included: an answer the provider gave that the run then lost, or a call
  // asked again after its answer was journaled, would make them differ. A request cut off by the
  // stop is logged `abandoned` (never answered) and asked again by the next run.
  describe("stopped mid-run, on http seats of the model server", () => {
    let server: ModelServer;
    let httpReference: string;
    const newHttpTournament = (name: string) => {
      const base = `${server.url}/v1`;
      return createTournament(
        name,
        join(work, "http.log"),
        ["alice", "bob", "carol"].map((p) => `http:${p}@${base}`).join(","),
        `http:judge@${base}`,
      );
    };
    beforeAll(async () => {
      server = await startModelServer(crossfireAnswer, { delayMs: 300 });
      const dir = await newHttpTournament("http-ref");
      const from = server.requests.length;
      const done = await debate(["tournament", "run", dir, "--concurrency", "4"], join(work, "http.log"));
      expect(done.stdout).toMatch(/^finished: 12 done, 0 failed/);
      expect(keysOf(server.requests.slice(from), "answered")).toEqual(await journaledPrompts(dir));
      httpReference = await leaderboard(dir, join(work, "http.log"));
    });
    afterAll(async () => {
      await server?.close();
    });

    for (const signal of ["SIGINT", "SIGKILL"] as const) {
      it(`${signal === "SIGINT" ? "Ctrl-C" : "kill -9"} mid-run, then run again: no call answered twice, nothing lost, same leaderboard`, async () => {
        const log = join(work, `${signal}.log`);
        const dir = await newHttpTournament(`http-${signal.toLowerCase()}`);
        const from = server.requests.length;
        const { child, ended } = startRun(dir, log);
        await until(() => ended() >= 2, 60_000);
        // Stopped while every request in flight is young (answers take 300 ms): the stop lands
        // mid-call, never in the few ms between an answer leaving the server and its journal write.
        const seen = server.requests.length;
        await until(() => {
          const open = server.requests.filter((r) => r.outcome === undefined);
          return (
            server.requests.length > seen &&
            open.length > 0 &&
            open.every((r) => performance.now() - r.startedAt < 150)
          );
        }, 60_000);
        child.kill(signal);
        const exit = await exited(child);
        if (signal === "SIGINT") expect(exit.code).toBe(130);
        else expect(exit.signal).toBe("SIGKILL");
        // The server hands out nothing after the stop: every request of the stopped run has ended.
        await until(() => server.inFlight() === 0);
        const stopped = server.requests.slice(from);
        const status = JSON.parse((await debate(["tournament", "status", dir, "--json"], log)).stdout);
        expect(status.done).toBeGreaterThanOrEqual(2);
        expect(status.done).toBeLessThan(12);
        // What the stopped run got answered, it journaled: nothing the provider answered is lost.
        expect(keysOf(stopped, "answered")).toEqual(await journaledPrompts(dir));
        const resumed = await debate(["tournament", "run", dir, "--concurrency", "2"], log);
        expect(resumed.stdout, resumed.stderr).toMatch(/^finished: 12 done, 0 failed/);
        const all = server.requests.slice(from);
        const journaled = await journaledPrompts(dir);
        expect(journaled).toHaveLength(36);
        // No call answered twice: the answered requests of both runs are the 36 journaled calls.
        expect(keysOf(all, "answered")).toEqual(journaled);
        // The only requests not answered are those the stop cut off (at most the 2 in flight).
        const cut = all.filter((r) => r.outcome !== "answered");
        expect(cut.every((r) => r.outcome === "abandoned")).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(2);
        expect(await leaderboard(dir, log)).toBe(httpReference);
      });
    }
  });

  it("a seat that never answers fails its debates (not `done`), exit 1; --retry-failed runs them again", async () => {
    let refusing = true;
    const server = await startModelServer((request) =>
      // alice's key is refused when she opens (as the proposer): crossfire then ends those debates aborted.
      refusing && request.model === "alice" && /You are the \*\*proposer\*\*/.test(request.lastUserText)
        ? { error: 401, message: "invalid api key" }
        : crossfireAnswer(request),
    );
    try {
      const base = `${server.url}/v1`;
      const log = join(work, "refused.log");
      const dir = await createTournament(
        "refused",
        log,
        `http:alice@${base},http:bob@${base},http:carol@${base}`,
        `http:judge@${base}`,
      );
      const failed = await debate(["tournament", "run", dir], log).then(
        () => expect.unreachable("a tournament with failed debates exits 1"),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(/^finished: 8 done, 4 failed/m);
      expect(failed.stderr).toMatch(/4 debate\(s\) failed: `debate tournament status refused` shows why/);
      const status = await debate(["tournament", "status", dir], log);
      expect(status.stdout).toMatch(/8 done, 4 failed/);
      const rows = status.stdout.split("\n").filter((l) => /^\s+m0/.test(l));
      expect(rows).toHaveLength(12);
      for (const row of rows)
        expect(row).toMatch(
          /^\s+m0\d-http-alice-vs/.test(row) ? /\sfailed\s+SEAT_UNAVAILABLE: .*HTTP 401/ : /\sdone\s/,
        );

      refusing = false;
      const again = await debate(["tournament", "run", dir, "--retry-failed"], log);
      expect(again.stdout).toMatch(/^finished: 12 done, 0 failed/m);
      const undone = await readdir(join(dir, "debates"));
      expect(undone).toHaveLength(12);
    } finally {
      await server.close();
    }
  });

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
