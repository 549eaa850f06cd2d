import { describe, expect, it } from "vitest";
import { createRunQueue } from "./schedule.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await sleep(5);
  }
}

describe("createRunQueue", () => {
  it("coalesces a burst of triggers into one run with every reason", async () => {
    const runs: string[][] = [];
    const queue = createRunQueue<string>({
      debounceMs: 30,
      concurrency: 2,
      run: async (_key, reasons) => {
        runs.push(reasons);
      },
    });
    for (let i = 0; i < 100; i++) queue.trigger("a", `r${i % 3}`);
    await sleep(5);
    await queue.idle();
    expect(runs).toEqual([["r0", "r1", "r2"]]);
  });

  it("runs once more after a run when triggered during it, never two at once for a key", async () => {
    let active = 0;
    let maxActive = 0;
    const runs: string[][] = [];
    let release: () => void = () => undefined;
    const queue = createRunQueue<string>({
      debounceMs: 5,
      concurrency: 4,
      run: async (_key, reasons) => {
        active++;
        maxActive = Math.max(maxActive, active);
        runs.push(reasons);
        if (runs.length === 1) await new Promise<void>((r) => (release = r));
        active--;
      },
    });
    queue.trigger("a", "first");
    await until(() => queue.isRunning("a"));
    queue.trigger("a", "during-1");
    await sleep(20);
    queue.trigger("a", "during-2");
    await sleep(20);
    release();
    await sleep(5);
    await queue.idle();
    expect(runs).toEqual([["first"], ["during-1", "during-2"]]);
    expect(maxActive).toBe(1);
  });

  it("keeps to the concurrency limit across keys", async () => {
    let active = 0;
    let maxActive = 0;
    const done: string[] = [];
    const queue = createRunQueue<string>({
      debounceMs: 1,
      concurrency: 2,
      run: async (key) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(20);
        active--;
        done.push(key);
      },
    });
    for (const key of ["a", "b", "c", "d", "e"]) queue.trigger(key, "x");
    await sleep(5);
    await queue.idle();
    expect(done.sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(maxActive).toBe(2);
  });

  it("close drops pending triggers and waits for the run in progress", async () => {
    const runs: string[] = [];
    const queue = createRunQueue<string>({
      debounceMs: 1,
      concurrency: 1,
      run: async (key) => {
        await sleep(30);
        runs.push(key);
      },
    });
    queue.trigger("a", "x");
    await until(() => queue.isRunning("a"));
    queue.trigger("b", "x");
    await queue.close();
    queue.trigger("c", "x");
    await sleep(20);
    expect(runs).toEqual(["a"]);
  });
});
