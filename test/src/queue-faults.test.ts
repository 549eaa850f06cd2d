import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { delayReplays, exited, freePort, REDIS, spawnDebate } from "./queue-helpers.js";
import { repoRoot } from "./workspace.js";

// A queue that cannot be used (wrong password, nobody listening) and stop signals, through the built
// CLI against Debian's redis-server on a free loopback port: each command ends within a stated time
// with one line naming the host, never the password, never a stack trace; SIGTERM/SIGINT end a
// worker or a queued run within seconds, a second signal at once.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/tournament-replay");
const run = promisify(execFile);

/** The password the test Redis wants, and the wrong one the commands are given. */
const RIGHT = "Rpw-4f9c2e71b0";
const WRONG = "Wpw-8d3a6c15e2";
/** What the README promises: an unusable queue ends the command within 10 s (plus a start-up's slack). */
const GIVE_UP_MS = 10_000 + 5_000;

let work: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "queue-faults-"));
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
  }
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** How long `child` takes to exit, or undefined when it is still running after `ms`. */
async function exitsWithin(child: ChildProcess, ms: number): Promise<number | undefined> {
  const start = Date.now();
  const timer = new Promise<undefined>((done) => setTimeout(() => done(undefined), ms));
  const ended = await Promise.race([exited(child).then(() => Date.now() - start), timer]);
  return ended;
}

async function until(test: () => boolean | Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** redis-server on 127.0.0.1:port, in memory; with `password`, every client must log in. */
async function startRedis(password?: string): Promise<number> {
  const port = await freePort();
  const child = spawn(
    REDIS!,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      ...(password ? ["--requirepass", password] : []),
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d) => {
    out += String(d);
  });
  await until(() => /Ready to accept connections/.test(out), 15_000);
  return port;
}

const env = { ...process.env, NO_COLOR: "1", CI: "1" };

/** The CLI with `args` in the work folder; killed after each test if still running. */
function debate(args: string[]) {
  const started = spawnDebate(args, { cwd: work, env });
  children.push(started.child);
  return started;
}

/** A 2-player tournament of replay seats on one motion (2 debates); each answer waits `delayMs`. */
async function newTournament(name: string, delayMs = 0): Promise<string> {
  const first = (await readFile(join(example, "motions.jsonl"), "utf8")).split("\n")[0]!;
  await writeFile(join(work, `${name}.jsonl`), `${first}\n`);
  await run(
    process.execPath,
    [
      bin,
      "tournament",
      "new",
      name,
      "--motions",
      join(work, `${name}.jsonl`),
      "--seats",
      "replay:alice,replay:bob",
      "--judges",
      "replay",
      "--replay",
      join(example, "recordings"),
      "--format",
      "crossfire",
      "--rounds",
      "1",
    ],
    { cwd: work, env },
  );
  const dir = join(work, name);
  if (delayMs > 0) await delayReplays(dir, delayMs);
  return dir;
}

/** Lines of stderr that look like a stack trace or a dumped object (what ioredis printed). */
const traces = (text: string) => text.split("\n").filter((l) => /^\s+at |^\s*\w+: \{|command: \{/.test(l));

/**
 * Runs `tournament run --queue url` and `worker url` in turn: each must end (non-zero) within
 * GIVE_UP_MS with one `debate:` line that names 127.0.0.1:port and matches `why`, no stack trace,
 * and the wrong password nowhere. Returns what each printed on stderr.
 */
async function expectOneLineEnd(tournament: string, url: string, port: number, why: RegExp) {
  for (const args of [
    ["tournament", "run", tournament, "--queue", url],
    ["worker", url],
  ]) {
    const cmd = debate(args);
    const took = await exitsWithin(cmd.child, GIVE_UP_MS);
    expect(took, `${args[0]} still running; stderr:\n${cmd.err().slice(0, 2000)}`).toBeDefined();
    expect(cmd.child.exitCode, cmd.err()).not.toBe(0);
    expect(cmd.out() + cmd.err()).not.toContain(WRONG);
    expect(traces(cmd.err())).toEqual([]);
    const lines = cmd.err().split("\n").filter(Boolean);
    expect(lines, cmd.err()).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^debate: .*127\\.0\\.0\\.1:${port}`));
    expect(lines[0]).toMatch(why);
  }
}

describe("an unusable queue ends the command within 10 s with one line", () => {
  it("a wrong password (WRONGPASS): tournament run --queue and debate worker never print it", async () => {
    const port = await startRedis(RIGHT);
    const url = `redis://default:${WRONG}@127.0.0.1:${port}/0`;
    await expectOneLineEnd(await newTournament("wrongpass"), url, port, /refused the login \(WRONGPASS/);
  });

  it("nobody listening (ECONNREFUSED): both commands end within 10 s, one line naming host:port, no stack trace", async () => {
    const port = await freePort();
    const url = `redis://default:${WRONG}@127.0.0.1:${port}/0`;
    await expectOneLineEnd(await newTournament("refused"), url, port, /within 10 s \(connect ECONNREFUSED/);
  });
});

describe("SIGTERM and SIGINT end queue commands within seconds", () => {
  it("an idle worker, and a worker with a debate in flight, exit within 5 s of SIGTERM; a second signal ends it at once", async () => {
    const port = await startRedis();
    const url = `redis://127.0.0.1:${port}/0`;
    const idle = debate(["worker", url]);
    await until(() => /waiting for debates/.test(idle.err()));
    idle.child.kill("SIGTERM");
    expect(await exitsWithin(idle.child, 5_000), idle.err()).toBeDefined();

    // Every answer takes 20 s: a debate in flight cannot finish before the worker must be gone.
    const dir = await newTournament("inflight", 20_000);
    const queued = debate(["tournament", "run", dir, "--queue", url]);
    const busy = debate(["worker", url, "--json"]);
    await until(() => /"job_started"/.test(busy.err()));
    busy.child.kill("SIGTERM");
    expect(await exitsWithin(busy.child, 5_000), busy.err()).toBeDefined();
    expect(traces(busy.err())).toEqual([]);

    // The debate was handed back: another worker takes it at once (its attempt not used up).
    const second = debate(["worker", url, "--json"]);
    await until(() => /"job_started"/.test(second.err()), 10_000);
    expect(second.err()).toMatch(/"attempt":1\b/);
    second.child.kill("SIGINT");
    second.child.kill("SIGINT");
    expect(await exitsWithin(second.child, 1_000), second.err()).toBeDefined();

    queued.child.kill("SIGTERM");
    expect(await exitsWithin(queued.child, 5_000), queued.err()).toBeDefined();
    expect(queued.child.exitCode).toBe(130);
  });

  it("tournament run --queue exits within 3 s of SIGTERM while it connects to a Redis nobody answers, and when it waits on one", async () => {
    const closed = await freePort();
    const connecting = debate([
      "tournament",
      "run",
      await newTournament("connecting"),
      "--queue",
      `redis://127.0.0.1:${closed}/0`,
    ]);
    // Well inside the 10 s it may try for, and after the command is up (its handlers set).
    await new Promise((r) => setTimeout(r, 4_000));
    connecting.child.kill("SIGTERM");
    expect(await exitsWithin(connecting.child, 3_000), connecting.err()).toBeDefined();
    expect(connecting.child.exitCode).toBe(130);
    expect(traces(connecting.err())).toEqual([]);

    const port = await startRedis();
    const url = `redis://127.0.0.1:${port}/0`;
    const dir = await newTournament("waiting");
    const first = debate(["tournament", "run", dir, "--queue", url]);
    await until(() => /debates: .* to run/.test(first.err()));
    first.child.kill("SIGTERM");
    expect(await exitsWithin(first.child, 5_000), first.err()).toBeDefined();
    expect(first.child.exitCode).toBe(130);

    const again = debate(["tournament", "run", dir, "--queue", url]);
    await until(() => /debates: .* to run/.test(again.err()));
    again.child.kill("SIGTERM");
    again.child.kill("SIGTERM");
    expect(await exitsWithin(again.child, 1_000), again.err()).toBeDefined();
  });

  it("a worker whose Redis stops answering (the server killed) ends with one line within 10 s+", async () => {
    const port = await startRedis();
    const server = children.at(-1)!;
    const worker = debate(["worker", `redis://127.0.0.1:${port}/0`]);
    await until(() => /waiting for debates/.test(worker.err()));
    server.kill("SIGKILL");
    expect(await exitsWithin(worker.child, GIVE_UP_MS + 10_000), worker.err()).toBeDefined();
    expect(worker.child.exitCode).not.toBe(0);
    expect(traces(worker.err())).toEqual([]);
    expect(worker.err()).toMatch(new RegExp(`debate: .*127\\.0\\.0\\.1:${port}`));
  });
});
