import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { exited, freePort, REDIS, spawnDebate, startStuckRedis } from "./queue-helpers.js";
import { replayTournamentArgs, repoRoot } from "./workspace.js";

// A Redis that takes the connection, answers the handshake (AUTH, PING, INFO) and then nothing,
// and stop signals, through the built CLI as real processes: each queue command ends by itself
// with one line naming what went unanswered and host:port (never the password), exit 1; a signal
// ends a worker with 130, as README's exit codes say. --redis-timeout keeps the waits short; the
// assertions are on how the commands end, with a bound only so that a hang fails the test.

const bin = join(repoRoot, "apps/debate/dist/bin.js");
const run = promisify(execFile);
const PASSWORD = "Spw-61c0e9a7d3";
/** Far beyond what a 1 s --redis-timeout needs: a command still running then has hung. */
const HUNG_MS = 40_000;

let work: string;
const children: ChildProcess[] = [];
const closers: Array<() => Promise<void>> = [];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "queue-stuck-"));
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited(child);
    }
  }
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const env = { ...process.env, NO_COLOR: "1", CI: "1" };

function debate(args: string[]) {
  const started = spawnDebate(args, { cwd: work, env });
  children.push(started.child);
  return started;
}

/** Resolves with the exit code, or undefined when `child` is still running after `ms`. */
async function exitCodeWithin(child: ChildProcess, ms: number): Promise<number | null | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), ms);
  });
  const ended = await Promise.race([exited(child).then((e) => e.code), late]);
  clearTimeout(timer);
  return ended;
}

async function until(test: () => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

const traces = (text: string) => text.split("\n").filter((l) => /^\s+at |^\s*\w+: \{|command: \{/.test(l));

/** The last stderr line of a command that ended on a stuck queue: one `debate:` line naming it. */
function expectStuckLine(stderr: string, port: number) {
  expect(stderr).not.toContain(PASSWORD);
  expect(traces(stderr)).toEqual([]);
  const last = stderr.trim().split("\n").at(-1)!;
  expect(last).toMatch(new RegExp(`^debate: the queue at 127\\.0\\.0\\.1:${port} stopped answering`));
  expect(last).toContain("no reply to TIME within 1 s");
}

describe("a Redis that answers the handshake and then nothing", () => {
  it("debate worker says it waits, then ends by itself with one line naming the queue, exit 1", async () => {
    const stuck = await startStuckRedis();
    closers.push(stuck.close);
    const worker = debate([
      "worker",
      `redis://:${PASSWORD}@127.0.0.1:${stuck.port}`,
      "--redis-timeout",
      "1000",
    ]);
    await until(() => /waiting for debates/.test(worker.err()));
    const code = await exitCodeWithin(worker.child, HUNG_MS);
    expect(code, `still running; stderr:\n${worker.err()}`).toBe(1);
    expectStuckLine(worker.err(), stuck.port);
    // It was connected and logged in: what went unanswered came after the handshake.
    expect(stuck.commands).toContain("AUTH");
    expect(stuck.commands).toContain("TIME");
  });

  it("tournament run --queue ends by itself with one line naming the queue, exit 1", async () => {
    await run(process.execPath, [bin, ...replayTournamentArgs("stuck-t")], { cwd: work, env });
    const stuck = await startStuckRedis();
    closers.push(stuck.close);
    const queued = debate([
      "tournament",
      "run",
      join(work, "stuck-t"),
      "--queue",
      `redis://:${PASSWORD}@127.0.0.1:${stuck.port}`,
      "--redis-timeout",
      "1000",
    ]);
    const code = await exitCodeWithin(queued.child, HUNG_MS);
    expect(code, `still running; stderr:\n${queued.err()}`).toBe(1);
    expectStuckLine(queued.err(), stuck.port);
    expect(queued.out()).not.toContain(PASSWORD);
  });

  it("a worker stopped by SIGTERM while its Redis answers nothing exits 130", async () => {
    const stuck = await startStuckRedis();
    closers.push(stuck.close);
    // A long --redis-timeout: the signal, not the timeout, ends it.
    const worker = debate(["worker", `redis://127.0.0.1:${stuck.port}`, "--redis-timeout", "600000"]);
    await until(() => /waiting for debates/.test(worker.err()));
    worker.child.kill("SIGTERM");
    expect(await exitCodeWithin(worker.child, HUNG_MS), worker.err()).toBe(130);
  });
});

describe("signals end a worker with exit 130 (README: Ctrl-C or SIGTERM)", () => {
  it("an idle worker on a working Redis exits 130 on SIGTERM and on SIGINT", async () => {
    const port = await freePort();
    const server = spawn(
      REDIS!,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    children.push(server);
    let out = "";
    server.stdout!.on("data", (d) => {
      out += String(d);
    });
    await until(() => /Ready to accept connections/.test(out), 15_000);
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const worker = debate(["worker", `redis://127.0.0.1:${port}`]);
      await until(() => /waiting for debates/.test(worker.err()));
      worker.child.kill(signal);
      expect(await exitCodeWithin(worker.child, HUNG_MS), `${signal}: ${worker.err()}`).toBe(130);
      expect(traces(worker.err())).toEqual([]);
    }
  });
});
