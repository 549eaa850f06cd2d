// Queue mode (docs/architecture.md#tournaments): every debate a BullMQ job, the tournament the parent of a flow. Workers
// share nothing but Redis: a debate's folder is checkpointed there as it is written, each write
// guarded by the job's lock token, so a job redelivered to another worker resumes from there.
import { mkdtemp, rm, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Adapter } from "@debatekit/adapter-kit";
import { DebatekitError, redactMessage } from "@debatekit/core";
import { sleepUnlessAborted } from "@debatekit/files";
import { runDebate } from "@debatekit/runner";
import { countTokens } from "@debatekit/skills";
import { FlowProducer, Job, Queue, RateLimitError, UnrecoverableError, WaitingError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { DEBATES_DIR, matchFolder, readTournament, TOURNAMENT_FILE } from "./folder.js";
import { computeLeaderboard } from "./leaderboard.js";
import { createRedisGates, gatedAdapter, RATE_LIMITED } from "./limiter.js";
import { heard, openQueueConnection, parseQueueUrl, type QueueConnection, settlesWithin } from "./redis.js";
import { readResults, recordFailure, spendOf } from "./results.js";
import type { TournamentEvent, TournamentRunSummary } from "./run-local.js";
import { markEnded, needsRun } from "./run-local.js";
import { type FolderSnapshot, readFolderSnapshot, writeFolderSnapshot } from "./snapshot.js";
import {
  DEFAULT_WORKER_SEATS,
  refusedDebateJob,
  refusedFolderSeats,
  refusedRatingJob,
  refusedSeat,
  type WorkerSeats,
} from "./worker-seats.js";

/** The queue of debates (one job per match) and the queue of tournaments (a flow's parent, which rates). */
export const DEBATE_QUEUE = "debatekit-debates";
export const TOURNAMENT_QUEUE = "debatekit-tournaments";
/** BullMQ's default key prefix: the lock of job J in queue Q is `bull:Q:J:lock`, holding the worker's token. */
const PREFIX = "bull";

const filesKey = (tid: string, id: string) => `debatekit:files:${tid}:${id}`;
const inflightKey = (tid: string, id: string) => `debatekit:inflight:${tid}:${id}`;
const tournamentKey = (tid: string) => `debatekit:tournament:${tid}`;
/** A job id per match: BullMQ refuses `:` in custom ids. Enqueuing it twice is a no-op. */
export const debateJobId = (tid: string, id: string) => `${tid}.${id}`;

// Replaces a folder's snapshot only while KEYS[1] (the job's lock) holds ARGV[1] (our token): a
// worker that stalled past its lock and woke up late is refused (0), never overwrites the new owner.
// Only what changed since the last checkpoint is sent: ARGV[2] names removed, then name/text pairs.
// The snapshot then holds every answer asked so far, so the in-flight marker (KEYS[3]) is cleared.
// Fields go 1,000 arguments a command (Lua's unpack has a stack limit), not one command a file.
const CHUNKED = `
local function chunked(command, key, from, to)
  for i = from, to, 1000 do redis.call(command, key, unpack(ARGV, i, math.min(i + 999, to))) end
end`;
const CHECKPOINT = `${CHUNKED}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[3])
local removed = tonumber(ARGV[2])
chunked('HDEL', KEYS[2], 3, 2 + removed)
chunked('HSET', KEYS[2], 3 + removed, #ARGV)
return 1`;
// Before every seat call: still the job's owner? Then mark the call in flight (KEYS[2]) and go on;
// a worker that lost its lock (stalled, woke up late) is refused here, before it asks anything.
const MARK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1`;
// Uploads a folder only when Redis holds none yet: re-enqueuing never rolls a debate back.
const UPLOAD_IF_ABSENT = `${CHUNKED}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
chunked('HSET', KEYS[1], 1, #ARGV)
return 1`;

/** How long closing BullMQ's queues and workers may take once their jobs are handed back. */
const CLOSE_MS = 3_000;

const flatten = (files: FolderSnapshot) => Object.entries(files).flat();

/** CPU milliseconds this process used since `start` (all of it: work running beside counts too). */
const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
};

/** Options of enqueueTournament. */
export interface QueueRunOptions {
  signal?: AbortSignal;
  onEvent?: (event: TournamentEvent) => void;
  /** Attempts per debate (default 3), with exponential backoff from `backoffMs` (default 1000). */
  attempts?: number;
  backoffMs?: number;
  /** How often the enqueuer looks at the jobs (default 200 ms). */
  pollMs?: number;
  /** Enqueue the debates recorded as failed again (their jobs are replaced). */
  retryFailed?: boolean;
  /** How long Redis may take to connect, or to answer once connected (default QUEUE_CONNECT_TIMEOUT_MS). */
  redisTimeoutMs?: number;
  /** Stop enqueuing before a debate whose estimate would take the spend past this (USD). */
  maxCostUsd?: number;
  /** Estimated cost of each match (planTournament's perMatch); needed with maxCostUsd. */
  estimates?: Record<string, number | undefined>;
  now?: () => Date;
}

/**
 * `tournament run --queue`: uploads every unfinished debate folder to Redis (unless it is there
 * already), adds the tournament as a BullMQ flow (jobs by id: adding twice is a no-op), then waits,
 * writing each finished debate's folder from Redis back into the tournament folder (a failed one is
 * recorded in failures/), until the flow's parent has rated the tournament. Stopping the wait
 * (signal) leaves the jobs to the workers; running it again picks up where it is.
 */
export async function enqueueTournament(
  dir: string,
  url: string,
  options: QueueRunOptions = {},
): Promise<TournamentRunSummary> {
  const emit = (event: TournamentEvent) => options.onEvent?.(event);
  const now = options.now ?? (() => new Date());
  const queue = await openQueueConnection(url, options.signal, options.redisTimeoutMs);
  // XREAD blocks its connection: the wait for ended debates has one of its own.
  const watch = await openQueueConnection(url, options.signal, options.redisTimeoutMs).catch(
    async (error) => {
      await queue.close();
      throw error;
    },
  );
  const { redis } = queue;
  const connection = redis;
  const debates = heard(new Queue(DEBATE_QUEUE, { connection }));
  const tournaments = heard(new Queue(TOURNAMENT_QUEUE, { connection }));
  const flows = heard(new FlowProducer({ connection }));
  try {
    const tournament = await readTournament(dir);
    const tid = tournament.frontmatter.tournament_id;
    const results = new Map((await readResults(tournament)).map((r) => [r.match.id, r]));
    let todo = [...results.values()].filter((r) => needsRun(r, options.retryFailed)).map((r) => r.match);
    const total = tournament.frontmatter.matches.length;
    const count = () => {
      const all = [...results.values()];
      return {
        done: all.filter((r) => r.status === "done").length,
        failed: all.filter((r) => r.status === "failed").length,
        ...spendOf(all),
      };
    };
    let budgetStop: string | undefined;
    if (options.maxCostUsd !== undefined) {
      const unpriced = todo.filter((m) => options.estimates?.[m.id] === undefined);
      if (unpriced.length > 0) {
        throw new DebatekitError(
          "PRICE_MISSING",
          `--max-cost needs a price for every seat; tournament.md has none for the seats of ${unpriced[0]!.id} (set prices with \`debate tournament new --price\`)`,
          { file: TOURNAMENT_FILE, field: "prices" },
        );
      }
      // Spent so far, plus the estimate of every debate enqueued now: stop before the one that would pass the budget.
      let committedUsd = count().spendUsd;
      const within: typeof todo = [];
      for (const match of todo) {
        const estimateUsd = options.estimates![match.id]!;
        if (committedUsd + estimateUsd > options.maxCostUsd) {
          budgetStop = `stopped before ${match.id}: its estimated cost $${estimateUsd.toFixed(4)} would take the spend ($${committedUsd.toFixed(4)} spent or enqueued) past --max-cost $${options.maxCostUsd}`;
          emit({
            type: "budget_stop",
            id: match.id,
            estimateUsd,
            committedUsd,
            maxCostUsd: options.maxCostUsd,
          });
          break;
        }
        committedUsd += estimateUsd;
        within.push(match);
      }
      todo = within;
    }
    emit({ type: "started", total, done: count().done, failed: count().failed, todo: todo.length });
    if (tournament.frontmatter.status !== "finished") {
      tournament.frontmatter = {
        ...tournament.frontmatter,
        status: "running",
        runs: (tournament.frontmatter.runs ?? 0) + 1,
      };
      const { writeTournament } = await import("./folder.js");
      await writeTournament(tournament);
    }
    await redis.hset(tournamentKey(tid), TOURNAMENT_FILE, await readTournamentText(dir));
    await uploadFolders(
      redis,
      tid,
      todo.map((match) => [match.id, matchFolder(dir, match.id)]),
    );
    let parent = await Job.fromId(tournaments, tid);
    if (parent && todo.length > 0 && (await parent.getState()) === "completed") {
      // A finished flow gets no new children: debates enqueued again (--retry-failed, a budget
      // raised) go into a new flow, in place of the old one and of their own failed jobs.
      for (const match of todo)
        await (await Job.fromId(debates, debateJobId(tid, match.id)))?.remove({ removeChildren: false });
      await parent.remove({ removeChildren: false });
      parent = undefined;
    }
    if (!parent && todo.length > 0) {
      await flows.add({
        name: "rate",
        queueName: TOURNAMENT_QUEUE,
        data: { tid, matches: tournament.frontmatter.matches.map((m) => m.id) },
        opts: { jobId: tid },
        children: todo.map((m) => {
          const job = debateJob(tid, m.id, tournament.frontmatter.limits ?? {}, options);
          // A debate that fails for good is recorded; the tournament still rates the others.
          return { ...job, queueName: DEBATE_QUEUE, opts: { ...job.opts, ignoreDependencyOnFailure: true } };
        }),
      });
    }
    const pending = new Set(todo.map((m) => m.id));
    const started = Date.now();
    let ended = 0;
    let seen = await lastEventId(watch.redis);
    while (pending.size > 0 && !options.signal?.aborted) {
      // Two commands a look, however many debates are pending: their scores in BullMQ's
      // completed and failed sets (a job is in one of them once it has ended). A look follows
      // each job that ends (BullMQ's events stream says so), or pollMs without one.
      const ids = [...pending];
      const states = await jobStates(redis, tid, ids);
      for (const [i, id] of ids.entries()) {
        const state = states[i]!;
        if (state === "pending") continue;
        const collectStart = process.cpuUsage();
        const job = state === "failed" ? await Job.fromId(debates, debateJobId(tid, id)) : undefined;
        await collectFolder(redis, tid, id, matchFolder(dir, id));
        if (state === "failed") {
          await recordFailure(dir, id, {
            code: "DEBATE_FAILED",
            message: job?.failedReason ?? "the debate failed",
            at: now().toISOString(),
          });
        }
        const match = tournament.frontmatter.matches.find((m) => m.id === id)!;
        const { readMatchResult } = await import("./results.js");
        results.set(id, await readMatchResult(tournament, match));
        pending.delete(id);
        ended++;
        emit({
          type: "debate_finished",
          id,
          status: state === "completed" ? "done" : "failed",
          durationMs: Date.now() - started,
          collectCpuMs: cpuMsSince(collectStart),
        });
        const left = pending.size;
        const c = count();
        emit({
          type: "progress",
          ...c,
          total,
          running: left,
          ...(left > 0 ? { etaMs: Math.round(((Date.now() - started) / ended) * left) } : {}),
        });
      }
      if (pending.size > 0) seen = await untilJobEnds(watch.redis, seen, options.pollMs ?? 200);
    }
    // Every debate ended: the flow's parent rates once a worker has taken it.
    while (pending.size === 0 && !options.signal?.aborted) {
      const job = await Job.fromId(tournaments, tid);
      if (!job || (await job.getState()) === "completed") break;
      await sleepUnlessAborted(options.pollMs ?? 200, options.signal);
    }
    const c = count();
    const remaining = total - c.done - c.failed;
    const summary: TournamentRunSummary = {
      total,
      done: c.done,
      failed: c.failed,
      remaining,
      ran: todo.length,
      status: remaining === 0 ? "finished" : "stopped",
      spendUsd: c.spendUsd,
      unreportedCalls: c.unreportedCalls,
      ...(options.signal?.aborted
        ? { reason: "stopped waiting (the workers go on); run again to collect" }
        : budgetStop
          ? { reason: budgetStop }
          : {}),
    };
    await markEnded(dir, summary, now());
    emit({ type: "finished", summary });
    return summary;
  } catch (error) {
    // A command failed because Redis went away: say so in one line, not as "Connection is closed".
    throw queue.lostError() ?? watch.lostError() ?? error;
  } finally {
    await settlesWithin(CLOSE_MS, Promise.all([flows.close(), debates.close(), tournaments.close()]));
    await Promise.all([queue.close(), watch.close()]);
  }
}

/** BullMQ's events stream of the debates' queue: an entry for each job added, started, ended... */
const EVENTS = `${PREFIX}:${DEBATE_QUEUE}:events`;

/** The id of the stream's latest entry ("0-0" when it has none): what happens later is new. */
async function lastEventId(redis: Redis): Promise<string> {
  const [latest] = await redis.xrevrange(EVENTS, "+", "-", "COUNT", 1);
  return latest?.[0] ?? "0-0";
}

/**
 * Waits (XREAD BLOCK) until the stream has an entry after `seen` saying a job completed or
 * failed, or `ms` pass without a new entry; returns the id of the last entry read.
 */
async function untilJobEnds(redis: Redis, seen: string, ms: number): Promise<string> {
  for (;;) {
    const reply = await redis.xread("COUNT", 1000, "BLOCK", ms, "STREAMS", EVENTS, seen);
    const entries = reply?.[0]?.[1] ?? [];
    if (entries.length === 0) return seen;
    seen = entries.at(-1)![0];
    const ends = entries.some(([, fields]) => {
      const event = fields[fields.indexOf("event") + 1];
      return event === "completed" || event === "failed";
    });
    if (ends) return seen;
  }
}

/**
 * Uploads debate folders (`[id, folder]` pairs) to Redis, each unless Redis holds it already
 * (re-enqueuing never rolls a debate back), all in one round trip (a pipeline). A missing folder
 * uploads nothing: a collect killed between its two renames leaves Redis holding the debate, and
 * collecting it writes the folder again.
 */
async function uploadFolders(
  redis: Redis,
  tid: string,
  folders: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const uploads = redis.pipeline();
  for (const [id, dir] of folders) {
    const files = await readFolderSnapshot(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return {};
      throw error;
    });
    if (Object.keys(files).length > 0)
      uploads.eval(UPLOAD_IF_ABSENT, 1, filesKey(tid, id), ...flatten(files));
  }
  for (const [error] of (await uploads.exec()) ?? []) if (error) throw error;
}

/** Writes a debate's folder back from Redis (nothing when Redis holds none). */
async function collectFolder(redis: Redis, tid: string, id: string, dir: string): Promise<void> {
  const files = await redis.hgetall(filesKey(tid, id));
  if (Object.keys(files).length > 0) await writeFolderSnapshot(dir, files);
}

/** The job of one debate, by id (adding it twice is a no-op), with its attempts and backoff. */
function debateJob(
  tid: string,
  id: string,
  limits: Record<string, unknown>,
  options: { attempts?: number; backoffMs?: number },
) {
  return {
    name: "debate",
    data: { tid, id, limits },
    opts: {
      jobId: debateJobId(tid, id),
      attempts: options.attempts ?? 3,
      backoff: { type: "exponential", delay: options.backoffMs ?? 1000 },
    },
  };
}

/**
 * How each debate job of `ids` stands: two commands a look however many are pending, their scores
 * in BullMQ's completed and failed sets (a job is in one of them once it has ended).
 */
async function jobStates(
  redis: Redis,
  tid: string,
  ids: readonly string[],
): Promise<Array<"completed" | "failed" | "pending">> {
  const jobIds = ids.map((id) => debateJobId(tid, id));
  const [completed, failed] = await Promise.all([
    redis.zmscore(`${PREFIX}:${DEBATE_QUEUE}:completed`, ...jobIds),
    redis.zmscore(`${PREFIX}:${DEBATE_QUEUE}:failed`, ...jobIds),
  ]);
  return ids.map((_id, i) =>
    completed[i] !== null ? "completed" : failed[i] !== null ? "failed" : "pending",
  );
}

/** How a debate queued outside a tournament ended, and how long its last attempt ran on its worker. */
export interface QueuedDebateEnd {
  /** The debate's id: its key in `folders`. */
  id: string;
  /** `done`: its job completed; `failed`: its last attempt failed for good. */
  status: "done" | "failed";
  /** Why it failed (the job's last error). */
  reason?: string;
  /** How long its last attempt ran on its worker. */
  ms?: number;
}

/** Options of runQueuedDebates. */
export interface QueuedDebatesOptions {
  /** Stops the wait: the jobs stay with the workers, and calling again collects them. */
  signal?: AbortSignal;
  /** Attempts per debate (default 3). */
  attempts?: number;
  /** The first retry's delay (default 1000 ms), doubled for each later one. */
  backoffMs?: number;
  /** How often the jobs are looked at (default 200 ms). */
  pollMs?: number;
  /** How long Redis may take to connect, or to answer once connected (default QUEUE_CONNECT_TIMEOUT_MS). */
  redisTimeoutMs?: number;
  /** Called for each debate once its folder is written back, before the next is looked at. */
  onEnded?: (end: QueuedDebateEnd) => void | Promise<void>;
}

/**
 * Runs debate folders on the queue's workers outside any tournament (no flow, nothing rated): each
 * folder (`folders`: id -> folder) is uploaded unless Redis holds it already, enqueued as a debate
 * job by id, and written back from Redis once its job has ended. Workers run these jobs as they run a
 * tournament's, so every answered seat call is checkpointed and never asked again. `group` keeps
 * callers' keys apart (no `:`); the same group and ids resume where they are. Stopping the wait
 * (signal) leaves the jobs to the workers and returns the debates ended so far.
 */
export async function runQueuedDebates(
  url: string,
  group: string,
  folders: Readonly<Record<string, string>>,
  options: QueuedDebatesOptions = {},
): Promise<QueuedDebateEnd[]> {
  const queue = await openQueueConnection(url, options.signal, options.redisTimeoutMs);
  const { redis } = queue;
  const debates = heard(new Queue(DEBATE_QUEUE, { connection: redis }));
  try {
    const ids = Object.keys(folders);
    await uploadFolders(
      redis,
      group,
      ids.map((id) => [id, folders[id]!]),
    );
    for (const id of ids) {
      const job = debateJob(group, id, {}, options);
      await debates.add(job.name, job.data, job.opts);
    }
    const pending = new Set(ids);
    const ended: QueuedDebateEnd[] = [];
    while (pending.size > 0 && !options.signal?.aborted) {
      const looked = [...pending];
      const states = await jobStates(redis, group, looked);
      for (const [i, id] of looked.entries()) {
        const state = states[i]!;
        if (state === "pending") continue;
        const job = await Job.fromId(debates, debateJobId(group, id));
        await collectFolder(redis, group, id, folders[id]!);
        const end: QueuedDebateEnd = {
          id,
          status: state === "completed" ? "done" : "failed",
          ...(state === "failed" ? { reason: job?.failedReason ?? "the debate failed" } : {}),
          ...(job?.finishedOn && job.processedOn ? { ms: job.finishedOn - job.processedOn } : {}),
        };
        pending.delete(id);
        ended.push(end);
        await options.onEnded?.(end);
      }
      if (pending.size > 0) await sleepUnlessAborted(options.pollMs ?? 200, options.signal);
    }
    return ended;
  } catch (error) {
    throw queue.lostError() ?? error;
  } finally {
    await settlesWithin(CLOSE_MS, debates.close());
    await queue.close();
  }
}

async function readTournamentText(dir: string): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  return readFile(path.join(dir, TOURNAMENT_FILE), "utf8");
}

/** What a worker reports. */
export type WorkerEvent =
  | {
      type: "job_started";
      job: string;
      attempt: number;
      /** The call a previous owner had in flight when it lost the job (asked again now, if not answered). */
      inFlight?: string;
    }
  | {
      type: "job_finished";
      job: string;
      /** `returned`: back in the queue, its attempt not used up, because this worker is stopping. */
      status: "done" | "failed" | "lost" | "paused" | "returned";
      reason?: string;
      /** With `done`: the CPU the job took in this process, by part. */
      cpuMs?: JobPartsCpu;
    }
  /** Something BullMQ reported outside any job (a connection's errors end the worker instead). */
  | { type: "warning"; message: string }
  | { type: "rated"; tournament: string };

/**
 * CPU milliseconds of one queued debate in its worker, by part: its folder written from Redis
 * (materialize), the debate itself (run), the in-flight marks and checkpoints (checkpoint). Read
 * with process.cpuUsage: a debate running beside it in the same process counts too.
 */
export interface JobPartsCpu {
  materialize: number;
  run: number;
  checkpoint: number;
}

/** Options of startWorker. */
export interface WorkerOptions {
  /** Debates this worker runs at once (default 1). */
  concurrency?: number;
  /** Where the worker keeps its working copies (default: a new folder in /dev/shm when it has 1 GiB free, else in the temp folder; removed by close()). */
  workDir?: string;
  /** BullMQ's lock duration and stalled-check interval (defaults 30 s and 30 s; tests use short ones). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  env?: NodeJS.ProcessEnv;
  onEvent?: (event: WorkerEvent) => void;
  /** Stops connecting (startWorker fails at once); stop a started worker with its close(). */
  signal?: AbortSignal;
  /** How long Redis may take to connect, or to answer once connected (default QUEUE_CONNECT_TIMEOUT_MS). */
  redisTimeoutMs?: number;
  /**
   * The seats this worker runs (default: replay seats only). A job whose debate.md names another
   * adapter, or a server (loopback included) no entry of `endpoints` covers, fails unrun.
   */
  seats?: WorkerSeats;
}

/** The lock was taken over: another worker owns the job now; this one must stop writing. */
class LockLostError extends Error {}
/** A seat answered 429 / rate limited: nothing was answered, so nothing is journaled; the job waits. */
class RateLimitedError extends Error {}
/**
 * A seat failed in a way that may pass (HTTP 5xx, overloaded): not journaled either; the job fails
 * this attempt and BullMQ retries it with exponential backoff, resuming from its checkpoint. After
 * the last attempt the debate is recorded as failed (failures/), and `--retry-failed` runs it again.
 */
class TransientSeatError extends Error {}
const TRANSIENT =
  /\bHTTP 5\d\d\b|\b(?:overloaded|internal server error|bad gateway|service unavailable|gateway timeout)\b/i;

/**
 * `debate worker --queue`: takes debates from Redis and runs them in a working folder of its own,
 * checkpointing the folder to Redis after every journal entry and committed step under the job's
 * lock token; also rates tournaments whose debates have all ended. Returns a handle to stop it.
 */
export async function startWorker(
  url: string,
  options: WorkerOptions = {},
): Promise<{ close(): Promise<void>; lost: Promise<DebatekitError> }> {
  // One after another: an unusable queue fails on the first, in one line. Connections given to
  // BullMQ stay open when its workers close: close() closes them itself.
  const connections: QueueConnection[] = [];
  try {
    for (let i = 0; i < 3; i++)
      connections.push(await openQueueConnection(url, options.signal, options.redisTimeoutMs));
  } catch (error) {
    await Promise.all(connections.map((c) => c.close()));
    throw error;
  }
  const [redis, debatesConnection, ratingConnection] = connections.map((c) => c.redis) as [
    Redis,
    Redis,
    Redis,
  ];
  const emit = (event: WorkerEvent) => options.onEvent?.(event);
  // Aborted by close(): the debates in hand stop at their next safe point and go back to the queue.
  const stopping = new AbortController();
  const { secrets } = parseQueueUrl(url);
  const onError = (error: Error) => {
    // A connection's errors end in `lost` (one line); the rest are told, redacted, one line each.
    if ((error as NodeJS.ErrnoException).code || /connection is closed/i.test(error.message)) return;
    emit({ type: "warning", message: redactMessage(error.message.split("\n")[0]!, secrets) });
  };
  const seats = options.seats ?? DEFAULT_WORKER_SEATS;
  // A job refused before anything is run: it fails for good (no retry), saying why; the worker goes on.
  const refuse = (jobId: string | undefined, reason: string): never => {
    const shownId =
      typeof jobId === "string" && /^[\w.-]{1,200}$/.test(jobId) ? jobId : JSON.stringify(jobId);
    emit({ type: "job_finished", job: shownId ?? "(no id)", status: "failed", reason });
    throw new UnrecoverableError(reason);
  };
  const ownDir = options.workDir === undefined;
  const workDir = options.workDir ?? (await mkdtemp(path.join(await scratchRoot(), "debatekit-worker-")));
  // Every debate counts its prompts' tokens: the encoder is built now (about a second of CPU, once),
  // so that a worker that says it is ready runs its first debate as fast as the others.
  countTokens("ready");
  const gates = createRedisGates(redis);
  const common = {
    connection: debatesConnection,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    // A job whose worker died or stalled goes back to the queue, and resumes from its checkpoint:
    // several such losses are no reason to give the debate up.
    maxStalledCount: 10,
  };
  const debatesWorker: Worker = new Worker(
    DEBATE_QUEUE,
    async (job, token) => {
      // The job is data from whoever can write the queue: its ids name its working folder.
      const badJob = refusedDebateJob(job.id, job.data);
      if (badJob) refuse(job.id, badJob);
      const {
        tid,
        id,
        limits = {},
      } = job.data as {
        tid: string;
        id: string;
        limits?: Record<string, { concurrency?: number; per_minute?: number }>;
      };
      const lockKey = `${PREFIX}:${DEBATE_QUEUE}:${job.id}:lock`;
      const dir = path.join(workDir, tid, id);
      if (path.relative(workDir, dir).split(path.sep).includes(".."))
        refuse(
          job.id,
          `refused: its folder ${JSON.stringify(path.join(tid, id))} leads outside the worker's folder`,
        );
      const cpu: JobPartsCpu = { materialize: 0, run: 0, checkpoint: 0 };
      const metered = async <T>(part: keyof JobPartsCpu, work: () => Promise<T>): Promise<T> => {
        const start = process.cpuUsage();
        try {
          return await work();
        } finally {
          cpu[part] += cpuMsSince(start);
        }
      };
      const materializeStart = process.cpuUsage();
      const [files, inFlight] = await Promise.all([
        redis.hgetall(filesKey(tid, id)),
        redis.get(inflightKey(tid, id)),
      ]);
      emit({
        type: "job_started",
        job: job.id!,
        attempt: job.attemptsMade + 1,
        ...(inFlight ? { inFlight } : {}),
      });
      if (Object.keys(files).length === 0)
        throw new UnrecoverableError(`Redis holds no folder for ${id}: enqueue the tournament again`);
      const badSeat = refusedFolderSeats(files, seats);
      if (badSeat) refuse(job.id, badSeat);
      // A scratch copy (Redis holds the debate): plain writes, no fsync.
      await writeFolderSnapshot(dir, files, { atomic: false });
      cpu.materialize += cpuMsSince(materializeStart);
      let sent = new Map(Object.entries(files));
      const checkpointNow = async () => {
        const now = await readFolderSnapshot(dir);
        const removed = [...sent.keys()].filter((name) => !Object.hasOwn(now, name));
        const changed = Object.entries(now).filter(([name, text]) => sent.get(name) !== text);
        const written = await redis.eval(
          CHECKPOINT,
          3,
          lockKey,
          filesKey(tid, id),
          inflightKey(tid, id),
          token!,
          removed.length,
          ...removed,
          ...changed.flat(),
        );
        if (written !== 1) throw new LockLostError(`lost the lock of ${job.id}: another worker owns it now`);
        sent = new Map(Object.entries(now));
      };
      const checkpoint = () => metered("checkpoint", checkpointNow);
      const markedAdapter = (adapter: Adapter): Adapter => ({
        ...adapter,
        name: adapter.name,
        detect: () => adapter.detect(),
        async call(request) {
          const step = request.step
            ? `x${request.step.exchange}/${request.step.role}/a${request.step.attempt}`
            : "a call";
          const marked = await metered("checkpoint", () =>
            redis.eval(MARK, 2, lockKey, inflightKey(tid, id), token!, `${step} (worker ${process.pid})`),
          );
          if (marked !== 1)
            throw new LockLostError(
              `lost the lock of ${job.id} before asking ${step}: another worker owns it now`,
            );
          const result = await adapter.call(request);
          // Thrown before the runner journals it: a 429 is no answer, and journaled it would end
          // the debate (crossfire aborts on a failed seat). The job pauses and asks it again later.
          if (result.status !== "ok" && RATE_LIMITED.test(result.error ?? "")) {
            throw new RateLimitedError(`${step}: ${result.error}`);
          }
          if (result.status === "exit" && TRANSIENT.test(result.error ?? "")) {
            throw new TransientSeatError(`${step}: ${result.error}`);
          }
          return result;
        },
      });
      // The worker is stopping: the job goes back to the queue without using up an attempt; its
      // next owner resumes from the last checkpoint (every answer so far).
      const handBack = async (): Promise<never> => {
        emit({ type: "job_finished", job: job.id!, status: "returned", reason: "this worker is stopping" });
        await job.moveToWait(token);
        throw new WaitingError();
      };
      let summary: Awaited<ReturnType<typeof runDebate>>;
      try {
        const checkpointBefore = cpu.checkpoint;
        summary = await metered("run", () =>
          runDebate(dir, {
            signal: stopping.signal,
            command: `debate worker (job ${job.id})`,
            // A new answer is what must never be lost (it was paid for): checkpointed at once. Its
            // validation and the steps it commits are derived from it, so a later owner redoes them
            // without asking anything; they reach Redis with the next answer and at the end.
            checkpoint: async (what, entry) => {
              if (what === "journal" && entry && !entry.validation) await checkpoint();
            },
            wrapAdapter: (adapter, seat) => {
              // Checked again as each adapter is made: only seats this worker allows are ever asked.
              const refused = refusedSeat("(a seat)", seat as unknown as Record<string, unknown>, seats);
              if (refused) throw new UnrecoverableError(`refused: ${refused}`);
              return gatedAdapter(markedAdapter(adapter), gates(seat, limits[seat.adapter]));
            },
            ...(options.env ? { env: options.env } : {}),
          }),
        );
        // The run's own CPU: the marks and checkpoints made inside it are counted apart.
        cpu.run -= cpu.checkpoint - checkpointBefore;
        await checkpoint();
      } catch (error) {
        if (stopping.signal.aborted && !(error instanceof LockLostError)) await handBack();
        if (error instanceof LockLostError) {
          emit({ type: "job_finished", job: job.id!, status: "lost", reason: error.message });
          // Nothing this worker writes counts any more; BullMQ refuses its completion too.
          throw error;
        }
        if (error instanceof RateLimitedError) {
          // The provider said slow down: pause this queue a while without using up an attempt;
          // the job resumes from its last checkpoint (what was answered before stays answered).
          emit({ type: "job_finished", job: job.id!, status: "paused", reason: error.message });
          await checkpoint().catch(() => undefined);
          await debatesWorker.rateLimit(5_000);
          throw new RateLimitError();
        }
        if (error instanceof TransientSeatError) {
          const attempts = job.opts.attempts ?? 1;
          const last = job.attemptsMade + 1 >= attempts;
          emit({
            type: "job_finished",
            job: job.id!,
            status: "failed",
            reason: `${error.message} (attempt ${job.attemptsMade + 1} of ${attempts}${last ? "" : "; retried with backoff"})`,
          });
        }
        throw error;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      if (summary.status !== "done" && stopping.signal.aborted) await handBack();
      if (summary.status === "done") {
        emit({ type: "job_finished", job: job.id!, status: "done", cpuMs: cpu });
        return { status: "done", outcome: summary.outcome ?? null };
      }
      const reason = summary.error
        ? `${summary.error.code}: ${summary.error.message}`
        : (summary.reason ?? summary.status);
      emit({ type: "job_finished", job: job.id!, status: "failed", reason });
      if (RATE_LIMITED.test(reason)) {
        // The provider said slow down: pause this queue a while without using up an attempt.
        await debatesWorker.rateLimit(5_000);
        throw new RateLimitError();
      }
      if (summary.status === "waiting" || summary.status === "paused") {
        throw new UnrecoverableError(
          `${summary.status}: ${reason} (a queued debate cannot wait for a person)`,
        );
      }
      throw new Error(reason);
    },
    { ...common, concurrency: options.concurrency ?? 1 },
  );
  const ratingWorker = new Worker(
    TOURNAMENT_QUEUE,
    async (job) => {
      const badJob = refusedRatingJob(job.data);
      if (badJob) refuse(job.id, badJob);
      const { tid, matches } = job.data as { tid: string; matches: string[] };
      const dir = await mkdtemp(path.join(tmpdir(), "debatekit-rate-"));
      try {
        const text = await redis.hget(tournamentKey(tid), TOURNAMENT_FILE);
        if (!text) throw new UnrecoverableError(`Redis holds no tournament.md for ${tid}`);
        const snapshot: FolderSnapshot = { [TOURNAMENT_FILE]: text };
        for (const id of matches) {
          for (const [name, body] of Object.entries(await redis.hgetall(filesKey(tid, id))))
            snapshot[`${DEBATES_DIR}/${id}/${name}`] = body;
        }
        await writeFolderSnapshot(dir, snapshot, { atomic: false });
        const tournament = await readTournament(dir);
        const leaderboard = computeLeaderboard(tournament.frontmatter, await readResults(tournament));
        emit({ type: "rated", tournament: tid });
        return { counts: leaderboard.counts, ratings: leaderboard.ratings };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    { ...common, connection: ratingConnection },
  );
  heard(debatesWorker, onError);
  heard(ratingWorker, onError);
  return {
    lost: Promise.race(connections.map((c) => c.lost)),
    async close() {
      stopping.abort();
      await settlesWithin(CLOSE_MS, Promise.all([debatesWorker.close(), ratingWorker.close()]));
      await Promise.all(connections.map((c) => c.close()));
      if (ownDir) await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** A memory file system with at least this much room holds a worker's working copies by default. */
const MEMORY_ROOM = 1024 ** 3;

/**
 * Where a worker makes its working copies by default: in memory (Linux's /dev/shm) when it has
 * room. Redis holds each debate, so its copy need not reach a disk, yet the runner fsyncs each of
 * its writes (a dozen for each step); in memory those cost nothing. Elsewhere, the temp folder.
 */
async function scratchRoot(): Promise<string> {
  const memory = "/dev/shm";
  const room = await statfs(memory).then(
    (fs) => fs.bavail * fs.bsize,
    () => 0,
  );
  return room >= MEMORY_ROOM ? memory : tmpdir();
}
