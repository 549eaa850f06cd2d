import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { committedSteps, until, useWatchSandbox } from "./watch-helpers.js";
import { repoRoot } from "./workspace.js";

// A manual review waits for a person; a decision dropped in inbox/ wakes it (the watcher knows no format).
const sandbox = useWatchSandbox("watch-review-");

describe("debate watch on a manual review", () => {
  it("stops waiting for a decision, then applies the one written to inbox/decision-r01.md", async () => {
    const dir = join(sandbox.work, "redis");
    await cp(join(repoRoot, "examples/review-sum/redis"), dir, { recursive: true });
    const text = await readFile(join(dir, "debate.md"), "utf8");
    await writeFile(join(dir, "debate.md"), text.replace("mode: auto", "mode: manual"));
    const events = sandbox.events;
    const watcher = sandbox.watch({ lockRetryMs: 100 });
    await watcher.ready;
    await until("the run to wait for a decision", () =>
      events.some((e) => e.type === "run_finished" && e.dir === dir && e.status === "waiting"),
    );
    expect(await readFile(join(dir, "debate.md"), "utf8")).toContain("current_phase: awaiting_decision");
    await mkdir(join(dir, "inbox"), { recursive: true });
    await writeFile(join(dir, "inbox/decision-r01.md"), "---\ndecision: E\n---\n");
    await until("the decision applied", () =>
      events.some((e) => e.type === "run_finished" && e.dir === dir && e.status === "done"),
    );
    expect(committedSteps(events, dir)).toEqual([
      "1:awaiting_critic",
      "1:awaiting_judge",
      "1:awaiting_decision",
    ]);
    const decision = JSON.parse(await readFile(join(dir, "decision.json"), "utf8"));
    expect(decision).toMatchObject({
      decision: "E",
      decided_by: "manual",
      stop_reason: "decision",
      rounds: 1,
    });
  });
});
