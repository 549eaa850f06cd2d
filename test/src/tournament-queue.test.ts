import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import {
  crossfireAnswer,
  journaledPrompts,
  keysOf,
  type ModelServer,
  promptKey,
  startModelServer,
} from "@debatekit/model-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { delayReplays, exited, freePort, REDIS, spawnDebate } from "./queue-helpers.js";
import { repoRoot } from "./workspace.js";

// Queue mode through the built CLI: Debian's redis-server on a free loopback port (started here,
// never a system service), `debate worker` processes each in a working folder of their own, and
// `debate tournament run --queue`. The fault tests use http seats against the loopback model server
// and read its request log. "No seat call made twice" = no call ANSWERED twice (an answer fully
// written to a socket still open), checked as: the multiset of (model, sha256 of the prompt) over
// the answered requests equals the one over the journals' entries (two debates may send the same
// prompt, so counts, not a set: an answer given twice would count once more than it is journaled).
// A call in flight when its worker dies is asked again by the next owner; the server logs the first
// ask `abandoned` (the client was gone before the answer was written).
// The Ctrl-C test reads the replay seats' request log (DEBATEKIT_REPLAY_LOG: one line per call).
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/tournament-replay");
const run = promisify(execFile);

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
function startWorker(url: string, log: string, name: string, lockMs = 30_000, seatsOn?: ModelServer) {
  // A worker runs replay seats, and the http seats of the test's model server when it has one.
  const seats = seatsOn ? ["--adapters", "replay,http", "--endpoint", seatsOn.url] : [];
  const child = spawn(
    process.execPath,
    [
      bin,
      "worker",
      url,
      ...seats,
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
  if (delayMs > 0) await delayReplays(dir, delayMs);
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

/** leaderboard.md of a tournament without its name (each test's tournament has its own). */
async function leaderboard(dir: string, log: string): Promise<string> {
  await run(process.execPath, [bin, "tournament", "report", dir], { cwd: work, env: envFor(log) });
  return (await readFile(join(dir, "leaderboard.md"), "utf8"))
    .replace(/^# Leaderboard: .*$/m, "# Leaderboard")
    .replaceAll(basename(dir), "<t>");
}

function startQueuedRun(dir: string, url: string, log: string) {
  const started = spawnDebate(["tournament", "run", dir, "--queue", url], { env: envFor(log) });
  children.push(started.child);
  return started;
}

/** Request keys logged more than once. */
const twice = (calls: Logged[]) => {
  const seen = new Map<string, number>();
  for (const c of calls) seen.set(key(c), (seen.get(key(c)) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
};

/** Everything that must hold at the end of any queued run: every answer journaled once, the local run's leaderboard. */
async function expectComplete(dir: string, log: string, tid: string, port: number, reference: string) {
  const answers = await journaled(dir);
  expect(answers).toHaveLength(18);
  expect(new Set(answers).size).toBe(18);
  // The folders collected here are the ones Redis holds: nothing lost on the way back.
  expect([...(await checkpointed(port, tid))].sort()).toEqual(answers);
  expect(await leaderboard(dir, log)).toBe(reference);
}

let referenceOne: string;
/** The local run's leaderboard of the http tournament (1 motion, 3 seats: 6 debates, 18 calls). */
let httpReference: string;

const httpLog = () => join(work, "http.log");
/** A 1-motion tournament of http seats alice, bob, carol and a judge, all on `server`. */
const httpTournament = (name: string, server: ModelServer, extra: string[] = []) =>
  newTournament(name, httpLog(), 0, "one", [
    "--seats",
    ["alice", "bob", "carol"].map((p) => `http:${p}@${server.url}/v1`).join(","),
    "--judges",
    `http:judge@${server.url}/v1`,
    ...extra,
  ]);

/** Resolves once the server has this many requests and the last is still being answered. */
const midCall = (server: ModelServer, n: number) =>
  until(() => server.requests.length >= n && server.requests.at(-1)!.outcome === undefined);

describe("tournament run --queue with debate workers on one Redis", () => {
  beforeAll(async () => {
    const localLog = join(work, "local.log");
    const first = (await readFile(join(example, "motions.jsonl"), "utf8")).split("\n")[0]!;
    await writeFile(join(work, "motions-1.jsonl"), `${first}\n`);
    const localOne = await newTournament("local-one", localLog, 0, "one");
    await run(process.execPath, [bin, "tournament", "run", localOne], { cwd: work, env: envFor(localLog) });
    referenceOne = await leaderboard(localOne, localLog);
    expect(referenceOne).toMatch(/alice/);
    // The same tournament with http seats, run locally: every answer the server gave is one journaled call.
    const server = await startModelServer(crossfireAnswer);
    try {
      const local = await httpTournament("http-local", server);
      await run(process.execPath, [bin, "tournament", "run", local], { cwd: work, env: envFor(httpLog()) });
      expect(keysOf(server.requests, "answered")).toEqual(await journaledPrompts(local));
      expect(server.requests).toHaveLength(18);
      httpReference = await leaderboard(local, httpLog());
    } finally {
      await server.close();
    }
  });

  it("http seats, 3 workers in separate folders: the local run's results, each answer journaled once; running again asks nothing", async () => {
    const server = await startModelServer(crossfireAnswer);
    try {
      const port = await freePort();
      await startRedis(port, join(work, "redis-a"));
      const url = `redis://127.0.0.1:${port}`;
      const dir = await httpTournament("http-queued", server);
      const workers = [1, 2, 3].map((n) => startWorker(url, httpLog(), `h${n}`, 30_000, server));
      const queued = startQueuedRun(dir, url, httpLog());
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      expect(queued.out()).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6 \(6 run now\)/);
      // Every answer the server gave is one journaled call, and the other way round.
      const answered = keysOf(server.requests, "answered");
      expect(answered).toEqual(await journaledPrompts(dir));
      expect(server.requests).toHaveLength(18);
      // More than one worker took part; the tournament was rated once.
      expect(workers.filter((w) => w.lines.some((l) => /^done /.test(l))).length).toBeGreaterThan(1);
      expect(workers.flatMap((w) => w.lines).filter((l) => /^rated /.test(l))).toHaveLength(1);
      await expectComplete(dir, httpLog(), "http-queued", port, httpReference);
      // The same command again: nothing enqueued, no request reaches the server, the same folders.
      const again = await run(process.execPath, [bin, "tournament", "run", dir, "--queue", url], {
        cwd: work,
        env: envFor(httpLog()),
      });
      expect(again.stdout).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6 \(0 run now\)/);
      expect(server.requests).toHaveLength(18);
      await expectComplete(dir, httpLog(), "http-queued", port, httpReference);
    } finally {
      await server.close();
    }
  });

  it("kill -9 of a worker mid seat call: the server never answered it; the next owner asks it again; no call answered twice", async () => {
    const server = await startModelServer(crossfireAnswer, { delayMs: 400 });
    try {
      const port = await freePort();
      await startRedis(port, join(work, "redis-b"));
      const url = `redis://127.0.0.1:${port}`;
      const dir = await httpTournament("kill", server);
      const victim = startWorker(url, httpLog(), "k1", 5000, server);
      const queued = startQueuedRun(dir, url, httpLog());
      // Mid call: the server holds the victim's 5th request (answers take 400 ms; no other worker yet).
      await midCall(server, 5);
      const inFlightAtKill = server.requests.filter((r) => r.outcome === undefined);
      victim.child.kill("SIGKILL");
      await exited(victim.child);
      // One debate at a time, one call at a time: one request in flight, and the kernel closed its
      // socket, so the server never delivered its answer.
      expect(inFlightAtKill).toHaveLength(1);
      await until(() => inFlightAtKill[0]!.outcome !== undefined);
      expect(inFlightAtKill[0]!.outcome).toBe("abandoned");
      startWorker(url, httpLog(), "k2", 5000, server);
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      const answered = keysOf(server.requests, "answered");
      expect(answered).toEqual(await journaledPrompts(dir));
      // Abandoned: exactly the call in flight at the kill, which the survivor asked again.
      expect(keysOf(server.requests, "abandoned", "error")).toEqual([promptKey(inFlightAtKill[0]!)]);
      expect(answered).toContain(promptKey(inFlightAtKill[0]!));
      await expectComplete(dir, httpLog(), "kill", port, httpReference);
    } finally {
      await server.close();
    }
  });

  it("SIGSTOP of a worker past its lock, then SIGCONT: the new owner finishes; the sleeper's answer is refused and never journaled", async () => {
    // Answers take 1 s, so the stop lands while the sleeper waits for one.
    const server = await startModelServer(crossfireAnswer, { delayMs: 1000 });
    try {
      const port = await freePort();
      await startRedis(port, join(work, "redis-c"));
      const url = `redis://127.0.0.1:${port}`;
      const dir = await httpTournament("stop", server);
      const sleeper = startWorker(url, httpLog(), "s1", 5000, server);
      const queued = startQueuedRun(dir, url, httpLog());
      await midCall(server, 2);
      const asleep = server.requests.filter((r) => r.outcome === undefined);
      sleeper.child.kill("SIGSTOP");
      expect(asleep).toHaveLength(1);
      const call = promptKey(asleep[0]!);
      // A stopped process keeps its socket open: the server delivers the answer into it.
      await until(() => asleep[0]!.outcome !== undefined);
      expect(asleep[0]!.outcome).toBe("answered");
      const owner = startWorker(url, httpLog(), "s2", 5000, server);
      // Past the sleeper's lock: the new owner has taken its debate over and asks that call again.
      await until(() => server.requests.filter((r) => promptKey(r) === call).length === 2);
      expect(owner.lines.some((l) => l.includes("the call in flight when its last owner lost it"))).toBe(
        true,
      );
      sleeper.child.kill("SIGCONT");
      // The sleeper reads its answer and journals it in its own folder; its checkpoint carries a
      // token that is no longer the lock's, so Redis refuses it.
      await until(() => sleeper.lines.some((l) => /^lost /.test(l)));
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      // Answered twice: only that call. Its first answer is answered-but-discarded: never journaled
      // (the journals hold every other answer once and this one once, the new owner's).
      expect(keysOf(server.requests, "answered")).toEqual([...(await journaledPrompts(dir)), call].sort());
      expect(keysOf(server.requests, "abandoned", "error")).toEqual([]);
      await expectComplete(dir, httpLog(), "stop", port, httpReference);
    } finally {
      await server.close();
    }
  });

  it("a Redis restart mid-run (append-only file): workers and the enqueuer reconnect, nothing lost, no call answered twice", async () => {
    const server = await startModelServer(crossfireAnswer, { delayMs: 200 });
    try {
      const port = await freePort();
      const data = join(work, "redis-d");
      let redis = await startRedis(port, data);
      const url = `redis://127.0.0.1:${port}`;
      const dir = await httpTournament("restart", server);
      [1, 2].map((n) => startWorker(url, httpLog(), `r${n}`, 30_000, server));
      const queued = startQueuedRun(dir, url, httpLog());
      await until(() => server.requests.length >= 6);
      redis.kill("SIGKILL");
      await exited(redis);
      const before = server.requests.length;
      redis = await startRedis(port, data);
      expect((await exited(queued.child)).code, queued.err()).toBe(0);
      expect(server.requests.length).toBeGreaterThan(before);
      // The workers lived through it: a call in flight at the crash was answered, and its checkpoint
      // waited for Redis (appendfsync always: nothing Redis acknowledged was lost).
      const answered = keysOf(server.requests, "answered");
      expect(answered).toEqual(await journaledPrompts(dir));
      expect(keysOf(server.requests, "abandoned", "error")).toEqual([]);
      await expectComplete(dir, httpLog(), "restart", port, httpReference);
    } finally {
      await server.close();
    }
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
    await expectComplete(dir, log, "ctrlc", port, referenceOne);
  });

  it("a seat answering 429 pauses the job without using up an attempt; it resumes and finishes", async () => {
    let limited = 0;
    const server = await startModelServer((request) => {
      if (limited === 0 && request.model === "alice") {
        limited++;
        return { error: 429, message: "slow down", retryAfterMs: 100 };
      }
      return crossfireAnswer(request);
    });
    try {
      const port = await freePort();
      await startRedis(port, join(work, "redis-g"));
      const url = `redis://127.0.0.1:${port}`;
      const log = join(work, "limited.log");
      const dir = await httpTournament("limited", server);
      const worker = startWorker(url, log, "l1", 30_000, server);
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
      for (const id of await readdir(join(dir, "debates"))) {
        // No debate ended aborted by the 429, and every job completed on its first attempt (the
        // pause used none: BullMQ counts one attempt per job, the completing one).
        expect(await readFile(join(dir, "debates", id, "debate.md"), "utf8"), id).not.toMatch(
          /^outcome: aborted/m,
        );
        expect(await cli(["HGET", `bull:debatekit-debates:limited.${id}`, "atm"]), id).toBe("1");
      }
      // 18 answers journaled; the server saw them plus the one 429 (not journaled: no answer).
      const answered = keysOf(server.requests, "answered");
      expect(answered).toHaveLength(18);
      expect(answered).toEqual(await journaledPrompts(dir));
      expect(server.requests.map((r) => r.outcome).filter((o) => o !== "answered")).toEqual(["error"]);
    } finally {
      await server.close();
    }
  });

  it("--max-cost, a transient 500 (retried with backoff), a debate failing for good (failures/, the rest rated), --retry-failed; one call in flight across 3 workers", async () => {
    // Phase 1: all well. Phase 2: the first judge call answers 500 once (its job retries and
    // finishes); the judge of another debate answers 500 every time (3 attempts, then failed).
    // Phase 3: all well again, for --retry-failed.
    let phase = 1;
    let transient: string | undefined;
    let broken: string | undefined;
    const server = await startModelServer(
      (request) => {
        if (phase === 2 && request.model === "judge") {
          const text = request.lastUserText;
          const pair = `${text.match(/(\w+) argues for\./)?.[1]} v ${text.match(/(\w+) argues against\./)?.[1]}`;
          if (transient === undefined) {
            transient = pair;
            return { error: 500, message: "try again" };
          }
          if (broken === undefined && pair !== transient) broken = pair;
          if (pair === broken) return { error: 500, message: "down" };
        }
        return crossfireAnswer(request);
      },
      { delayMs: 150 },
    );
    try {
      const port = await freePort();
      await startRedis(port, join(work, "redis-h"));
      const url = `redis://127.0.0.1:${port}`;
      // One http call in flight across all workers; a price, so that --max-cost can be planned.
      const dir = await httpTournament("budget", server, ["--limit", "http=1", "--price", "http=1000/1000"]);
      const workers = [1, 2, 3].map((n) => startWorker(url, httpLog(), `b${n}`, 30_000, server));
      const queued = (...extra: string[]) =>
        run(process.execPath, [bin, "tournament", "run", dir, "--queue", url, ...extra], {
          cwd: work,
          env: envFor(httpLog()),
        });
      const plan = (await run(process.execPath, [bin, "tournament", "plan", dir], { cwd: work })).stdout;
      const total = Number(/^total\s.*\$(\d+\.\d+)/m.exec(plan)?.[1]);
      expect(total, plan).toBeGreaterThan(0);
      // Room for two and a half debates' estimates: two are enqueued, then the budget stops it.
      const first = await queued("--max-cost", String((total / 6) * 2.5));
      expect(first.stdout).toMatch(
        /^stopped: 2 done, 0 failed, 4 not finished of 6 \(2 run now\); stopped before /,
      );
      expect(keysOf(server.requests, "answered")).toHaveLength(6);
      expect(keysOf(server.requests, "answered")).toEqual(await journaledPrompts(dir));

      phase = 2;
      // A debate that failed for good makes the run exit 1, its summary still printed.
      const second = await queued().then(
        () => expect.unreachable("a run with a failed debate exits 1"),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/1 debate\(s\) failed: `debate tournament status /);
      expect(second.stdout).toMatch(/^finished: 5 done, 1 failed, 0 not finished of 6 \(4 run now\)/);
      const failures = await readdir(join(dir, "failures"));
      expect(failures).toHaveLength(1);
      const failedId = failures[0]!.replace(/\.json$/, "");
      expect(await readFile(join(dir, "failures", failures[0]!), "utf8")).toMatch(/HTTP 500/);
      // BullMQ's attempts: 1 for each debate, 2 for the one retried after its 500, 3 for the one that failed.
      const cli = (args: string[]) =>
        run("redis-cli", ["-p", String(port), "--raw", ...args]).then((r) => r.stdout.trim());
      const attempts: Record<string, string> = {};
      for (const id of await readdir(join(dir, "debates")))
        attempts[id] = await cli(["HGET", `bull:debatekit-debates:budget.${id}`, "atm"]);
      expect(Object.values(attempts).sort(), JSON.stringify(attempts)).toEqual([
        "1",
        "1",
        "1",
        "1",
        "2",
        "3",
      ]);
      expect(attempts[failedId]).toBe("3");
      const lines = workers.flatMap((w) => w.lines);
      expect(
        lines.filter((l) => /^failed .*HTTP 500.*retried with backoff/.test(l)),
        lines.join("\n"),
      ).toHaveLength(3);
      // The 500s are no answers: none journaled; the debates before them resumed from their checkpoints.
      expect(server.requests.filter((r) => r.outcome === "error")).toHaveLength(4);
      expect(keysOf(server.requests, "answered")).toEqual(await journaledPrompts(dir));
      // The tournament still finished and rated the rest; the failed debate is listed.
      expect(await leaderboard(dir, httpLog())).toContain(failedId);

      phase = 3;
      const third = await queued("--retry-failed");
      expect(third.stdout).toMatch(/^finished: 6 done, 0 failed, 0 not finished of 6 \(1 run now\)/);
      expect(keysOf(server.requests, "answered")).toEqual(await journaledPrompts(dir));
      await expectComplete(dir, httpLog(), "budget", port, httpReference);
      // The limit held across the workers: never two requests at the server at once, though more
      // than one worker ran debates.
      expect(server.maxInFlight()).toBe(1);
      expect(workers.filter((w) => w.lines.some((l) => /^done /.test(l))).length).toBeGreaterThan(1);
    } finally {
      await server.close();
    }
  });
});
