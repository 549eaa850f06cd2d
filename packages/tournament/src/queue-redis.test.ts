import { mkdtemp, readdir, rm, statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueTournament, type JobPartsCpu, startWorker } from "./queue.js";
import type { TournamentEvent } from "./run-local.js";
import { startRedisServer } from "./test-helpers/redis-server.js";
import { createReplayTournament } from "./test-helpers/replay-tournament.js";

// Queue mode on a real redis-server with a worker in this process and the replay seats of
// examples/tournament-replay.

let server: Awaited<ReturnType<typeof startRedisServer>>;
let url: string;
let root: string;

beforeAll(async () => {
  server = await startRedisServer();
  url = server.url;
  root = await mkdtemp(path.join(tmpdir(), "queue-redis-"));
});

afterAll(async () => {
  server?.server.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

const workerFolders = async (parent: string) =>
  (await readdir(parent)).filter((name) => name.startsWith("debatekit-worker-"));

describe("a queue worker", () => {
  it("reports each debate's CPU by part, keeps its copies in memory and removes them when it closes", async () => {
    // This machine has a memory file system with room (the default then puts the copies there).
    expect((await statfs("/dev/shm")).bavail * (await statfs("/dev/shm")).bsize).toBeGreaterThan(1024 ** 3);
    const before = await workerFolders("/dev/shm");
    const done: JobPartsCpu[] = [];
    const worker = await startWorker(url, {
      env: { ...process.env, DEBATEKIT_REPLAY_LOG: path.join(root, "replay-log.jsonl") },
      onEvent: (event) => {
        if (event.type === "job_finished" && event.cpuMs) done.push(event.cpuMs);
      },
    });
    const mine = (await workerFolders("/dev/shm")).filter((name) => !before.includes(name));
    expect(mine).toHaveLength(1);
    const dir = path.join(root, "t");
    await createReplayTournament(dir);
    const finished: Array<Extract<TournamentEvent, { type: "debate_finished" }>> = [];
    try {
      const summary = await enqueueTournament(dir, url, {
        pollMs: 20,
        onEvent: (event) => {
          if (event.type === "debate_finished") finished.push(event);
        },
      });
      expect(summary.done).toBe(summary.total);
    } finally {
      await worker.close();
    }
    expect(done).toHaveLength(finished.length);
    for (const parts of done) {
      expect(parts.materialize).toBeGreaterThan(0);
      expect(parts.run).toBeGreaterThan(0);
      expect(parts.checkpoint).toBeGreaterThan(0);
    }
    for (const event of finished) expect(event.collectCpuMs).toBeGreaterThan(0);
    expect(await workerFolders("/dev/shm")).not.toContain(mine[0]);
  }, 60_000);
});
