import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { openQueueConnection, type QueueConnection, readFolderSnapshot } from "@debatekit/tournament";
import { Job, Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exited, freePort, REDIS, spawnDebate } from "./queue-helpers.js";
import { folderFingerprint, replayTournamentArgs, repoRoot } from "./workspace.js";

// Whoever can write the queue writes its jobs and the debate folders in Redis. This test plays that
// writer with BullMQ itself against a real redis-server on loopback and a real `debate worker` (the
// built CLI): a job whose ids would lead out of the worker's folder, or whose seats name an adapter
// or a server (loopback included) the worker was not told to allow, fails unrun, saying why, and the
// worker goes on with the next job.

const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/tournament-replay");
const run = promisify(execFile);
const DEBATES = "debatekit-debates";
const env = { ...process.env, NO_COLOR: "1", CI: "1", VICTIM_KEY: "Vk-93b1f0c27e" };

let work: string;
let url: string;
let queue: Queue;
let writer: QueueConnection;
const children: ChildProcess[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "queue-hostile-"));
  const port = await freePort();
  const server = spawn(
    REDIS!,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  let out = "";
  server.stdout!.on("data", (d) => {
    out += String(d);
  });
  await until(() => /Ready to accept connections/.test(out), 15_000);
  children.push(server);
  url = `redis://127.0.0.1:${port}`;
  writer = await openQueueConnection(url);
  queue = new Queue(DEBATES, { connection: writer.redis });
});
afterEach(async () => {
  // The workers of a test; redis-server (the first child) lives until the end.
  for (const child of children.splice(1)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
  }
});
afterAll(async () => {
  await queue?.close();
  await writer?.close();
  for (const child of children) child.kill("SIGKILL");
  if (work) await rm(work, { recursive: true, force: true });
});

async function until(test: () => boolean | Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `debate worker` with `args`, its events as JSON lines; resolves once it waits for debates. */
async function startWorker(args: string[]) {
  const worker = spawnDebate(["worker", url, "--json", ...args], { cwd: work, env });
  children.push(worker.child);
  await until(() => /waiting for debates/.test(worker.err()));
  return worker;
}

/** Ends a worker (so that the next job goes to the next one). */
async function stop(worker: { child: ChildProcess }) {
  worker.child.kill("SIGKILL");
  await exited(worker.child);
}

/** The worker's `job_finished` event for `job`, once it has come. */
async function finished(worker: { err(): string }, job: string) {
  let event: { status: string; reason?: string } | undefined;
  await until(() => {
    for (const line of worker.err().split("\n")) {
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as { type: string; job: string; status: string; reason?: string };
      if (parsed.type === "job_finished" && parsed.job === job) event = parsed;
    }
    return event !== undefined;
  });
  return event!;
}

/** Waits until BullMQ says the job ended (failed or completed), whatever the worker said. */
async function settled(jobId: string): Promise<string> {
  let state = "";
  await until(async () => {
    state = (await (await Job.fromId(queue, jobId))?.getState()) ?? "";
    return state === "failed" || state === "completed";
  });
  return state;
}

/** Writes a debate folder into Redis as `run --queue` does, and adds its job (as anyone who can write the queue can). */
async function enqueue(tid: string, id: string, files: Record<string, string>, jobId = `${tid}.${id}`) {
  await writer.redis.hset(`debatekit:files:${tid}:${id}`, files);
  await queue.add("debate", { tid, id, limits: {} }, { jobId, attempts: 1 });
  return jobId;
}

/** The first debate folder (its id and files) of a tournament `tournament new <name> ...args` makes. */
async function debateFolder(
  name: string,
  args: string[],
): Promise<{ id: string; files: Record<string, string> }> {
  await run(process.execPath, [bin, "tournament", "new", name, ...args], { cwd: work, env });
  const debates = join(work, name, "debates");
  const [id] = (await readdir(debates)).sort();
  return { id: id!, files: await readFolderSnapshot(join(debates, id!)) };
}

/** A loopback TCP server that counts the connections made to it (a model server a seat could be sent to). */
async function countingServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, port: (server.address() as { port: number }).port, connections: () => connections };
}

describe("a queue job cannot reach outside the worker's folder", () => {
  it("a tid or id that is not a slug fails unrun, nothing outside is touched, and the worker goes on", async () => {
    const workDir = join(work, "w-paths");
    const victims = join(work, "victims");
    await mkdir(join(victims, "victim"), { recursive: true });
    await writeFile(join(victims, "victim", "keep.txt"), "precious\n");
    const before = await folderFingerprint(victims);
    const worker = await startWorker(["--dir", workDir]);
    const files = { "debate.md": "---\nformat: crossfire\n---\n", "planted.txt": "written by the queue\n" };

    // path.join(workDir, tid, id) would be <work>/victims/victim: removed, then written.
    const byTid = await enqueue("../victims", "victim", files, "evil-tid");
    expect(await settled(byTid)).toBe("failed");
    expect(await folderFingerprint(victims)).toEqual(before);
    const byId = await enqueue("t1", "../../victims/victim", files, "evil-id");
    expect(await settled(byId)).toBe("failed");
    expect(await folderFingerprint(victims)).toEqual(before);

    const tidEnd = await finished(worker, byTid);
    expect(tidEnd.status).toBe("failed");
    expect(tidEnd.reason).toContain('its tid "../victims" is not a slug');
    const idEnd = await finished(worker, byId);
    expect(idEnd.reason).toContain('its id "../../victims/victim" is not a slug');
    // The jobs failed for good with that reason (no retry), and the worker is still there.
    const failed = await Job.fromId(queue, byTid);
    expect(await failed!.getState()).toBe("failed");
    expect(failed!.failedReason).toContain("is not a slug");
    expect(worker.child.exitCode).toBeNull();

    // The next, well-formed job runs on the same worker.
    const good = await debateFolder("paths-ok", replayTournamentArgs("paths-ok").slice(3));
    const okEnd = await finished(worker, await enqueue("paths-ok", good.id, good.files));
    expect(okEnd).toMatchObject({ status: "done" });
  });
});

describe("a worker runs only the seats its own settings allow", () => {
  it("an http seat on a loopback server is refused by a worker without --adapters http, or without its --endpoint; never contacted", async () => {
    const model = await countingServer();
    try {
      const base = `http://127.0.0.1:${model.port}/v1`;
      const first = (await readFile(join(example, "motions.jsonl"), "utf8")).split("\n")[0]!;
      await writeFile(join(work, "one.jsonl"), `${first}\n`);
      const { id, files: folder } = await debateFolder("seats-http", [
        "--motions",
        join(work, "one.jsonl"),
        "--seats",
        `http:alice@${base},http:bob@${base}`,
        "--judges",
        `http:judge@${base}`,
        "--format",
        "crossfire",
        "--rounds",
        "1",
      ]);
      // The writer also names which of the worker's variables each seat sends as its key.
      folder["debate.md"] = folder["debate.md"]!.replaceAll(
        `    base_url: ${base}`,
        `    base_url: ${base}\n    api_key_env: VICTIM_KEY`,
      );
      expect(folder["debate.md"]).toContain("api_key_env: VICTIM_KEY");

      const replayOnly = await startWorker(["--dir", join(work, "w-seats-1")]);
      const refusedJob = await enqueue("seats-1", id, folder);
      await settled(refusedJob);
      expect(model.connections()).toBe(0);
      const noAdapter = await finished(replayOnly, refusedJob);
      expect(noAdapter.status).toBe("failed");
      await stop(replayOnly);
      expect(noAdapter.reason).toMatch(
        /debate\.md: seat `seats\.\w+` uses the adapter "http", which this worker does not run \(its --adapters: replay\)/,
      );

      const httpAnywhere = await startWorker(["--dir", join(work, "w-seats-2"), "--adapters", "replay,http"]);
      const noEndpoint = await finished(httpAnywhere, await enqueue("seats-2", id, folder));
      await stop(httpAnywhere);
      expect(noEndpoint.status).toBe("failed");
      expect(noEndpoint.reason).toContain(
        `would send its requests to "${base}" (its base_url), which is not one of this worker's --endpoint (none)`,
      );
      expect(model.connections()).toBe(0);

      // Another server than the one it allows is refused too.
      const elsewhere = await startWorker([
        "--dir",
        join(work, "w-seats-3"),
        "--adapters",
        "http",
        "--endpoint",
        `http://127.0.0.1:${await freePort()}/v1`,
      ]);
      const otherEndpoint = await finished(elsewhere, await enqueue("seats-3", id, folder));
      await stop(elsewhere);
      expect(otherEndpoint.reason).toContain("which is not one of this worker's --endpoint");
      expect(model.connections()).toBe(0);

      // Allowed by the worker's own flags, the same seat is asked.
      await startWorker(["--dir", join(work, "w-seats-4"), "--adapters", "http", "--endpoint", base]);
      await enqueue("seats-4", id, folder);
      await until(() => model.connections() > 0);
    } finally {
      model.server.close();
    }
  });
});
