import type { ChildProcess } from "node:child_process";
import type { SeatConfig } from "@debatekit/schema";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisGates } from "./limiter.js";
import { startRedisServer } from "./test-helpers/redis-server.js";

// The provider limits of queue mode, on a real redis-server (Debian's, installed by
// scripts/install-redis.mjs): two connections stand for two worker machines.
let server: ChildProcess;
let url: string;
const clients: Redis[] = [];

beforeAll(async () => {
  ({ server, url } = await startRedisServer());
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  server?.kill("SIGKILL");
});

const connect = () => {
  const client = new Redis(url);
  clients.push(client);
  return client;
};
const seat = { adapter: "http", model: "m" } as SeatConfig;
const settled = async (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))]);

describe("Redis-backed provider limits, shared by every worker", () => {
  it("calls per minute: two workers together get the limit, the next call waits for the window", async () => {
    const [first, second] = [
      createRedisGates(connect())(seat, { per_minute: 3 })!,
      createRedisGates(connect())(seat, { per_minute: 3 })!,
    ];
    await first.acquire();
    await second.acquire();
    await first.acquire();
    // The fourth, from either worker, would wait for the oldest call to leave the minute (~60 s).
    const abort = new AbortController();
    const fourth = second.acquire(abort.signal);
    expect(await settled(fourth, 1500)).toBe(false);
    abort.abort(new Error("stopped"));
    await expect(fourth).rejects.toThrow("stopped");
    // Another adapter has its own window.
    const other = createRedisGates(connect())({ adapter: "claude" } as SeatConfig, { per_minute: 1 })!;
    expect(await settled(other.acquire(), 10_000)).toBe(true);
  });

  it("calls in flight: a worker's call waits until another worker's call is released", async () => {
    const gates = [createRedisGates(connect()), createRedisGates(connect())];
    const limit = { concurrency: 1 };
    const release = await gates[0]!(seat, limit)!.acquire();
    const waiting = gates[1]!(seat, limit)!.acquire();
    expect(await settled(waiting, 1500)).toBe(false);
    release();
    expect(await settled(waiting, 20_000)).toBe(true);
    (await waiting)();
  });
});
