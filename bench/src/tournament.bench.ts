// `pnpm bench tournament`: queue mode's throughput with 1, 2, 4, 8 and 16 `debate worker` processes
// on one Redis (Debian's redis-server on a free loopback port), `http:` seats of the loopback model
// server (@debatekit/model-server) answering after a fixed delay; the orchestration overhead per
// debate, local and queued (the server answering at once), with the queued debate's CPU by part;
// Redis commands per debate (INFO commandstats). 4 http players x 2 motions x both sides = 24
// crossfire debates of one round (3 seat calls each, one after the other) for the overhead; 48
// debates for the throughput, 96 at 16 workers (at least 6 per worker, so the last wave's tail
// weighs less), with the CPU time every process used (workers, Redis, the enqueuer) per debate: on
// a machine with fewer cores than workers, that CPU bounds the throughput whatever the queue does.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { crossfireAnswer, startModelServer } from "@debatekit/model-server";
import {
  createTournament,
  enqueueTournament,
  type JobPartsCpu,
  parseEntrants,
  parseMotions,
  runTournament,
} from "@debatekit/tournament";
import { Redis } from "ioredis";
import { report } from "./measure.js";

const bin = new URL("../../apps/debate/dist/bin.js", import.meta.url).pathname;
const PLAYERS = ["alice", "bob", "carol", "dave"];
const SEAT_DELAY_MS = 1000;
const REDIS = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));

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

async function startRedis(dir: string): Promise<{ url: string; port: number; child: ChildProcess }> {
  const port = await freePort();
  await mkdir(dir, { recursive: true });
  const child = spawn(
    REDIS!,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((done, fail) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
      if (/Ready to accept connections/.test(out)) done();
    });
    child.once("exit", () => fail(new Error(`redis-server exited: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, port, child };
}

const MOTIONS = [
  "Should we move our internal service-to-service API from REST/JSON to gRPC?",
  "Should every pull request that touches payments get a second human review?",
  "Should we adopt a monorepo for all services?",
  "Should production deploys be frozen on Fridays?",
  "Should feature flags older than a quarter be removed?",
  "Should every service own its database schema?",
  "Should on-call engineers be paid extra?",
  "Should we write our build scripts in TypeScript?",
];
/** Debates per motion: 4 players, every ordered pair. */
const PER_MOTION = PLAYERS.length * (PLAYERS.length - 1);
/**
 * Worker counts of the throughput runs (BENCH_WORKERS=1,16 picks some; empty: the overhead alone);
 * each runs at least 6 debates a worker (48 at the least).
 */
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4,8,16").split(",").filter(Boolean).map(Number);
const motionsFor = (workers: number) => Math.max(4, Math.ceil((6 * workers) / PER_MOTION));

/** CPU milliseconds this process used since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the name), in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A tournament of PLAYERS as `http:` seats (and an `http:` judge) of the loopback model server at
 * `base`: crossfire answers scripted by role, the judge siding with the stronger name.
 */
async function newTournament(parent: string, name: string, base: string, motions = 2): Promise<string> {
  const dir = join(parent, name);
  await createTournament(dir, {
    motions: parseMotions(MOTIONS.slice(0, motions).join("\n"), "motions.txt"),
    players: parseEntrants(PLAYERS.map((p) => `http:${p}@${base}/v1`).join(","), "--seats"),
    judges: parseEntrants(`http:judge@${base}/v1`, "--judges"),
    format: "crossfire",
    length: 1,
    now: new Date().toISOString(),
  });
  return dir;
}

/**
 * A `debate worker` process (its working copies where it puts them by default) running the http
 * seats of the model server at `seats`; resolves once it waits on the queue.
 */
function startWorkerProcess(url: string, seats: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, "worker", url, "--adapters", "http", "--endpoint", seats], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((done, fail) => {
    let err = "";
    child.stderr!.on("data", (d) => {
      err += String(d);
      if (/waiting for debates/.test(err)) done(child);
    });
    child.once("exit", (code) => fail(new Error(`debate worker exited (${code}): ${err}`)));
  });
}

/**
 * bench's queue-worker.js in a process of its own, with the instant model server its seats call;
 * `onJob` hears each finished job's CPU by part.
 */
async function startQueueWorker(
  url: string,
  onJob: (cpuMs: JobPartsCpu) => void,
): Promise<{ child: ChildProcess; seats: string }> {
  const script = new URL("./queue-worker.js", import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [...(process.env.QW_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.QW_PROF}`] : []), script, url],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  return new Promise((done, fail) => {
    child.once("exit", (code) => fail(new Error(`queue-worker.js exited (${code})`)));
    lines.on("line", (line) => {
      const event = JSON.parse(line) as { type: string; seats?: string; cpuMs?: JobPartsCpu };
      if (event.type === "ready") done({ child, seats: event.seats! });
      else if (event.cpuMs) onJob(event.cpuMs);
    });
  });
}

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
          child.kill("SIGTERM");
        }),
    ),
  );
}

/** Commands Redis ran (client commands, and every command including those inside Lua scripts). */
async function commandCounts(url: string): Promise<{ client: number; all: number }> {
  const redis = new Redis(url);
  try {
    const stats = await redis.info("stats");
    const client = Number(stats.match(/total_commands_processed:(\d+)/)?.[1] ?? 0);
    const commandstats = await redis.info("commandstats");
    const all = [...commandstats.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    return { client, all };
  } finally {
    redis.disconnect();
  }
}

export async function run(): Promise<void> {
  if (!REDIS) throw new Error("redis-server is missing: run `node scripts/install-redis.mjs`");
  const parent = await mkdtemp(join(tmpdir(), "bench-tournament-"));
  const redis = await startRedis(join(parent, "redis"));
  const instant = await startModelServer(crossfireAnswer);
  const slow = await startModelServer(crossfireAnswer, { delayMs: SEAT_DELAY_MS });
  try {
    // Orchestration overhead: seats answer at once, one debate at a time, in this process. Local and
    // queued runs alternate, ROUNDS of each on fresh tournaments, and the medians are compared: one
    // pass of each swung by 100 ms and more with the machine's load.
    const ROUNDS = 3;
    // CPU by part of each queued debate: the worker's parts from its events, collect from the
    // enqueuer's. The worker (with the seats it calls) runs in a process of its own, so that the
    // enqueuer collecting one debate does not count the worker running the next.
    const parts = { materialize: 0, run: 0, checkpoint: 0, collect: 0 };
    const worker = await startQueueWorker(redis.url, (event) => {
      for (const part of ["materialize", "run", "checkpoint"] as const) parts[part] += event[part];
    });
    const localTimes: number[] = [];
    const queuedTimes: number[] = [];
    let debates = 0;
    let commands = { client: 0, all: 0 };
    const cpuMs = { local: 0, worker: 0, enqueuer: 0, redis: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const local = await newTournament(parent, `local-${round}`, instant.url);
      let start = performance.now();
      let cpu0 = process.cpuUsage();
      const localRun = await runTournament(local, { concurrency: 1 });
      localTimes.push((performance.now() - start) / localRun.done);
      cpuMs.local += cpuMsSince(cpu0);
      const queuedDir = await newTournament(parent, `queued-${round}`, worker.seats);
      const before = await commandCounts(redis.url);
      const workerCpu0 = await cpuSeconds(worker.child.pid!);
      const redisCpu0 = await cpuSeconds(redis.child.pid!);
      start = performance.now();
      cpu0 = process.cpuUsage();
      const queuedRun = await enqueueTournament(queuedDir, redis.url, {
        pollMs: 20,
        onEvent: (event) => {
          if (event.type === "debate_finished") parts.collect += event.collectCpuMs ?? 0;
        },
      });
      queuedTimes.push((performance.now() - start) / queuedRun.done);
      cpuMs.enqueuer += cpuMsSince(cpu0);
      cpuMs.worker += 1000 * ((await cpuSeconds(worker.child.pid!)) - workerCpu0);
      cpuMs.redis += 1000 * ((await cpuSeconds(redis.child.pid!)) - redisCpu0);
      const after = await commandCounts(redis.url);
      debates = queuedRun.done;
      commands = {
        client: commands.client + after.client - before.client,
        all: commands.all + after.all - before.all,
      };
    }
    await stop([worker.child]);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const localMs = median(localTimes);
    const queuedMs = median(queuedTimes);
    console.log(
      `${debates} debates (${PLAYERS.length} players x 2 motions x both sides, crossfire, 3 seat calls each), one at a time; median of ${ROUNDS} alternating local and queued runs`,
    );
    report("local run: wall time per debate (seats answer at once)", localMs, "ms");
    report("queued (1 worker process): wall time per debate", queuedMs, "ms");
    report("queue adds per debate", queuedMs - localMs, "ms");
    report("Redis commands per debate (sent by clients)", commands.client / (debates * ROUNDS), "");
    report("Redis commands per debate (incl. inside Lua scripts)", commands.all / (debates * ROUNDS), "");
    // CPU per debate, seats included: the local run's, and the queued debate's by part; what no
    // part names is enqueuing, BullMQ's own job moves, polling and the rating job (Redis apart).
    const per = (ms: number) => ms / (debates * ROUNDS);
    const queuedCpu = cpuMs.worker + cpuMs.enqueuer;
    report("CPU per debate, local run (seats included)", per(cpuMs.local), "ms");
    report("CPU per queued debate (worker + enqueuer, seats included)", per(queuedCpu), "ms");
    report("  materialize: the folder from Redis into the worker's copy", per(parts.materialize), "ms");
    report("  run: the debate (its seats included)", per(parts.run), "ms");
    report("  checkpoint: in-flight marks and checkpoints to Redis", per(parts.checkpoint), "ms");
    report("  collect: the ended folder from Redis into the tournament", per(parts.collect), "ms");
    const named = parts.materialize + parts.run + parts.checkpoint + parts.collect;
    report("  the rest: enqueue, BullMQ's moves, polling, the rating", per(queuedCpu - named), "ms");
    report(
      "    of it in the worker (BullMQ's moves, the rating)",
      per(cpuMs.worker - named + parts.collect),
      "ms",
    );
    report("  and Redis's own CPU", per(cpuMs.redis), "ms");

    // Throughput: worker processes on one Redis, seats answering after SEAT_DELAY_MS; timed from
    // when every worker reports it waits for debates to the last debate collected.
    const perMinute: Record<number, number> = {};
    const cpuLines: string[] = [];
    const cpuPerDebate: Record<number, number> = {};
    for (const workers of WORKERS) {
      const dir = await newTournament(parent, `w${workers}`, slow.url, motionsFor(workers));
      const children = await Promise.all(
        Array.from({ length: workers }, () => startWorkerProcess(redis.url, slow.url)),
      );
      const cpu0 = await Promise.all(children.map((c) => cpuSeconds(c.pid!)));
      const redisCpu0 = await cpuSeconds(redis.child.pid!);
      const self0 = process.cpuUsage();
      const load0 = loadavg()[0]!;
      const start = performance.now();
      const summary = await enqueueTournament(dir, redis.url, { pollMs: 50 });
      const seconds = (performance.now() - start) / 1000;
      const cpu1 = await Promise.all(children.map((c) => cpuSeconds(c.pid!)));
      const redisCpu = (await cpuSeconds(redis.child.pid!)) - redisCpu0;
      const self = process.cpuUsage(self0);
      await stop(children);
      if (summary.done !== summary.total)
        throw new Error(`${workers} workers: ${summary.done}/${summary.total} done`);
      perMinute[workers] = summary.done / (seconds / 60);
      report(
        `${workers} worker(s), ${summary.done} debates, seats answering after ${SEAT_DELAY_MS} ms`,
        perMinute[workers],
        "debates/min",
      );
      const workerCpu = cpu1.reduce((sum, c, i) => sum + c - cpu0[i]!, 0);
      const enqueuerCpu = (self.user + self.system) / 1e6;
      const total = workerCpu + redisCpu + enqueuerCpu;
      cpuPerDebate[workers] = total / summary.done;
      cpuLines.push(
        `${workers} worker(s): ${seconds.toFixed(1)} s wall; CPU per debate: workers ${((1000 * workerCpu) / summary.done).toFixed(0)} ms, redis ${((1000 * redisCpu) / summary.done).toFixed(0)} ms, enqueuer ${((1000 * enqueuerCpu) / summary.done).toFixed(0)} ms; all ${(total / seconds).toFixed(2)} of ${availableParallelism()} cores busy; load average ${load0.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    for (const line of cpuLines) console.log(line);
    const most = Math.max(...WORKERS);
    if (perMinute[1] === undefined || most === 1) return;
    for (const workers of WORKERS.filter((w) => w >= 8))
      report(`${workers} workers / 1 worker`, perMinute[workers]! / perMinute[1], "x");
    // With every core busy, throughput cannot pass cores / CPU per debate, whatever the queue does.
    const ceiling = (availableParallelism() * 60) / cpuPerDebate[most]!;
    report(
      `CPU ceiling on ${availableParallelism()} cores (${most} workers' CPU per debate)`,
      ceiling,
      "debates/min",
    );
    report("that ceiling / 1 worker", ceiling / perMinute[1], "x");
  } finally {
    await Promise.all([instant.close(), slow.close()]);
    redis.child.kill("SIGTERM");
    await rm(parent, { recursive: true, force: true });
  }
}
