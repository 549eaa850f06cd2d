import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock } from "./lock.js";
import { makeTempDir } from "./test-helpers/folder.js";

// The contenders are real node processes running the built package (dist/), as the CLI would.
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/index.js");

let dir: string;
let cleanup: () => Promise<void>;
let script: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  if (!existsSync(DIST))
    throw new Error(`build the package first (pnpm --filter @debatekit/files build): ${DIST} is missing`);
  ({ dir, cleanup } = await makeTempDir());
  script = path.join(dir, "contender.mjs");
  // argv: debateDir holdMs wait(0|1) logFile name
  await writeFile(
    script,
    `import { appendFileSync } from "node:fs";
const { acquireLock } = await import(${JSON.stringify(pathToFileURL(DIST).href)});
const [dir, holdMs, wait, log, name] = process.argv.slice(2);
try {
  const lock = await acquireLock(dir, { wait: wait === "1", command: "debate run " + name, onWait: () => console.log("waiting") });
  appendFileSync(log, JSON.stringify({ name, event: "in", at: Date.now() }) + "\\n");
  console.log("locked");
  // A negative holdMs holds the lock until SIGUSR2, so a test never races a clock.
  // (A signal listener alone does not keep node alive: the interval does.)
  if (Number(holdMs) < 0) {
    const alive = setInterval(() => {}, 1000);
    await new Promise((r) => process.once("SIGUSR2", r));
    clearInterval(alive);
  }
  else await new Promise((r) => setTimeout(r, Number(holdMs)));
  appendFileSync(log, JSON.stringify({ name, event: "out", at: Date.now() }) + "\\n");
  await lock.release();
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
  process.exitCode = 3;
}
`,
  );
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await cleanup();
});

function contend(
  name: string,
  holdMs: number,
  wait: boolean,
): {
  child: ChildProcess;
  output: Promise<{ code: number | null; stdout: string }>;
  locked: Promise<void>;
  waiting: Promise<void>;
} {
  const debateDir = path.join(dir, "debate");
  const child = spawn(
    process.execPath,
    [script, debateDir, String(holdMs), wait ? "1" : "0", path.join(dir, "log.jsonl"), name],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  let stdout = "";
  let onLocked: () => void = () => undefined;
  let onWaiting: () => void = () => undefined;
  const locked = new Promise<void>((resolve) => {
    onLocked = resolve;
  });
  const waiting = new Promise<void>((resolve) => {
    onWaiting = resolve;
  });
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes("locked")) onLocked();
    if (stdout.includes("waiting")) onWaiting();
  });
  const output = new Promise<{ code: number | null; stdout: string }>((resolve) => {
    child.on("close", (code) => resolve({ code, stdout }));
  });
  return { child, output, locked, waiting };
}

// Starting node processes takes a second or more on a busy machine.
describe("acquireLock", { timeout: 30_000 }, () => {
  it("lets one process hold the lock; a second one is told who holds it", async () => {
    const first = contend("first", -1, false);
    await first.locked;
    const second = await contend("second", 0, false).output;
    expect(second.code).toBe(3);
    const error = JSON.parse(second.stdout) as { code: string; message: string };
    expect(error.code).toBe("DEBATE_LOCKED");
    expect(error.message).toContain(`pid ${first.child.pid} on ${hostname()}`);
    expect(error.message).toContain("debate run first");
    expect(error.message).toMatch(/since \d{4}-\d{2}-\d{2}T/);
    first.child.kill("SIGTERM");
  });

  it("with wait, takes the lock once the holder releases it", async () => {
    const first = contend("first", -1, false);
    await first.locked;
    const second = contend("second", 0, true);
    await second.waiting;
    first.child.kill("SIGUSR2");
    expect((await first.output).code).toBe(0);
    const secondResult = await second.output;
    expect(secondResult.code).toBe(0);
    // It really waited: it found the lock held before the holder let go.
    expect(secondResult.stdout).toBe("waiting\nlocked\n");
    const log = (await readFile(path.join(dir, "log.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log.map((e) => `${e.name}:${e.event}`)).toEqual([
      "first:in",
      "first:out",
      "second:in",
      "second:out",
    ]);
  });

  it("never lets two of several waiting processes hold it at once", async () => {
    const runs = ["a", "b", "c", "d"].map((name) => contend(name, 80, true));
    const results = await Promise.all(runs.map((r) => r.output));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const log = (await readFile(path.join(dir, "log.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log).toHaveLength(8);
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i].event).toBe("in");
      expect(log[i + 1]).toMatchObject({ name: log[i].name, event: "out" });
    }
  });

  it("recovers the lock of a process that was killed", async () => {
    const first = contend("first", 60_000, false);
    await first.locked;
    first.child.kill("SIGKILL");
    await first.output;
    const lockFile = path.join(dir, "debate", ".debate", "lock");
    expect(JSON.parse(await readFile(lockFile, "utf8")).pid).toBe(first.child.pid);
    const lock = await acquireLock(path.join(dir, "debate"), { command: "test" });
    expect(JSON.parse(await readFile(lockFile, "utf8"))).toMatchObject({ pid: process.pid, command: "test" });
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it("recovers a lock nobody touched for longer than staleMs, even if its pid is alive", async () => {
    const first = contend("first", 60_000, false);
    await first.locked;
    const lockFile = path.join(dir, "debate", ".debate", "lock");
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(lockFile, old, old);
    const lock = await acquireLock(path.join(dir, "debate"), { staleMs: 60_000 });
    expect(JSON.parse(await readFile(lockFile, "utf8")).pid).toBe(process.pid);
    await lock.release();
    first.child.kill("SIGKILL");
  });

  it("does not remove a lock someone else took over when releasing", async () => {
    const debateDir = path.join(dir, "debate");
    const lock = await acquireLock(debateDir);
    const lockFile = path.join(debateDir, ".debate", "lock");
    await writeFile(
      lockFile,
      JSON.stringify({ pid: 1, host: "elsewhere", command: "x", started_at: "", token: "t" }),
    );
    await lock.release();
    expect(existsSync(lockFile)).toBe(true);
  });

  it("never shows an empty lock: the holder is in the file from the moment it exists", async () => {
    // A contender is SIGKILLed at random moments while taking the lock; whatever it leaves behind
    // is either no lock or a whole one, and its temp file is tidied by the next holder.
    const debateDir = path.join(dir, "debate");
    for (const delayMs of [0, 5, 20, 60]) {
      const contender = contend("killed", 60_000, false);
      await new Promise((r) => setTimeout(r, delayMs));
      contender.child.kill("SIGKILL");
      await contender.output;
      const lockFile = path.join(debateDir, ".debate", "lock");
      if (existsSync(lockFile)) {
        const held = JSON.parse(await readFile(lockFile, "utf8"));
        expect(held.pid).toBe(contender.child.pid);
      }
      const lock = await acquireLock(debateDir, { command: "after a kill" });
      await lock.release();
      const left = await readdir(path.join(debateDir, ".debate"));
      expect(left.filter((n) => n.endsWith(".tmp") || n === "lock")).toEqual([]);
    }
  });

  it("gives up waiting after waitTimeoutMs with DEBATE_LOCKED", async () => {
    const debateDir = path.join(dir, "debate");
    const lock = await acquireLock(debateDir, { command: "holder" });
    const started = Date.now();
    await expect(acquireLock(debateDir, { wait: true, waitTimeoutMs: 300 })).rejects.toMatchObject({
      code: "DEBATE_LOCKED",
      file: ".debate/lock",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await lock.release();
  });
});

describe("acquireLock: the .debate folder", () => {
  it("goes with the lock when the lock made it and nothing else was written in it", async () => {
    const debateDir = path.join(dir, "d");
    await mkdir(debateDir);
    await (await acquireLock(debateDir)).release();
    expect(await readdir(debateDir)).toEqual([]);
  });

  it("stays when it holds anything else", async () => {
    const debateDir = path.join(dir, "d");
    await mkdir(debateDir);
    const lock = await acquireLock(debateDir);
    await writeFile(path.join(debateDir, ".debate", "journal"), "");
    await lock.release();
    expect(await readdir(path.join(debateDir, ".debate"))).toEqual(["journal"]);
  });
});
