import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { WatchEvent } from "@debatekit/cli";
import { describe, expect, it } from "vitest";
import {
  committedSteps,
  createManualDebate,
  dropAnswer,
  expectedSteps,
  journalFiles,
  recordedAnswers,
  until,
  useWatchSandbox,
} from "./watch-helpers.js";

const sandbox = useWatchSandbox("watch-manual-");

describe("debate watch (in process): an all-manual debate carried by answer files", () => {
  it("advances every phase exactly once, in order, through 3 exchanges", async () => {
    const dir = await createManualDebate(sandbox.work, "manual-3", { exchanges: 3 });
    const answers = await recordedAnswers();
    const events = sandbox.events;
    const watcher = sandbox.watch();
    await watcher.ready;

    const prompted = (stem: string) =>
      readdir(join(dir, "prompts")).then(
        (names) => names.includes(`${stem}.md`),
        () => false,
      );
    for (let exchange = 0; exchange < 3; exchange++) {
      const x = String(exchange).padStart(3, "0");
      // Both debaters are asked at once: both prompts appear, nothing moves until both answered.
      await until(
        `prompts for exchange ${exchange}`,
        async () => (await prompted(`e${x}-proposition`)) && (await prompted(`e${x}-opposition`)),
      );
      const before = committedSteps(events, dir).length;
      await dropAnswer(dir, `e${x}-proposition`, answers.get(`e${x}-proposition`)!, "write");
      await until(`the watcher to see the proposition's answer at exchange ${exchange}`, () =>
        events.some(
          (e) =>
            e.type === "run_finished" &&
            e.dir === dir &&
            e.exchange === exchange &&
            e.status === "waiting" &&
            e.pending?.length === 1 &&
            e.pending[0]!.role === "opposition",
        ),
      );
      expect(committedSteps(events, dir)).toHaveLength(before);
      await dropAnswer(dir, `e${x}-opposition`, answers.get(`e${x}-opposition`)!, "rename");
      await until(
        `arguments of exchange ${exchange} committed`,
        () => committedSteps(events, dir).length === before + 1,
      );
      await until(`the judge's prompt for exchange ${exchange}`, () => prompted(`e${x}-judge`));
      await dropAnswer(dir, `e${x}-judge`, answers.get(`e${x}-judge`)!, exchange % 2 ? "write" : "rename");
      await until(
        `judgment of exchange ${exchange} committed`,
        () => committedSteps(events, dir).length === before + 2,
      );
    }
    await until("the debate done", () =>
      events.some((e) => e.type === "run_finished" && e.dir === dir && e.status === "done"),
    );
    await watcher.idle();
    // Let any late file event of the last commit arrive: it must not start anything new.
    await new Promise((r) => setTimeout(r, 500));
    await watcher.idle();

    expect(committedSteps(events, dir)).toEqual(expectedSteps(3));
    const debateMd = await readFile(join(dir, "debate.md"), "utf8");
    expect(debateMd).toMatch(/^current_exchange: 3$/m);
    expect(debateMd).toMatch(/^current_phase: complete$/m);
    const args = (await readdir(join(dir, "arguments"))).sort();
    expect(args).toEqual([
      "opp_000a.md",
      "opp_000b.md",
      "opp_000c.md",
      "opp_001.md",
      "opp_002.md",
      "prop_000a.md",
      "prop_000b.md",
      "prop_000c.md",
      "prop_001.md",
      "prop_002.md",
    ]);
    const scores = JSON.parse(await readFile(join(dir, "scores.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(scores).sort()).toEqual(args.map((a) => a.replace(".md", "")).sort());
    // One journaled answer per seat per step: 3 exchanges x (2 debaters + judge).
    expect(await journalFiles(dir)).toHaveLength(9);
    // The watcher's own commits never started a run: every run had a reason from outside.
    const runs = events.filter(
      (e): e is Extract<WatchEvent, { type: "run_started" }> => e.type === "run_started",
    );
    expect(runs[0]!.reasons).toEqual(["startup"]);
    for (const run of runs.slice(1)) {
      expect(run.reasons.every((r) => r.startsWith("inbox/"))).toBe(true);
    }
    // Nine answers, at most one run each (the renamed and the written ones alike) plus the start.
    expect(runs.length).toBeLessThanOrEqual(10);
    expect(
      events.some((e) => e.type === "invalid" || e.type === "run_error" || e.type === "watch_error"),
    ).toBe(false);
  });
});
