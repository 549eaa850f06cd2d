import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readDebateFolder } from "@debatekit/files";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runQueuedDebates, startWorker } from "./queue.js";
import { startRedisServer } from "./test-helpers/redis-server.js";
import { createReplayTournament } from "./test-helpers/replay-tournament.js";

// Debate folders run on the queue outside any tournament (what `gate eval run --queue` uses): a
// real redis-server on loopback (Debian's, installed by scripts/install-redis.mjs) and a worker in
// this process; the replay seats log every call they answer.

let server: ChildProcess;
let url: string;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "queued-debates-"));
  ({ server, url } = await startRedisServer());
});

afterAll(async () => {
  server?.kill("SIGKILL");
  if (root) await rm(root, { recursive: true, force: true });
});

describe("runQueuedDebates", () => {
  it("runs folders outside a tournament on a worker, writes them back, and a second call asks nothing", async () => {
    const t = path.join(root, "t");
    const { tournament } = await createReplayTournament(t);
    // Two debates copied out of the tournament: plain folders, no tournament.md beside them.
    const folders: Record<string, string> = {};
    for (const m of tournament.frontmatter.matches.slice(0, 2)) {
      folders[m.id] = path.join(root, "plain", m.id);
      await cp(path.join(t, "debates", m.id), folders[m.id]!, { recursive: true });
    }
    const log = path.join(root, "replay-log.jsonl");
    const worker = await startWorker(url, {
      workDir: path.join(root, "work"),
      env: { ...process.env, DEBATEKIT_REPLAY_LOG: log },
    });
    try {
      const ended = await runQueuedDebates(url, "plain-1", folders, { pollMs: 50 });
      expect(ended.map((e) => [e.id, e.status]).sort()).toEqual(
        Object.keys(folders)
          .sort()
          .map((id) => [id, "done"]),
      );
      for (const end of ended) expect(end.ms).toBeGreaterThanOrEqual(0);
      // Each folder is back on disk, finished (its verdict written): crossfire of one round asks
      // proposer, challenger and judge once each.
      for (const dir of Object.values(folders)) {
        expect((await readDebateFolder(dir)).ok).toBe(true);
        expect(existsSync(path.join(dir, "verdict.md"))).toBe(true);
      }
      const calls = (await readFile(log, "utf8")).trim().split("\n");
      expect(calls).toHaveLength(6);
      // The same group and ids again: the jobs have ended, so the folders are collected, nothing is asked.
      const again = await runQueuedDebates(url, "plain-1", folders, { pollMs: 50 });
      expect(again.map((e) => e.status)).toEqual(["done", "done"]);
      expect((await readFile(log, "utf8")).trim().split("\n")).toHaveLength(6);
    } finally {
      await worker.close();
    }
  }, 60_000);
});
