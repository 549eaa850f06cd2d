import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { renderArgumentGraph } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import { runDebate } from "./run.js";
import { exampleCopies } from "./test-helpers/example.js";
import type { RunEvent, RunOptions } from "./types.js";

// The example debate run for real (replay seats answer from its recording); the adapter is only
// wrapped to see each prompt. A run keeps the state it committed instead of re-reading every
// argument file each step; these tests check that shortcut changes nothing anyone can observe.
const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));

const { base, copy: copyExample } = exampleCopies(example, "runner-run-");

/** Options that record every prompt sent, in order, as `role@exchange` plus the prompt. */
function recordingPrompts(prompts: string[]): RunOptions {
  return {
    skillRoots: [repoSkills],
    cwd: base(),
    adapters: {
      replay: (seat, context) => {
        const real = createReplayAdapter(seat, context);
        return {
          name: real.name,
          detect: () => real.detect(),
          call: (request) => {
            prompts.push(`${request.step!.role}@${request.step!.exchange}\n${request.prompt}`);
            return real.call(request);
          },
        };
      },
    },
  };
}

/** Every file of a debate folder except the journal (which holds timings), by relative path. */
async function folderFiles(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((name) => !name.startsWith(".debate"))
    .sort();
  const files: Record<string, string> = {};
  for (const name of names) files[name] = await readFile(join(dir, name), "utf8");
  return files;
}

describe("runDebate: the state kept between steps", () => {
  it("sends the same prompts and writes the same files as runs that re-read the folder at every step", async () => {
    const continuous = await copyExample("continuous");
    const kept: string[] = [];
    const summary = await runDebate(continuous, recordingPrompts(kept));
    expect(summary).toMatchObject({ status: "done", exchange: 5, committed: 10 });

    // One step per run: each run starts from a full read of the folder.
    const stepwise = await copyExample("stepwise");
    const reread: string[] = [];
    let runs = 0;
    for (;;) {
      const stop = new AbortController();
      const one = await runDebate(stepwise, {
        ...recordingPrompts(reread),
        signal: stop.signal,
        onEvent: (e: RunEvent) => e.type === "step_committed" && stop.abort(),
      });
      if (one.status === "done") break;
      expect(one.status).toBe("cancelled");
      expect(one.committed).toBe(1);
      runs++;
    }
    expect(runs).toBe(10);

    // 5 exchanges of 3 seats, plus the recording's judge answer at exchange 2 that the rules reject.
    expect(kept).toHaveLength(16);
    // Both debaters are asked at once, so their order varies: compare the prompts, not the order.
    expect(kept.sort()).toEqual(reread.sort());
    const [a, b] = [await folderFiles(continuous), await folderFiles(stepwise)];
    // scored_at differs between the two runs (the clock); everything else must be identical.
    const clockless = (files: Record<string, string>) =>
      JSON.stringify(files).replace(/scored_at\\?":\s*\\?"[^"\\]+\\?"/g, "scored_at");
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(Object.keys(a)).toContain("arguments/opp_004.md");
    expect(clockless(a)).toBe(clockless(b));
  }, 120_000);

  it("sees an edit of debate.md made during the run at the next step, also a same-size edit", async () => {
    const dir = await copyExample("edited");
    let edited = false;
    const summary = await runDebate(dir, {
      ...recordingPrompts([]),
      onEvent: (e) => {
        // Right after the judgment of exchange 0 is committed, a person lowers `exchanges` from 5 to 2:
        // same size, written in place (same inode), so only the content tells it apart.
        if (edited || e.type !== "step_committed" || e.phase !== "awaiting_arguments") return;
        const file = join(dir, "debate.md");
        // onEvent is synchronous, so the edit lands before the run looks at debate.md again.
        const text = readFileSync(file, "utf8");
        expect(text).toMatch(/^exchanges: 5$/m);
        writeFileSync(file, text.replace(/^exchanges: 5$/m, "exchanges: 2"));
        edited = true;
      },
    });
    expect(edited).toBe(true);
    expect(summary).toMatchObject({
      status: "done",
      exchange: 2,
      phase: "complete",
      committed: 4,
      reason: "complete after 2 exchange(s)",
    });
    const debate = await readFile(join(dir, "debate.md"), "utf8");
    expect(debate).toMatch(/^exchanges: 2$/m);
    expect(await readdir(join(dir, "arguments"))).not.toContain("prop_002.md");
  }, 120_000);
});

describe("a seat that tried to act", () => {
  it("is on record in the journal: the tools its model asked for, with the answer it gave after", async () => {
    const dir = await copyExample("tools");
    const events: RunEvent[] = [];
    const result = await runDebate(dir, {
      skillRoots: [repoSkills],
      exchanges: 1,
      onEvent: (event) => events.push(event),
      adapters: {
        replay: (seat, context) => {
          const real = createReplayAdapter(seat, context);
          return {
            name: real.name,
            detect: () => real.detect(),
            call: async (request) => {
              const call = await real.call(request);
              return request.step?.role === "opposition"
                ? { ...call, toolCalls: ["Bash", "WebFetch"] }
                : call;
            },
          };
        },
      },
    });
    expect(result.status).toBe("done");
    const journal = join(dir, ".debate", "journal");
    const entries = await Promise.all(
      (await readdir(journal)).map(async (name) => JSON.parse(await readFile(join(journal, name), "utf8"))),
    );
    const tried = entries.filter((e) => e.result.toolCalls);
    expect(tried.length).toBeGreaterThan(0);
    for (const entry of tried) {
      expect(entry.role).toBe("opposition");
      expect(entry.result.toolCalls).toEqual(["Bash", "WebFetch"]);
    }
    const finished = events.filter((e) => e.type === "seat_finished" && e.toolCalls);
    expect(finished.map((e) => e.type === "seat_finished" && [e.role, e.toolCalls])).toEqual(
      tried.map(() => ["opposition", ["Bash", "WebFetch"]]),
    );
  });
});

describe("steps", () => {
  it("stops after the asked number of committed steps, and a later run goes on from there", async () => {
    const dir = await copyExample("steps");
    const first = await runDebate(dir, { skillRoots: [repoSkills], cwd: base(), steps: 1 });
    expect(first.status).toBe("done");
    expect(first.committed).toBe(1);
    expect(first.reason).toBe("stopped after 1 step(s) as requested");
    const debate = await readFile(join(dir, "debate.md"), "utf8");
    expect(debate).toMatch(/^current_phase: awaiting_judgment$/m);
    const second = await runDebate(dir, { skillRoots: [repoSkills], cwd: base(), steps: 2 });
    expect(second.committed).toBe(2);
    expect(second.exchange).toBe(1);
    expect(second.phase).toBe("awaiting_judgment");
  }, 120_000);
});

describe("the argument graph", () => {
  it("is written once when the run stops, not at every step, and matches the committed state", async () => {
    const dir = await copyExample("graph");
    const graph = join(dir, "argument-graph.mmd");
    const graphText = () => {
      try {
        return readFileSync(graph, "utf8");
      } catch {
        return null;
      }
    };
    // The example has none yet: the first run's steps leave it absent.
    const before = graphText();
    expect(before).toBeNull();
    const seen: Array<string | null> = [];
    const summary = await runDebate(dir, {
      skillRoots: [repoSkills],
      cwd: base(),
      steps: 3,
      onEvent: (e) => {
        if (e.type === "step_committed") seen.push(graphText());
      },
    });
    expect(summary.committed).toBe(3);
    // Derived: left as it was while the steps were committed...
    expect(seen).toEqual([before, before, before]);
    // ...and brought up to date when the run stopped.
    const folder = await readDebateFolder(dir);
    if (!folder.ok) throw new Error(JSON.stringify(folder.errors));
    const rendered = renderArgumentGraph(folder.value.state);
    expect(await readFile(graph, "utf8")).toBe(rendered.endsWith("\n") ? rendered : `${rendered}\n`);
  }, 120_000);
});

describe("a review's final files (decision.json, summary.md)", () => {
  const reviewExample = fileURLToPath(new URL("../../../examples/review-sum/redis", import.meta.url));
  const { base: reviewBase, copy: copyReview } = exampleCopies(reviewExample, "runner-review-");
  const finals = (dir: string) =>
    ["decision.json", "summary.md"].map((f) => {
      try {
        return readFileSync(join(dir, f), "utf8");
      } catch {
        return null;
      }
    });

  it("are committed with the step that ends the debate, and a later run restores them", async () => {
    const dir = await copyReview("finals");
    const options = { skillRoots: [repoSkills], cwd: reviewBase() };
    const atCommit: Array<Array<string | null>> = [];
    const summary = await runDebate(dir, {
      ...options,
      onEvent: (e) => {
        if (e.type === "step_committed") atCommit.push(finals(dir));
      },
    });
    expect(summary.status).toBe("done");
    // On disk as soon as the last step is committed, before the run's own end (a kill -9 there
    // must not leave a finished review without its decision), and not before that step.
    expect(atCommit.at(-1)!.every((text) => text !== null)).toBe(true);
    expect(atCommit.slice(0, -1).every((files) => files.every((text) => text === null))).toBe(true);
    const written = finals(dir);
    expect(JSON.parse(written[0]!).debate_id).toBeTruthy();
    // A finished folder without them (one that ended before they were committed with its last
    // step): the next run, which finds the debate done and commits nothing, writes them again.
    for (const f of ["decision.json", "summary.md"]) rmSync(join(dir, f));
    const again = await runDebate(dir, options);
    expect(again.committed).toBe(0);
    expect(finals(dir)).toEqual(written);
  }, 120_000);
});
