import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// The real CLI, run as a real process and killed with SIGKILL at random moments.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const formalExample = join(repoRoot, "examples/ai-review-gate");
const crossfireExample = join(repoRoot, "examples/crossfire-grpc");
const reviewExample = join(repoRoot, "examples/review-sum/redis");
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
// Temp files of @debatekit/files' atomic writes (`.<name>.<pid>.<hex>.tmp`). A kill -9 between
// creating one and renaming it leaves it behind; the next run removes them once it holds the lock,
// so a resumed folder has none left, not even in .debate/.
const ATOMIC_TEMP = /(^|\/)\.[^/]+\.\d+\.[0-9a-f]{12}\.tmp$/;

interface LoggedRequest {
  debateId: string;
  exchange: number;
  role: string;
  attempt: number;
  pid: number;
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "runner-crash-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function copyExample(example: string, name: string): Promise<string> {
  const dir = join(work, name);
  await cp(example, dir, { recursive: true });
  return dir;
}

function startRun(dir: string, log: string): ChildProcess {
  return spawn(process.execPath, [bin, "run", dir], {
    env: { ...process.env, DEBATEKIT_REPLAY_LOG: log, NO_COLOR: "1", CI: "1" },
    stdio: "ignore",
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

/** Every file of a debate folder except the engine's own state (.debate/), timestamps blanked. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".debate") await walk(path);
      } else {
        // review's budget meter sums measured call times: blanked like timestamps.
        out[relative(dir, path)] = (await readFile(path, "utf8"))
          .replace(ISO, "<time>")
          .replace(/^spent_ms: \d+$/m, "spent_ms: <ms>");
      }
    }
  };
  await walk(dir);
  return out;
}

/** Atomic-write temp files anywhere in the folder, .debate/ included. */
async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.map((name) => name.split("\\").join("/")).filter((name) => ATOMIC_TEMP.test(name));
}

/** Seat requests already answered in the journal, keyed like the replay log (the seat's attempt). */
async function journaledKeys(dir: string): Promise<Set<string>> {
  const keys = new Set<string>();
  // Only committed journal files: a temp file left by a kill during its write is not journaled.
  const files = (await readdir(join(dir, ".debate/journal")).catch(() => [] as string[]))
    .filter((name) => /^x\d{4}-.+\.json$/.test(name))
    .sort();
  const failedBefore = new Map<string, number>();
  for (const file of files) {
    const entry = JSON.parse(await readFile(join(dir, ".debate/journal", file), "utf8"));
    const step = `${entry.exchange}/${entry.phase}/${entry.role}`;
    const seatAttempt = 1 + (failedBefore.get(step) ?? 0);
    if (entry.result.status === "ok") keys.add(`${entry.exchange}/${entry.role}/${seatAttempt}`);
    if (entry.validation?.ok === false) failedBefore.set(step, (failedBefore.get(step) ?? 0) + 1);
  }
  return keys;
}

async function readLog(log: string): Promise<LoggedRequest[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Resolves when the run `child` has asked its first seat (a line with its pid in the log), or has exited. */
async function firstRequest(log: string, child: ChildProcess): Promise<boolean> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if ((await readLog(log)).some((r) => r.pid === child.pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
}

// formal: both debaters in parallel, then the judge; crossfire: one seat after another, a retry, a
// summary, a verdict (fewer kills: its example is half as long); review: critic, judge and author
// over three rounds to convergence, summary.md and decision.json derived at the end.
const cases = [
  {
    format: "formal",
    example: formalExample,
    file: "arguments/opp_004.md",
    kills: 22,
    minKills: 20,
    minAfterCall: 10,
  },
  {
    format: "crossfire",
    example: crossfireExample,
    file: "verdict.md",
    kills: 12,
    minKills: 10,
    minAfterCall: 5,
  },
  {
    format: "review",
    example: reviewExample,
    file: "decision.json",
    kills: 12,
    minKills: 10,
    minAfterCall: 5,
  },
];

describe.each(cases)(
  "crash safety of `debate run`, $format (kill -9 at random moments)",
  ({ format, example, file, kills: wanted, minKills, minAfterCall }) => {
    it("resumes to the same folder as an uninterrupted run, never re-asking a journaled step", async () => {
      const reference = await copyExample(example, `${format}-reference`);
      const ref = startRun(reference, join(work, `${format}-reference.log`));
      await firstRequest(join(work, `${format}-reference.log`), ref);
      const asking = Date.now();
      expect((await exited(ref)).code).toBe(0);
      // How long the seats-and-commits part of a full run takes (start-up excluded).
      const workMs = Date.now() - asking;
      const expected = await snapshot(reference);
      expect(Object.keys(expected)).toContain(file);

      let kills = 0;
      let killsAfterFirstSeatCall = 0;
      let sessions = 0;
      while (kills < wanted) {
        sessions++;
        const dir = await copyExample(example, `${format}-crash-${sessions}`);
        const log = join(work, `${format}-crash-${sessions}.log`);
        // Up to 8 kills per session, then one run left alone to finish (a slow machine may need it).
        for (let run = 0; ; run++) {
          const before = await journaledKeys(dir);
          const child = startRun(dir, log);
          let timer: NodeJS.Timeout | undefined;
          if (run < 8) {
            // Mostly after the run has started asking seats, sometimes during start-up.
            if (Math.random() < 0.8) await firstRequest(log, child);
            timer = setTimeout(() => child.kill("SIGKILL"), Math.random() * workMs * 0.7);
          }
          const end = await exited(child);
          clearTimeout(timer);
          const asked = (await readLog(log)).filter((r) => r.pid === child.pid);
          // A step whose answer was journaled before this run started is never asked again.
          for (const r of asked) {
            const key = `${r.exchange}/${r.role}/${r.attempt}`;
            expect(
              before.has(key),
              `${key} was asked again by pid ${r.pid} (journaled: ${[...before].join(" ")})`,
            ).toBe(false);
          }
          if (end.signal === "SIGKILL") {
            kills++;
            if (asked.length > 0) killsAfterFirstSeatCall++;
            continue;
          }
          expect(end.code).toBe(0);
          break;
        }
        expect(await snapshot(dir)).toEqual(expected);
        expect(await tempFiles(dir)).toEqual([]);
      }
      expect(kills).toBeGreaterThanOrEqual(minKills);
      // Most kills must land while seats are being called, not only during start-up.
      expect(killsAfterFirstSeatCall).toBeGreaterThanOrEqual(minAfterCall);
    }, 600_000);
  },
);
