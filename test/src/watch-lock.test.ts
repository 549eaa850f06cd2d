import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DebateWatcher, type WatchEvent, watchDebates } from "@debatekit/cli";
import { acquireLock } from "@debatekit/files";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  recordedAnswers,
  traceEvents,
  until,
} from "./watch-helpers.js";

let work: string;
let watcher: DebateWatcher | undefined;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "watch-lock-"));
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(work, { recursive: true, force: true });
});

describe("debate watch (in process): another process holds a debate's lock", () => {
  it("reports who holds it, leaves the debate alone, and takes over when it is released", async () => {
    const dir = await createManualDebate(work, "locked", { exchanges: 1 });
    const answers = await recordedAnswers();
    const events: WatchEvent[] = [];
    traceEvents(events);
    watcher = watchDebates([work], { onEvent: (e) => events.push(e), lockRetryMs: 300 });
    await watcher.ready;
    await until("the first run", () => events.some((e) => e.type === "run_finished"));

    // Stands for a `debate run` in another terminal (the lock records the holder's command).
    const lock = await acquireLock(dir, { command: "debate run elsewhere" });
    await dropAnswer(dir, "e000-proposition", answers.get("e000-proposition")!, "rename");
    await dropAnswer(dir, "e000-opposition", answers.get("e000-opposition")!, "rename");
    await until("the lock reported", () => events.some((e) => e.type === "locked"));
    const locked = events.find((e): e is Extract<WatchEvent, { type: "locked" }> => e.type === "locked")!;
    expect(locked.message).toContain("debate run elsewhere");
    expect(locked.retryInMs).toBe(300);
    // Retries keep failing while it is held; nothing is committed meanwhile.
    await until("a retry", () => events.filter((e) => e.type === "locked").length >= 2);
    expect(committedSteps(events, dir)).toEqual([]);

    await lock.release();
    await until("the arguments committed after the release", () => committedSteps(events, dir).length === 1);
    expect(
      events
        .filter((e) => e.type === "run_started")
        .some((e) => e.type === "run_started" && e.reasons.includes("lock_retry")),
    ).toBe(true);
    await watcher.idle();
    expect(committedSteps(events, dir)).toEqual(["0:awaiting_arguments"]);
  });
});
