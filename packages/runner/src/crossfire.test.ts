import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readDebateFolder } from "@debatekit/files";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDebate } from "./run.js";
import type { RunEvent } from "./types.js";

// The crossfire example (examples/crossfire-grpc) run end to end with its recorded answers: three
// rounds, the summary before round 3, one challenge rejected by a rule and fixed by the retry.
const example = fileURLToPath(new URL("../../../examples/crossfire-grpc", import.meta.url));

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-crossfire-"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const journal = async (dir: string) => (await readdir(join(dir, ".debate/journal"))).sort();

describe("the crossfire example, end to end", () => {
  it("runs 3 rounds, a summary and the verdict; the rule violation is retried with the errors fed back", async () => {
    const dir = join(base, "grpc");
    await cp(example, dir, { recursive: true });
    const events: RunEvent[] = [];
    const summary = await runDebate(dir, { cwd: base, skillRoots: [], onEvent: (e) => events.push(e) });
    expect(summary).toMatchObject({
      status: "done",
      committed: 8,
      format: "crossfire",
      phase: "complete",
      reason: "verdict: the challenger wins after 3 round(s)",
    });
    expect(summary.outcome).toBeUndefined();
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ role: "challenger", exchange: 1, attempt: 2 });
    expect(retry?.type === "retry" && retry.errors[0]).toMatch(/^CROSSFIRE_CATEGORY_MISSING at `points`/);
    expect(await journal(dir)).toEqual([
      "x0001-1-proposer-proposer-a001.json",
      "x0001-2-challenger-challenger-a001.json",
      "x0001-2-challenger-challenger-a002.json",
      "x0002-1-proposer-proposer-a001.json",
      "x0002-2-challenger-challenger-a001.json",
      "x0003-0-summary-summarizer-a001.json",
      "x0003-1-proposer-proposer-a001.json",
      "x0003-2-challenger-challenger-a001.json",
      "x0003-3-verdict-judge-a001.json",
    ]);
    const verdict = await readFile(join(dir, "verdict.md"), "utf8");
    expect(verdict).toContain("# Verdict: the challenger wins");
    expect(verdict).toContain("winner: challenger");
    const turn = await readFile(join(dir, "turns/r02-proposer.md"), "utf8");
    expect(turn).toContain("- **P2.1** [flaw of C1.1] _performance_:");
    // The folder reads back as what was committed, records included.
    const read = await readDebateFolder(dir);
    expect(read.ok && read.value.state.records?.map((r) => r.file)).toEqual([
      "turns/r01-challenger.md",
      "turns/r01-proposer.md",
      "turns/r02-challenger.md",
      "turns/r02-proposer.md",
      "turns/r03-challenger.md",
      "turns/r03-proposer.md",
      "turns/r03-summary.md",
      "verdict.md",
    ]);
    // Running again does nothing and calls nobody.
    const again = await runDebate(dir, { cwd: base, skillRoots: [] });
    expect(again).toMatchObject({ status: "done", committed: 0 });
    expect((await journal(dir)).length).toBe(9);
  });

  it("a seat failing in round 2 stops the rounds: the verdict rests on round 1 and the summary says partial", async () => {
    const dir = join(base, "partial");
    await cp(example, dir, { recursive: true });
    const lines = (await readFile(join(example, "replay.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const verdict = {
      winner: "challenger",
      reasoning: "C1.1 shows the size win mostly vanishes with gzip.",
      cited_points: ["C1.1", "P1.1"],
      ratings: { genuine_disagreement: "medium", evidence_quality: "high", challenge_depth: "medium" },
      agreements: [],
      disagreements: [],
      unresolved: ["Round 2 never happened."],
      recommendation: "Measure median CPU before deciding anything further.",
    };
    const kept = lines.filter((l) => l.exchange === 1);
    kept.push({ exchange: 2, role: "judge", text: JSON.stringify(verdict) });
    await writeFile(join(dir, "replay.jsonl"), `${kept.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const summary = await runDebate(dir, { cwd: base, skillRoots: [] });
    expect(summary).toMatchObject({
      status: "done",
      outcome: "partial (rounds 1-1 of 3)",
      phase: "complete",
    });
    const md = await readFile(join(dir, "debate.md"), "utf8");
    expect(md).toContain("outcome: partial");
    expect(md).toContain("completed_rounds: 1");
    expect(md).toContain("- { role: proposer, round: 2, code: SEAT_UNAVAILABLE, message:");
    expect(await readFile(join(dir, "verdict.md"), "utf8")).toContain(
      "**Partial**: a seat failed; this verdict rests on rounds 1-1 only.",
    );
  });

  it("the proposer failing round 1 aborts, and a re-run stays aborted without calling anyone", async () => {
    const dir = join(base, "aborted");
    await cp(example, dir, { recursive: true });
    await writeFile(join(dir, "replay.jsonl"), "");
    const summary = await runDebate(dir, { cwd: base, skillRoots: [] });
    expect(summary).toMatchObject({ status: "done", outcome: "aborted", phase: "aborted", committed: 1 });
    expect(summary.reason).toMatch(/^aborted: the proposer failed round 1 \(SEAT_UNAVAILABLE: /);
    const again = await runDebate(dir, { cwd: base, skillRoots: [] });
    expect(again).toMatchObject({ status: "done", outcome: "aborted", committed: 0 });
  });
});
