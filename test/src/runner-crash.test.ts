import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exited,
  firstRequest,
  journaledKeys,
  readReplayLog,
  snapshot,
  startRun,
  tempFiles,
} from "./conformance/crash.js";
import { repoRoot } from "./workspace.js";

// The real CLI, run as a real process and killed with SIGKILL at random moments.
const formalExample = join(repoRoot, "examples/ai-review-gate");
const crossfireExample = join(repoRoot, "examples/crossfire-grpc");
const reviewExample = join(repoRoot, "examples/review-sum/redis");
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
          const asked = (await readReplayLog(log)).filter((r) => r.pid === child.pid);
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
