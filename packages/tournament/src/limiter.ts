import type { Adapter } from "@debatekit/adapter-kit";
import type { SeatConfig, TournamentFrontmatter } from "@debatekit/schema";

/** A provider's limits: calls in flight and calls started per rolling minute. */
export interface ProviderLimit {
  concurrency?: number;
  per_minute?: number;
}

/** Admits calls under one provider's limits, first come first served. */
export interface Gate {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

/** The gate's clock: what time it is, and how to be woken later (injectable for tests). */
export interface GateClock {
  now(): number;
  schedule(ms: number, wake: () => void): void;
}

const systemClock: GateClock = {
  now: Date.now,
  schedule: (ms, wake) => {
    setTimeout(wake, ms);
  },
};

/** A gate for one provider (in-process: one machine). */
export function createGate(limit: ProviderLimit, clock: GateClock = systemClock): Gate {
  let inFlight = 0;
  const starts: number[] = [];
  const queue: Array<() => void> = [];
  let timer = false;
  const pump = () => {
    while (queue.length > 0) {
      const now = clock.now();
      while (starts.length > 0 && starts[0]! <= now - 60_000) starts.shift();
      if (limit.concurrency !== undefined && inFlight >= limit.concurrency) return;
      if (limit.per_minute !== undefined && starts.length >= limit.per_minute) {
        // Wake when the oldest start leaves the window.
        if (!timer) {
          timer = true;
          clock.schedule(starts[0]! + 60_000 - now + 1, () => {
            timer = false;
            pump();
          });
        }
        return;
      }
      inFlight++;
      starts.push(now);
      queue.shift()!();
    }
  };
  return {
    acquire(signal) {
      return new Promise((resolve, reject) => {
        let released = false;
        const grant = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(() => {
            if (released) return;
            released = true;
            inFlight--;
            pump();
          });
        };
        const onAbort = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason ?? new Error("aborted"));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(grant);
        pump();
      });
    },
  };
}

/** Gates by adapter name, from tournament.md's `limits` (an adapter without limits is not gated). */
export function createProviderGates(
  limits: TournamentFrontmatter["limits"] = {},
): (seat: SeatConfig) => Gate | undefined {
  const gates = new Map<string, Gate>();
  return (seat) => {
    const limit = limits[seat.adapter];
    if (!limit) return undefined;
    const gate = gates.get(seat.adapter) ?? createGate(limit);
    gates.set(seat.adapter, gate);
    return gate;
  };
}

/** An adapter whose calls pass through its provider's gate (for runDebate's `wrapAdapter`). */
export function gatedAdapter(adapter: Adapter, gate: Gate | undefined): Adapter {
  if (!gate) return adapter;
  return {
    ...adapter,
    name: adapter.name,
    detect: () => adapter.detect(),
    async call(request) {
      let release: () => void;
      try {
        release = await gate.acquire(request.signal);
      } catch {
        return {
          status: "cancelled",
          text: "",
          durationMs: 0,
          transport: "file",
          error: "stopped while waiting for the provider's limit",
        };
      }
      try {
        return await adapter.call(request);
      } finally {
        release();
      }
    },
  };
}

/** A seat's answer that says "slow down": HTTP 429 or a rate-limit message. Nothing was answered. */
export const RATE_LIMITED = /\b429\b|rate.?limit/i;

/** Backoff of {@link pauseOnRateLimit} without a Retry-After: 1 s, 2 s, 4 s ... at most 60 s. */
export const RATE_LIMIT_BACKOFF = { firstMs: 1000, maxMs: 60_000 };

/** The wait a rate-limit error asks for (`retry-after: 3`, `retry after 1.5s`, `retry-after-ms: 200`), if it names one. */
export function retryAfterMs(error: string): number | undefined {
  const ms = /retry[-_ ]after[-_ ]ms\W{0,3}(\d+(?:\.\d+)?)/i.exec(error);
  if (ms) return Math.ceil(Number(ms[1]));
  const s = /retry[-_ ]?(?:after|in)\W{0,3}(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?)?\b/i.exec(error);
  if (!s) return undefined;
  return Math.ceil(Number(s[1]) * (s[2] === "ms" ? 1 : 1000));
}

/**
 * An adapter whose calls answered 429 / rate limited are asked again after a wait (the error's
 * Retry-After, else exponential backoff capped at a minute) instead of returning the failure: the
 * runner never sees it, so it is neither journaled nor counted as a retry. `onPause` is told each wait.
 */
export function pauseOnRateLimit(
  adapter: Adapter,
  onPause: (retryInMs: number, error: string) => void,
  backoff = RATE_LIMIT_BACKOFF,
): Adapter {
  return {
    ...adapter,
    name: adapter.name,
    detect: () => adapter.detect(),
    async call(request) {
      for (let pauses = 0; ; pauses++) {
        const result = await adapter.call(request);
        if (result.status === "ok" || !RATE_LIMITED.test(result.error ?? "")) return result;
        const error = result.error ?? "rate limited";
        const ms =
          retryAfterMs(error) ?? Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(pauses, 20));
        onPause(ms, error);
        const waited = await new Promise<boolean>((done) => {
          if (request.signal?.aborted) return done(false);
          const timer = setTimeout(() => {
            request.signal?.removeEventListener("abort", stop);
            done(true);
          }, ms);
          const stop = () => {
            clearTimeout(timer);
            done(false);
          };
          request.signal?.addEventListener("abort", stop, { once: true });
        });
        if (!waited)
          return {
            status: "cancelled",
            text: "",
            durationMs: 0,
            transport: "file",
            error: "stopped while paused by the provider's rate limit",
          };
      }
    },
  };
}

/** The Redis client calls the shared gates use (ioredis's `eval`). */
export interface RedisEval {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

// One sorted set per adapter and limit. In flight: members are leases (score = expiry, so a crashed
// worker's lease runs out); per minute: members are starts (score = start time). Returns 0 when the
// call may start, else how many ms to wait before asking again.
const ACQUIRE = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if ARGV[4] == 'flight' then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  if redis.call('ZCARD', KEYS[1]) < limit then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), ARGV[3])
    return 0
  end
  return 50
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], 120000)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + 60000 - now)`;

/** A call in flight holds its lease at most this long (a worker killed mid-call frees its place then). */
const LEASE_MS = 10 * 60_000;

/**
 * Gates shared by every worker through Redis (queue mode): per adapter, calls in flight and calls
 * started per rolling minute across all machines. Time is the workers' clocks (keep them in sync).
 */
export function createRedisGates(redis: RedisEval & { zrem(key: string, member: string): Promise<unknown> }) {
  let serial = 0;
  const wait = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((done, fail) => {
      if (signal?.aborted) return fail(signal.reason);
      const timer = setTimeout(done, ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          fail(signal.reason);
        },
        { once: true },
      );
    });
  return (seat: SeatConfig, limit: ProviderLimit | undefined): Gate | undefined => {
    if (!limit) return undefined;
    const flightKey = `debatekit:limit:${seat.adapter}:flight`;
    const minuteKey = `debatekit:limit:${seat.adapter}:minute`;
    return {
      async acquire(signal) {
        const id = `${process.pid}:${Date.now()}:${serial++}`;
        if (limit.concurrency !== undefined) {
          for (;;) {
            const ms = Number(
              await redis.eval(ACQUIRE, 1, flightKey, Date.now(), limit.concurrency, id, "flight", LEASE_MS),
            );
            if (ms === 0) break;
            await wait(ms, signal);
          }
        }
        const release = () => {
          if (limit.concurrency !== undefined) void redis.zrem(flightKey, id).catch(() => undefined);
        };
        try {
          if (limit.per_minute !== undefined) {
            for (;;) {
              const ms = Number(
                await redis.eval(ACQUIRE, 1, minuteKey, Date.now(), limit.per_minute, id, "minute", 0),
              );
              if (ms === 0) break;
              await wait(ms, signal);
            }
          }
        } catch (error) {
          release();
          throw error;
        }
        return release;
      },
    };
  };
}
