import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDebate } from "./run.js";

// The review format's budget through the real runner: each call's time (the envelope's
// durationMs, journaled) adds up into `spent_ms`, and what is left bounds the next call's timeout.
const example = fileURLToPath(new URL("../../../examples/review-sum/redis", import.meta.url));

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-review-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a review's budget through the runner", () => {
  it("bounds every call's timeout by what is left, and counts each call's time once", async () => {
    const dir = join(base, "redis");
    await cp(example, dir, { recursive: true });
    const md = join(dir, "debate.md");
    await writeFile(md, (await readFile(md, "utf8")).replace("budget_minutes: 20", "budget_minutes: 1"));
    const timeouts: number[] = [];
    const result = await runDebate(dir, {
      adapters: {
        replay: (seat, context) => {
          const real = createReplayAdapter(seat, context);
          return {
            name: real.name,
            detect: () => real.detect(),
            call: async (request) => {
              timeouts.push(request.timeoutMs);
              // Each call takes 20 s of the 60 s budget.
              return { ...(await real.call(request)), durationMs: 20_000 };
            },
          };
        },
      },
    });
    expect(timeouts.length).toBeGreaterThanOrEqual(3);
    // The first call may use the whole minute (the seat's own limit is 10 minutes); each later one
    // only what the calls before it left.
    expect(timeouts[0]).toBe(60_000);
    expect(timeouts[1]).toBe(40_000);
    expect(timeouts[2]).toBe(20_000);
    const text = await readFile(md, "utf8");
    expect(text).toMatch(/spent_ms: 60000\b/);
    // Three calls spend it all: the loop stops on the budget, and says so.
    expect(JSON.parse(await readFile(join(dir, "decision.json"), "utf8")).stop_reason).toBe("budget");
    expect(result.status).toBe("done");
  });
});
