import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ModelRequest, startModelServer } from "./model-server/server.js";
import { repoRoot } from "./workspace.js";

// Queue mode through the built CLI: Debian's redis-server on a free loopback port (started here,
// never a system service), `debate worker` processes each in a working folder of their own, and
// `debate tournament run --queue`. Every check of "no seat call made twice" reads the replay seats'
// request log (DEBATEKIT_REPLAY_LOG: one line per call, with the calling pid).
const REDIS = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/tournament-replay");
const run = promisify(execFile);

// No skipping: `npm test` runs scripts/install-redis.mjs first, which installs it or says how.
if (!REDIS)
  throw new Error(
    "redis-server is missing: run `node scripts/install-redis.mjs` (Debian: apt-get install redis-server)",
  );

let work: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "tournament-queue-"));
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGCONT");
      child.kill("SIGKILL");
      await exited(child);
    }
  }
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => done(port));
    });
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

/** Starts redis-server on 127.0.0.1:port with an append-only file in `dir` (fsync on every write). */
async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  await mkdir(dir, { recursive: true });
  const child = spawn(
    REDIS!,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--appendonly",
      "yes",
      "--appendfsync",
      "always",
      "--save",
      "",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d) => {
    out += String(d);
  });
  await until(() => /Ready to accept connections/.test(out), 15_000);
  return child;
}

async function until(test: () => boolean | Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const envFor = (log: string) => ({ ...process.env, DEBATEKIT_REPLAY_LOG: log, NO_COLOR: "1", CI: "1" });

/** A worker process in a working folder of its own; its stderr lines are collected. */
function startWorker(url: string, log: string, name: string, lockMs = 30_000) {
  const child = spawn(
    process.execPath,
    [
      bin,
      "worker",
      url,
      "--dir",
      join(work, "workers", name),
      "--lock-duration",
      String(lockMs),
      "--stalled-interval",
      "1000",
    ],
    { env: envFor(log), stdio: ["ignore", "ignore", "pipe"] },
  );
  children.push(child);
  const lines: string[] = [];
  child.stderr!.on("data", (d) => lines.push(...String(d).split("\n").filter(Boolean)));
  return { child, lines };
}

/**
 * A 3-player tournament with replay seats: both motions (12 debates, 36 calls), or for the fault
 * tests the first motion only (6 debates, 18 calls: enough for a fault to land mid-run, and cheap).
 */
async function newTournament(
  name: string,
  log: string,
  delayMs = 0,
  motions: "both" | "one" = "both",
  seats = [
    "--seats",
    "replay:alice,replay:bob,replay:carol",
    "--judges",
    "replay",
    "--replay",
    join(example, "recordings"),
  ],
) {
  await run(
    process.execPath,
    [
      bin,
      "tournament",
      "new",
      name,
      "--motions",
      motions === "both" ? join(example, "motions.jsonl") : join(work, "motions-1.jsonl"),
      ...seats,
      "--format",
      "crossfire",
      "--rounds",
      "1",
    ],
    { cwd: work, env: envFor(log) },
  );
  const dir = join(work, name);
  if (delayMs > 0) {
    for (const id of await readdir(join(dir, "debates"))) {
      const file = join(dir, "debates", id, "replay.jsonl");
      const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
      await writeFile(
        file,
        `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), delay_ms: delayMs })).join("\n")}\n`,
      );
    }
  }
  return dir;
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
  return (await readFile(log, "utf8").catch(() => ""))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Logged);
}

/** Seat calls journaled (answered) in the tournament folder's debates. */
async function journaled(dir: string): Promise<string[]> {
  const keys: string[] = [];
  for (const id of await readdir(join(dir, "debates"))) {
    const journal = join(dir, "debates", id, ".debate/journal");
    for (const file of (await readdir(journal).catch(() => [] as string[])).filter((f) =>
      /^x\d{4}-.+\.json$/.test(f),
    )) {
      const entry = JSON.parse(await readFile(join(journal, file), "utf8"));
      if (entry.result.status === "ok") keys.push(key({ debateId: id, ...entry }));
    }
  }
  return keys.sort();
}

/** Seat calls whose answers are checkpointed in Redis now (journal files of every debate's snapshot). */
async function checkpointed(port: number, tid: string): Promise<Set<string>> {
  const cli = (args: string[]) =>
    run("redis-cli", ["-p", String(port), "--raw", ...args]).then((r) => r.stdout);
  const keys = new Set<string>();
  for (const hash of (await cli(["--scan", "--pattern", `debatekit:files:${tid}:*`]))
    .split("\n")
    .filter(Boolean)) {
    const id = hash.split(":").pop()!;
    const fields = (await cli(["HKEYS", hash]))
      .split("\n")
      .filter((f) => /^\.debate\/journal\/x\d{4}-.+\.json$/.test(f));
    for (const field of fields) {
      const entry = JSON.parse(await cli(["HGET", hash, field]));
      if (entry.result.status === "ok") keys.add(key({ debateId: id, ...entry }));
    }
  }
  return keys;
}

/** leaderboard.md of a tournament without its name line. */
async function leaderboard(dir: string, log: string): Promise<string> {
  await run(process.execPath, [bin, "tournament", "report", dir], { cwd: work, env: envFor(log) });
  return (await readFile(join(dir, "leaderboard.md"), "utf8")).replace(
    /^# Leaderboard: .*$/m,
    "# Leaderboard",
  );
}

function startQueuedRun(dir: string, url: string, log: string) {
  const child = spawn(process.execPath, [bin, "tournament", "run", dir, "--queue", url], {
    env: envFor(log),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  return { child, out: () => stdout, err: () => stderr };
}

/** Request keys logged more than once. */
const twice = (calls: Logged[]) => {
  const seen = new Map<string, number>();
  for (const c of calls) seen.set(key(c), (seen.get(key(c)) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
};

/** The calls a process had asked whose answers were not checkpointed: in flight when it was stopped. */
const inFlight = (calls: Logged[], pid: number | undefined, checkpointedNow: Set<string>) =>
  calls.filter((c) => c.pid === pid && !checkpointedNow.has(key(c))).map(key);

/** Everything that must hold at the end of any queued run: every answer journaled once, the local run's leaderboard. */
async function expectComplete(
  dir: string,
  log: string,
  tid: string,
  port: number,
  motions: "both" | "one" = "one",
) {
  const answers = await journaled(dir);
  const calls = motions === "both" ? 36 : 18;
  expect(answers).toHaveLength(calls);
  expect(new Set(answers).size).toBe(calls);
  // The folders collected here are the ones Redis holds: nothing lost on the way back.
  expect([...(await checkpointed(port, tid))].sort()).toEqual(answers);
  expect(await leaderboard(dir, log)).toBe(motions === "both" ? reference : referenceOne);
}

let reference: string;
let referenceOne: string;

describe("tournament run --queue with debate workers on one Redis", () => {
  beforeAll(async () => {
    const localLog = join(work, "local.log");
    const local = await newTournament("local", localLog);
    await run(process.execPath, [bin, "tournament", "run", local], { cwd: work, env: envFor(localLog) });
    reference = await leaderboard(local, localLog);
    expect(reference).toMatch(/alice/);
    const first = (await readFile(join(example, "motions.jsonl"), "utf8")).split("\n")[0]!;
    await writeFile(join(work, "motions-1.jsonl"), `${first}\n`);
    const localOne = await newTournament("local-one", localLog, 0, "one");
    await run(process.execPath, [bin, "tournament", "run", localOne], { cwd: work, env: envFor(localLog) });
    referenceOne = await leaderboard(localOne, localLog);
  });

  it("3 workers in separate folders give the local run's results; a second run re-runs nothing", async () => {
    const port = await freePort();
    await startRedis(port, join(work, "redis-a"));
    const url = `redis://127.0.0.1:${port}`;
    const log = join(work, "queued.log");
    const dir = await newTournament("queued", log);
    const workers = [1, 2, 3].map((n) => startWorker(url, log, `q${n}`));
    const queued = startQueuedRun(dir, url, log);
    expect((await exited(queued.child)).code, queued.err()).toBe(0);
    expect(queued.out()).toMatch(/^finished: 12 done, 0 failed, 0 not finished of 12 \(12 run now\)/);
    const calls = await readLog(log);
    expect(twice(calls), workers.flatMap((w) => w.lines).join("\n")).toEqual([]);
    expect(calls).toHaveLength(36);
    // More than one worker took part; none of them wrote into another's folder.
    expect(new Set(calls.map((c) => c.pid)).size).toBeGreaterThan(1);
    expect(workers.flatMap((w) => w.lines).filter((l) => /^rated /.test(l))).toHaveLength(1);
    await expectComplete(dir, log, "queued", port, "both");
    // The same command again: nothing enqueued, nothing asked, the same folders.
    const again = await run(process.execPath, [bin, "tournament", "run", dir, "--queue", url], {
      cwd: work,
      env: envFor(log),
    });
    expect(again.stdout).toMatch(/^finished: 12 done, 0 failed, 0 not finished of 12 \(0 run now\)/);
    expect(await readLog(log)).toHaveLength(36);
    await expectComplete(dir, log, "queued", port, "both");
  });

  it("kill -9 of a worker mid seat call: another worker resumes the debate, no checkpointed call asked again", async () => {
    const port = await freePort();
    await startRedis(port, join(work, "redis-b"));
    const url = `redis://127.0.0.1:${port}`;
    const log = join(work, "kill.log");
    const dir = await newTournament("kill", log, 400, "one");
    const victim = startWorker(url, log, "k1", 5000);
    const queued = startQueuedRun(dir, url, log);
    // Mid call: the victim has just asked its 5th seat (each answer takes 400 ms).
    await until(async () => (await readLog(log)).filter((r) => r.pid === victim.child.pid).length >= 5);
    victim.child.kill("SIGKILL");
    await exited(victim.child);
    const before = await checkpointed(port, "kill");
    expect(before.size).toBeGreaterThanOrEqual(4);
    const lost = inFlight(await readLog(log), victim.child.pid, before);
    const survivor = startWorker(url, log, "k2", 5000);
    expect((await exited(queued.child)).code, queued.err()).toBe(0);
    const calls = await readLog(log);
    for (const r of calls.filter((c) => c.pid === survivor.child.pid)) {
      expect(before.has(key(r)), `${key(r)} was checkpointed before the kill, yet asked again`).toBe(false);
    }
    // The only calls asked twice are those in flight when the worker died (their answers never
    // arrived, or not yet checkpointed): normally one, at most two.
    expect(lost.length).toBeLessThanOrEqual(2);
    expect(
      twice(calls).every((k) => lost.includes(k)),
      `asked twice: ${twice(calls)}; in flight: ${lost}`,
    ).toBe(true);
    await expectComplete(dir, log, "kill", port);
  });

  it("SIGSTOP of a worker past its lock, then SIGCONT: the new owner finishes, the late worker's writes are refused", async () => {
    const port = await freePort();
    await startRedis(port, join(work, "redis-c"));
    const url = `redis://127.0.0.1:${port}`;
    const log = join(work, "stop.log");
    // Answers take 1 s, so the stop lands while the sleeper waits for one.
    const dir = await newTournament("stop", log, 1000, "one");
    const sleeper = startWorker(url, log, "s1", 5000);
    const queued = startQueuedRun(dir, url, log);
    await until(async () => (await readLog(log)).filter((r) => r.pid === sleeper.child.pid).length >= 2);
    sleeper.child.kill("SIGSTOP");
    const before = await checkpointed(port, "stop");
    const asleep = inFlight(await readLog(log), sleeper.child.pid, before);
    // The calls it had asked whose answers were not checkpointed yet (normally one).
    expect(asleep.length).toBeGreaterThan(0);
    const owner = startWorker(url, log, "s2", 5000);
    // Past the sleeper's lock: the new owner has taken its debate over and asked the call it had in flight.
    await until(async () => {
      const ownerCalls = (await readLog(log)).filter((r) => r.pid === owner.child.pid).map(key);
      return asleep.every((k) => ownerCalls.includes(k));
    });
    expect(owner.lines.some((l) => l.includes("the call in flight when its last owner lost it"))).toBe(true);
    sleeper.child.kill("SIGCONT");
    // The sleeper wakes up with an answer in hand: its checkpoint carries a token that is no longer the lock's.
    await until(() => sleeper.lines.some((l) => /^lost /.test(l)));
    expect((await exited(queued.child)).code, queued.err()).toBe(0);
    const calls = await readLog(log);
    // Asked twice: only the call in flight when the sleeper stopped (its answer came too late to count).
    expect(twice(calls).sort()).toEqual(asleep.sort());
    await expectComplete(dir, log, "stop", port);
  });

  it("a Redis restart mid-run (append-only file): workers and the enqueuer reconnect, nothing lost or asked again", async () => {
    const port = await freePort();
    const data = join(work, "redis-d");
    let redis = await startRedis(port, data);
    const url = `redis://127.0.0.1:${port}`;
    const log = join(work, "restart.log");
    const dir = await newTournament("restart", log, 200, "one");
    const workers = [1, 2].map((n) => startWorker(url, log, `r${n}`));
    const queued = startQueuedRun(dir, url, log);
    await until(async () => (await readLog(log)).length >= 6);
    redis.kill("SIGKILL");
    await exited(redis);
    const before = (await readLog(log)).length;
    redis = await startRedis(port, data);
    expect((await exited(queued.child)).code, queued.err()).toBe(0);
    const calls = await readLog(log);
    expect(calls.length).toBeGreaterThan(before);
    // appendfsync always: every checkpoint Redis acknowledged survived the crash, so only calls in
    // flight at the crash could be asked again (one per worker at most).
    expect(twice(calls).length, `asked twice: ${twice(calls)}`).toBeLessThanOrEqual(workers.length);
    await expectComplete(dir, log, "restart", port);
  });

  it("Ctrl-C of run --queue stops the wait only: the workers go on, and the same command collects without asking again", async () => {
    const port = await freePort();
    await startRedis(port, join(work, "redis-f"));
    const url = `redis://127.0.0.1:${port}`;
    const log = join(work, "ctrlc.log");
    const dir = await newTournament("ctrlc", log, 200, "one");
    startWorker(url, log, "c1");
    const first = startQueuedRun(dir, url, log);
    await until(async () => (await readLog(log)).length >= 3);
    first.child.kill("SIGINT");
    expect((await exited(first.child)).code, first.err()).toBe(130);
    // The worker finishes every debate meanwhile; the second run only collects.
    await until(async () => (await checkpointed(port, "ctrlc")).size === 18);
    const again = await run(process.execPath, [bin, "tournament", "run", dir, "--queue", url], {
      cwd: work,
      env: envFor(log),
    });
    expect(again.stdout).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6/);
    const calls = await readLog(log);
    expect(twice(calls)).toEqual([]);
    expect(calls).toHaveLength(18);
    await expectComplete(dir, log, "ctrlc", port);
  });

  it("http seats against the loopback model server: 3 workers give the local run's results; the server's log shows no call twice", async () => {
    // Scripted model: answers by the role its prompt names; the stronger name (alice > bob > carol)
    // wins a verdict. Deterministic, so a local and a queued run must end the same.
    const strength: Record<string, number> = { alice: 3, bob: 2, carol: 1 };
    const answer = (request: ModelRequest): string => {
      const prompt = request.lastUserText;
      const who = request.model;
      if (/You are the \*\*proposer\*\*/.test(prompt)) {
        return JSON.stringify({
          position: `${who} argues for.`,
          points: [
            {
              claim: `${who}: it removes defects.`,
              category: "correctness",
              evidence: [{ kind: "data", ref: "incidents.csv", detail: "3 incidents" }],
            },
          ],
        });
      }
      if (/You are the \*\*challenger\*\*/.test(prompt)) {
        return JSON.stringify({
          position: `${who} argues against.`,
          points: [
            {
              claim: `${who}: other causes.`,
              stance: "flaw",
              targets: ["P1.1"],
              category: "correctness",
              evidence: [{ kind: "doc", ref: "postmortem.md", detail: "config errors" }],
            },
            { claim: `${who}: wider access.`, category: "security", unsupported: true },
            { claim: `${who}: new workflow.`, category: "developer_experience", unsupported: true },
          ],
        });
      }
      const proposer = prompt.match(/(\w+) argues for\./)?.[1] ?? "";
      const challenger = prompt.match(/(\w+) argues against\./)?.[1] ?? "";
      return JSON.stringify({
        winner: (strength[proposer] ?? 0) >= (strength[challenger] ?? 0) ? "proposer" : "challenger",
        reasoning: "P1.1 against C1.1: decided by the evidence.",
        cited_points: ["P1.1", "C1.1"],
        ratings: { genuine_disagreement: "medium", evidence_quality: "medium", challenge_depth: "medium" },
        agreements: [{ text: "The incidents are real.", points: ["P1.1", "C1.1"] }],
        disagreements: ["Their cause."],
        unresolved: [],
        recommendation: "Measure the causes first.",
      });
    };
    const server = await startModelServer(answer);
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    /** (model, prompt hash) of every request the server saw, sorted: a call made twice shows up once more than journaled. */
    const asked = () => server.requests.map((r) => `${r.model} ${sha(r.lastUserText)}`).sort();
    const answered = async (dir: string) => {
      const out: string[] = [];
      for (const id of await readdir(join(dir, "debates"))) {
        const journal = join(dir, "debates", id, ".debate/journal");
        for (const file of (await readdir(journal)).filter((f) => f.endsWith(".json"))) {
          const entry = JSON.parse(await readFile(join(journal, file), "utf8"));
          out.push(`${entry.model} ${entry.prompt_sha256}`);
        }
      }
      return out.sort();
    };
    try {
      const base = `${server.url}/v1`;
      const make = (name: string) =>
        newTournament(name, join(work, "http.log"), 0, "one", [
          "--seats",
          ["alice", "bob", "carol"].map((p) => `http:${p}@${base}`).join(","),
          "--judges",
          `http:judge@${base}`,
        ]);
      const local = await make("http-local");
      await run(process.execPath, [bin, "tournament", "run", local], {
        cwd: work,
        env: envFor(join(work, "http.log")),
      });
      expect(asked()).toEqual(await answered(local));
      expect(asked()).toHaveLength(18);
      const localBoard = await leaderboard(local, join(work, "http.log"));
      server.requests.splice(0);

      const port = await freePort();
      await startRedis(port, join(work, "redis-e"));
      const url = `redis://127.0.0.1:${port}`;
      const dir = await make("http-queued");
      [1, 2, 3].map((n) => startWorker(url, join(work, "http.log"), `h${n}`));
      const queued = startQueuedRun(dir, url, join(work, "http.log"));
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      expect(queued.out()).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6 \(6 run now\)/);
      // Every request the server saw is one journaled call, and the other way round.
      expect(asked()).toEqual(await answered(dir));
      expect(asked()).toHaveLength(18);
      expect(await leaderboard(dir, join(work, "http.log"))).toBe(
        localBoard.replaceAll("http-local", "http-queued"),
      );
    } finally {
      await server.close();
    }
  });

  it("a seat answering 429 pauses the job without using up an attempt; it resumes and finishes", async () => {
    let limited = 0;
    const server = await startModelServer((request) => {
      if (limited === 0 && request.model === "alice") {
        limited++;
        return { error: 429, message: "slow down", retryAfterMs: 100 };
      }
      if (/You are the judge/.test(request.lastUserText)) {
        return JSON.stringify({
          winner: "proposer",
          reasoning: "P1.1 stands.",
          cited_points: ["P1.1"],
          ratings: { genuine_disagreement: "low", evidence_quality: "low", challenge_depth: "low" },
          agreements: [],
          disagreements: [],
          unresolved: [],
          recommendation: "Go ahead and measure.",
        });
      }
      return /You are the \*\*challenger\*\*/.test(request.lastUserText)
        ? JSON.stringify({
            position: "against",
            points: [
              {
                claim: "flaw",
                stance: "flaw",
                targets: ["P1.1"],
                category: "correctness",
                unsupported: true,
              },
              { claim: "risk", category: "security", unsupported: true },
              { claim: "cost", category: "developer_experience", unsupported: true },
            ],
          })
        : JSON.stringify({
            position: "for",
            points: [{ claim: "gain", category: "correctness", unsupported: true }],
          });
    });
    try {
      const base = `${server.url}/v1`;
      const port = await freePort();
      await startRedis(port, join(work, "redis-g"));
      const url = `redis://127.0.0.1:${port}`;
      const log = join(work, "limited.log");
      const dir = await newTournament("limited", log, 0, "one", [
        "--seats",
        ["alice", "bob", "carol"].map((p) => `http:${p}@${base}`).join(","),
        "--judges",
        `http:judge@${base}`,
      ]);
      const worker = startWorker(url, log, "l1");
      const queued = startQueuedRun(dir, url, log);
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      expect(queued.out()).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6/);
      expect(limited).toBe(1);
      expect(
        worker.lines.some((l) => /^paused .*429/.test(l)),
        worker.lines.join("\n"),
      ).toBe(true);
      const cli = (args: string[]) =>
        run("redis-cli", ["-p", String(port), "--raw", ...args]).then((r) => r.stdout.trim());
      let journaledCalls = 0;
      for (const id of await readdir(join(dir, "debates"))) {
        // No debate ended aborted by the 429, and every job completed on its first attempt (the
        // pause used none: BullMQ counts one attempt per job, the completing one).
        expect(await readFile(join(dir, "debates", id, "debate.md"), "utf8"), id).not.toMatch(
          /^outcome: aborted/m,
        );
        expect(await cli(["HGET", `bull:debatekit-debates:limited.${id}`, "atm"]), id).toBe("1");
        journaledCalls += (await readdir(join(dir, "debates", id, ".debate/journal"))).length;
      }
      // 18 answers journaled; the server saw them plus the one 429 (not journaled: no answer).
      expect(journaledCalls).toBe(18);
      expect(server.requests).toHaveLength(19);
    } finally {
      await server.close();
    }
  });
});
