import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { repoRoot } from "../workspace.js";

// Helpers for killing `debate run` with SIGKILL and checking what a resumed run did: the crash tests
// of the built-ins and the conformance suite's kill -9 step share them.

const bin = join(repoRoot, "apps/debate/dist/bin.js");
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
// Temp files of @debatekit/files' atomic writes (`.<name>.<pid>.<hex>.tmp`). A kill -9 between
// creating one and renaming it leaves it behind; the next run removes them once it holds the lock,
// so a resumed folder has none left, not even in .debate/.
const ATOMIC_TEMP = /(^|\/)\.[^/]+\.\d+\.[0-9a-f]{12}\.tmp$/;

/** One seat request the replay adapter logged (DEBATEKIT_REPLAY_LOG). */
export interface LoggedRequest {
  debateId: string;
  exchange: number;
  role: string;
  attempt: number;
  pid: number;
}

/** Starts `debate run <dir>` (in `cwd`, where a config may register its format), logging replay requests to `log`. */
export function startRun(dir: string, log: string, cwd = repoRoot): ChildProcess {
  return spawn(process.execPath, [bin, "run", dir], {
    cwd,
    env: { ...process.env, DEBATEKIT_REPLAY_LOG: log, NO_COLOR: "1", CI: "1" },
    stdio: "ignore",
  });
}

/** Resolves with how `child` ended. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null)
      done({ code: child.exitCode, signal: child.signalCode });
    else child.once("exit", (code, signal) => done({ code, signal }));
  });
}

/** Every file of a debate folder except the engine's own state (.debate/), timestamps blanked. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
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
export async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return names.map((name) => name.split("\\").join("/")).filter((name) => ATOMIC_TEMP.test(name));
}

/** Seat requests already answered in the journal, keyed like the replay log (the seat's attempt). */
export async function journaledKeys(dir: string): Promise<Set<string>> {
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

/** The requests the replay adapter logged to `log`. */
export async function readReplayLog(log: string): Promise<LoggedRequest[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Resolves when the run `child` has asked its first seat (a line with its pid in the log), or has exited. */
export async function firstRequest(log: string, child: ChildProcess): Promise<boolean> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    if ((await readReplayLog(log)).some((r) => r.pid === child.pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
}
