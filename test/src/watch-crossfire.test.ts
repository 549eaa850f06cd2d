import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createWatchPrinter } from "@debatekit/cli";
import { describe, expect, it } from "vitest";
import { committedSteps, until, useWatchSandbox } from "./watch-helpers.js";
import { repoRoot } from "./workspace.js";

// The watcher drives a crossfire debate like any other: it knows no format.
const sandbox = useWatchSandbox("watch-crossfire-");

describe("debate watch on a crossfire debate", () => {
  it("runs it to its verdict, one seat after another, and wakes it again when debate.md is unpaused", async () => {
    const dir = join(sandbox.work, "grpc");
    await cp(join(repoRoot, "examples/crossfire-grpc"), dir, { recursive: true });
    const text = await readFile(join(dir, "debate.md"), "utf8");
    await writeFile(join(dir, "debate.md"), text.replace("retries: 2", "retries: 2\npaused: true"));
    const events = sandbox.events;
    const watcher = sandbox.watch({ lockRetryMs: 100 });
    await watcher.ready;
    await until("the first run to find the debate paused", () =>
      events.some((e) => e.type === "run_finished" && e.status === "paused"),
    );
    await writeFile(join(dir, "debate.md"), text);
    await until("the verdict", () =>
      events.some((e) => e.type === "run_finished" && e.dir === dir && e.status === "done"),
    );
    expect(committedSteps(events, dir)).toEqual([
      "1:awaiting_proposer",
      "1:awaiting_challenger",
      "2:awaiting_proposer",
      "2:awaiting_challenger",
      "3:awaiting_summary",
      "3:awaiting_proposer",
      "3:awaiting_challenger",
      "3:awaiting_verdict",
    ]);
    expect(await readFile(join(dir, "verdict.md"), "utf8")).toContain("# Verdict: the challenger wins");
    // Its lines count in the format's unit: rounds.
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (d) => (out += d));
    const printer = createWatchPrinter(
      { stdout, stderr: new PassThrough(), env: { NO_COLOR: "1" }, cwd: sandbox.work },
      {},
    );
    for (const event of events) if ("dir" in event && event.dir === dir) printer.onEvent(event);
    printer.stop();
    expect(out).toContain("grpc: round 1 proposer committed -> round 1 awaiting_challenger\n");
    expect(out).toContain("grpc: round 3 verdict committed -> round 3 complete\n");
    expect(out).not.toMatch(/\bexchange\b/);
  });
});
