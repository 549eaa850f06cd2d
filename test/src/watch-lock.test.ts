import type { WatchEvent } from "@debatekit/cli";
import { acquireLock } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  recordedAnswers,
  until,
  useWatchSandbox,
} from "./watch-helpers.js";

const sandbox = useWatchSandbox("watch-lock-");

describe("debate watch (in process): another process holds a debate's lock", () => {
  it("reports who holds it, leaves the debate alone, and takes over when it is released", async () => {
    const dir = await createManualDebate(sandbox.work, "locked", { exchanges: 1 });
    const answers = await recordedAnswers();
    const events = sandbox.events;
    const watcher = sandbox.watch({ lockRetryMs: 300 });
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
