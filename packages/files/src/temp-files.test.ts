import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireLock } from "./lock.js";
import { readDebateFolder } from "./read.js";
import { removeStaleTempFiles, TEMP_FILE_MAX_AGE_MS } from "./temp-files.js";
import { makeTempDir, sampleState, writeStateFolder } from "./test-helpers/folder.js";

let dir: string;
let cleanup: () => Promise<void>;
let sleeper: ChildProcess | undefined;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => {
  sleeper?.kill("SIGKILL");
  sleeper = undefined;
  await cleanup();
});

/** The pid of a real process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

/** A real process that stays alive until the test ends. */
function livePid(): number {
  sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  return sleeper.pid!;
}

function tempName(target: string, pid: number): string {
  return `.${target}.${pid}.0123456789ab.tmp`;
}

async function listAll(): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.map((n) => n.split(path.sep).join("/")).sort();
}

describe("removeStaleTempFiles", () => {
  it("removes temp files of a dead pid in every folder it writes to, never a live process's", async () => {
    await writeStateFolder(dir, sampleState());
    await mkdir(path.join(dir, ".debate", "journal"), { recursive: true });
    const dead = deadPid();
    const live = livePid();
    const deadFiles = [
      tempName("debate.md", dead),
      `arguments/${tempName("prop_001.md", dead)}`,
      `.debate/${tempName("pending-step.json", dead)}`,
      `.debate/journal/${tempName("x0001-1-arguments-proposition-a001.json", dead)}`,
    ];
    const kept = [
      tempName("scores.json", process.pid),
      `arguments/${tempName("opp_001.md", live)}`,
      // Not ours: a different shape, or a folder that only looks like a temp file.
      ".notes.tmp",
      `arguments/.prop_001.md.${dead}.xyz.tmp`,
    ];
    for (const file of [...deadFiles, ...kept]) await writeFile(path.join(dir, file), "half");
    await mkdir(path.join(dir, tempName("folder", dead)));
    const before = await readDebateFolder(dir);
    expect(before.ok).toBe(true);

    expect((await removeStaleTempFiles(dir)).sort()).toEqual([...deadFiles].sort());
    const left = await listAll();
    for (const file of deadFiles) expect(left).not.toContain(file);
    for (const file of kept) expect(left).toContain(file);
    expect(left).toContain(tempName("folder", dead));
    expect(await readDebateFolder(dir)).toEqual(before);
  });

  it("removes a live pid's temp file only once it is older than any write could last", async () => {
    await mkdir(path.join(dir, "arguments"));
    const live = livePid();
    const fresh = `arguments/${tempName("prop_001.md", live)}`;
    const old = `arguments/${tempName("opp_001.md", live)}`;
    const ownOld = tempName("debate.md", process.pid);
    for (const file of [fresh, old, ownOld]) await writeFile(path.join(dir, file), "half");
    const past = new Date(Date.now() - TEMP_FILE_MAX_AGE_MS - 60_000);
    await utimes(path.join(dir, old), past, past);
    await utimes(path.join(dir, ownOld), past, past);
    expect(await removeStaleTempFiles(dir)).toEqual([old]);
    expect(await listAll()).toEqual(["arguments", fresh, ownOld].sort());
  });

  it("reads a folder without any of the folders as having nothing to remove", async () => {
    expect(await removeStaleTempFiles(dir)).toEqual([]);
  });
});

describe("acquireLock", () => {
  it("removes a crashed writer's temp files once the lock is held", async () => {
    await writeStateFolder(dir, sampleState());
    const dead = deadPid();
    const orphan = `arguments/${tempName("prop_002.md", dead)}`;
    const ours = tempName("debate.md", process.pid);
    await writeFile(path.join(dir, orphan), "half");
    await writeFile(path.join(dir, ours), "in flight");
    const lock = await acquireLock(dir);
    try {
      const left = await listAll();
      expect(left).not.toContain(orphan);
      expect(left).toContain(ours);
    } finally {
      await lock.release();
    }
  });
});

describe("temp files of every format's folders", () => {
  it("removes a dead process's temp file from crossfire's turns/ too", async () => {
    const name = `.r01-proposer.md.${deadPid()}.0123456789ab.tmp`;
    await mkdir(path.join(dir, "turns"));
    await writeFile(path.join(dir, "turns", name), "x");
    expect(await removeStaleTempFiles(dir)).toEqual([`turns/${name}`]);
    expect(await readdir(path.join(dir, "turns"))).toEqual([]);
  });
});
