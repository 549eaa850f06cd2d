import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { WatchEvent } from "@debatekit/cli";
import { acquireLock } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  expectedSteps,
  frontmatterValue,
  journalFiles,
  recordedAnswers,
  until,
  useWatchSandbox,
} from "./watch-helpers.js";

const sandbox = useWatchSandbox("watch-edits-");

/** Edit i of 200: `exchanges` climbs 1 -> 3, `paused` toggles (the last edit unpauses), the judge's model changes. */
function edit(text: string, i: number): string {
  return text
    .replace(/^exchanges: \d+$/m, `exchanges: ${1 + Math.floor((2 * i) / 200)}`)
    .replace(/^paused: (true|false)$/m, `paused: ${i % 2 === 1}`)
    .replace(/model: m\d+\b/, `model: m${i}`);
}

describe("debate watch (in process): 200 rapid edits of debate.md", () => {
  it("coalesces them, never advances a step twice, and ends on the state of the last edit", async () => {
    const dir = await createManualDebate(sandbox.work, "edited", {
      exchanges: 1,
      paused: true,
      judgeModel: "m0",
    });
    const answers = await recordedAnswers();
    // Every answer of exchanges 0-2 is already in inbox/: only the edits decide how far it goes.
    for (const [stem, text] of answers)
      if (Number(stem.slice(1, 4)) < 3) await dropAnswer(dir, stem, text, "rename");
    const events = sandbox.events;
    const watcher = sandbox.watch({ lockRetryMs: 100 });
    await watcher.ready;
    await until("the first run to find the debate paused", () =>
      events.some((e) => e.type === "run_finished" && e.status === "paused"),
    );
    expect(committedSteps(events, dir)).toEqual([]);

    for (let i = 1; i <= 200; i++) {
      // Each edit reads and rewrites debate.md in place under the debate's lock, as a careful
      // tool would: an edit never overwrites a step the runner commits at the same moment.
      const lock = await acquireLock(dir, { wait: true, command: "test edit" });
      try {
        const text = await readFile(join(dir, "debate.md"), "utf8");
        await writeFile(join(dir, "debate.md"), edit(text, i));
      } finally {
        await lock.release();
      }
    }
    await until(
      "the debate complete at exchange 3",
      async () => (await frontmatterValue(dir, "current_exchange")) === "3",
    );
    await until("a run that finds it done", () =>
      events.some((e) => e.type === "run_finished" && e.status === "done" && e.exchange === 3),
    );
    await watcher.idle();
    await new Promise((r) => setTimeout(r, 500));
    await watcher.idle();

    // The state on disk is the last edit's, plus the runner's commits.
    expect(await frontmatterValue(dir, "exchanges")).toBe("3");
    expect(await frontmatterValue(dir, "paused")).toBe("false");
    // The seats stay as written (flow maps): commits change only the state lines.
    expect(await frontmatterValue(dir, " {2}judge")).toBe("{ adapter: manual, model: m200 }");
    // Every step committed exactly once, in order; one journaled answer per seat per step.
    expect(committedSteps(events, dir)).toEqual(expectedSteps(3));
    expect(await journalFiles(dir)).toHaveLength(9);
    const runs = events.filter((e) => e.type === "run_started");
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.length).toBeLessThan(100); // bursts coalesced: far fewer runs than edits
    expect(
      events.some((e) => e.type === "invalid" || e.type === "run_error" || e.type === "watch_error"),
    ).toBe(false);
  });

  it("sees an edit reverted to the text the runner last committed as a change", async () => {
    const dir = await createManualDebate(sandbox.work, "reverted", { exchanges: 2 });
    const answers = await recordedAnswers();
    const events = sandbox.events;
    const watcher = sandbox.watch();
    await watcher.ready;
    await dropAnswer(dir, "e000-proposition", answers.get("e000-proposition")!, "rename");
    await dropAnswer(dir, "e000-opposition", answers.get("e000-opposition")!, "rename");
    await until("the arguments committed", () => committedSteps(events, dir).length === 1);
    await watcher.idle();
    const committed = await readFile(join(dir, "debate.md"), "utf8");

    const finishedRuns = () =>
      events.filter(
        (e): e is Extract<WatchEvent, { type: "run_finished" }> => e.type === "run_finished" && e.dir === dir,
      );
    await writeFile(
      join(dir, "debate.md"),
      committed.replace("current_exchange: 0", "paused: true\ncurrent_exchange: 0"),
    );
    await until("the pause seen", () => finishedRuns().at(-1)?.status === "paused");
    // Back to exactly what the runner committed: the debate is unpaused and must run again.
    const paused = finishedRuns().length;
    await writeFile(join(dir, "debate.md"), committed);
    await until("a run after the revert", () => finishedRuns().length > paused);
    expect(finishedRuns().at(-1)).toMatchObject({ status: "waiting", phase: "awaiting_judgment" });
  });
});
