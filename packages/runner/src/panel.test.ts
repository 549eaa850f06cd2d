import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { krippendorffAlpha } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import type { PanelResult } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { runDebate } from "./run.js";
import { exampleCopies } from "./test-helpers/example.js";
import type { RunOptions } from "./types.js";

// examples/judge-panel: a formal debate judged by a 3-judge panel (replay seats), each judge asked in
// both orders; judge_3 favours whichever side it reads first, so its verdict flips with the order.
const example = fileURLToPath(new URL("../../../examples/judge-panel", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));

const { base, copy: copyExample } = exampleCopies(example, "runner-panel-");

/** Run options that record each call as `role@exchange`. */
function options(calls: string[] = []): RunOptions {
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
            calls.push(`${request.step!.role}@${request.step!.exchange}`);
            return real.call(request);
          },
        };
      },
    },
  };
}

async function panels(dir: string): Promise<PanelResult[]> {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return (read.value.state.records ?? [])
    .filter((r) => r.file.startsWith("judges/"))
    .map((r) => r.frontmatter as unknown as PanelResult);
}

/** Drops the recorded answers of `roles` at `exchange` from the example's replay file. */
async function dropAnswers(dir: string, exchange: number, roles: string[]): Promise<string> {
  const file = join(dir, "replay.jsonl");
  const original = await readFile(file, "utf8");
  const kept = original
    .split("\n")
    .filter((line) => {
      if (!line) return false;
      const e = JSON.parse(line) as { exchange: number; role: string };
      return !(e.exchange === exchange && roles.includes(e.role));
    })
    .join("\n");
  await writeFile(file, `${kept}\n`);
  return original;
}

describe("a judge panel (examples/judge-panel)", () => {
  it("combines three judges into the expected scores and reliability figures", async () => {
    const dir = await copyExample("full");
    const calls: string[] = [];
    const summary = await runDebate(dir, options(calls));
    expect(summary).toMatchObject({ status: "done", exchange: 2 });
    // Every ballot asked once per exchange: 3 judges x 2 orders.
    expect(calls.filter((c) => c.endsWith("@0") && c.startsWith("judge")).sort()).toEqual([
      "judge@0",
      "judge_2@0",
      "judge_2_swapped@0",
      "judge_3@0",
      "judge_3_swapped@0",
      "judge_swapped@0",
    ]);
    // Every judge's calls are in the usage ledger too (a panel's roles carry digits: judge_2).
    const ledger = JSON.parse(await readFile(join(dir, ".debate/ledger.json"), "utf8")) as {
      seats: Record<string, { calls: number }>;
    };
    expect(Object.keys(ledger.seats).sort()).toEqual(
      expect.arrayContaining(["judge", "judge_2", "judge_2_swapped", "judge_3", "judge_3_swapped"]),
    );
    expect(Object.values(ledger.seats).reduce((n, s) => n + s.calls, 0)).toBe(calls.length);
    const [x0, x1] = await panels(dir);
    // Exchange 0: per-argument medians of the judges' (order-averaged) scores are
    // prop .3/.2/0 and opp -.2/-.2/-.2 (sum -0.1), re-centred by +1/60 each.
    expect(Object.keys(x0!.combined!).sort()).toEqual([
      "opp_000a",
      "opp_000b",
      "opp_000c",
      "prop_000a",
      "prop_000b",
      "prop_000c",
    ]);
    expect(x0!.combined!.prop_000a).toBeCloseTo(0.3 + 1 / 60, 4);
    expect(x0!.combined!.prop_000b).toBeCloseTo(0.2 + 1 / 60, 4);
    expect(x0!.combined!.prop_000c).toBeCloseTo(1 / 60, 4);
    expect(x0!.combined!.opp_000a).toBeCloseTo(-0.2 + 1 / 60, 4);
    const sum = Object.values(x0!.combined!).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum)).toBeLessThanOrEqual(1e-6);
    // Exchange 1: medians .1 / -.1 already sum to zero.
    expect(x1!.combined).toEqual({ opp_001: -0.1, prop_001: 0.1 });
    // judge_3 flips with the order: its vote is a tie; the others vote for the proposition.
    expect(x0!.votes).toEqual({ judge: "proposition", judge_2: "proposition", judge_3: "tie" });
    expect(x0!.winner).toBe("proposition");
    expect(x0!.figures).toMatchObject({ flip_rate: 0.333, flips: 1, swapped_judges: 3 });
    expect(x0!.judges.find((b) => b.role === "judge_3_swapped")).toMatchObject({ winner: "opposition" });
    // Agreement: Krippendorff's alpha (interval) over the judges' order-averaged scores.
    expect(x0!.figures.agreement).toBeCloseTo(
      krippendorffAlpha([
        [0.3, 0.2, 0.1, -0.2, -0.2, -0.2],
        [0.4, 0.2, 0, -0.2, -0.2, -0.2],
        [0, 0, 0, 0, 0, 0],
      ])!,
      3,
    );
    expect(x0!.figures.agreement).toBe(0.511);
    expect(x0!.figures.deviation).toEqual({ judge: 0.028, judge_2: 0.028, judge_3: 0.183 });
    // Half the panel reads the opposition first; a swapped twin reads the other order.
    expect(x0!.judges.map((b) => `${b.role}:${b.first}`)).toEqual([
      "judge:proposition",
      "judge_swapped:opposition",
      "judge_2:opposition",
      "judge_2_swapped:proposition",
      "judge_3:proposition",
      "judge_3_swapped:opposition",
    ]);
    // The debate's figures, mirrored into debate.md for status.
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error("unreadable");
    expect(read.value.state.frontmatter.reliability).toMatchObject({
      judges: 3,
      judged_steps: 2,
      degraded_steps: 0,
      figures: { flip_rate: 0.333, flips: 2, swapped_judges: 6, agreement: 0.459 },
    });
    expect(read.value.state.frontmatter.cumulative_scores?.proposition.total).toBeCloseTo(0.65, 5);
  });

  it("a judge that fails is recorded with its error; the quorum lets the judgment stand, marked degraded", async () => {
    const dir = await copyExample("degraded");
    await dropAnswers(dir, 0, ["judge_2", "judge_2_swapped"]);
    const summary = await runDebate(dir, { ...options(), exchanges: 1 });
    expect(summary.status).toBe("done");
    // The run summary says what the result rests on (docs/architecture.md#honest-degradation), with the judge's real error.
    expect(summary.degraded).toEqual([
      expect.objectContaining({ cause: "seat_failed", role: "judge_2", code: "SEAT_UNAVAILABLE", used: 2 }),
      expect.objectContaining({ cause: "seat_failed", role: "judge_2_swapped", configured: 3 }),
    ]);
    const [x0] = await panels(dir);
    expect(x0).toMatchObject({ configured: 3, answered: 2, quorum: 2, degraded: true });
    const failed = x0!.judges.filter((b) => b.status === "failed");
    expect(failed.map((b) => b.role)).toEqual(["judge_2", "judge_2_swapped"]);
    expect(failed[0]!.error?.code).toBe("SEAT_UNAVAILABLE");
    expect(failed[0]!.error?.message).toMatch(/judge_2 seat \(replay\)/);
    // The two judges that answered decide: medians of two = means.
    expect(x0!.combined!.prop_000a).toBeCloseTo(0.15, 6);
  });

  it("a crash in the middle of a panel re-asks only the judges whose answers were not journaled", async () => {
    const dir = await copyExample("resume");
    const md = join(dir, "debate.md");
    await writeFile(
      md,
      (await readFile(md, "utf8")).replace("  swap: true\n", "  swap: true\n  quorum: 3\n"),
    );
    const original = await dropAnswers(dir, 0, ["judge_3", "judge_3_swapped"]);
    const first = await runDebate(dir, { ...options(), exchanges: 1 });
    expect(first.status).toBe("failed");
    expect(first.error?.code).toBe("SEAT_UNAVAILABLE");
    expect(await panels(dir)).toEqual([]);
    await writeFile(join(dir, "replay.jsonl"), original);
    const calls: string[] = [];
    const second = await runDebate(dir, { ...options(calls), exchanges: 1 });
    expect(second.status).toBe("done");
    expect(calls.sort()).toEqual(["judge_3@0", "judge_3_swapped@0"]);
    const [x0] = await panels(dir);
    expect(x0).toMatchObject({ answered: 3, degraded: false });
  });

  it("asks the fallback judge when fewer than the quorum answered", async () => {
    const dir = await copyExample("fallback");
    const md = join(dir, "debate.md");
    await writeFile(
      md,
      (await readFile(md, "utf8")).replace(
        "  swap: true\n",
        "  swap: true\n  quorum: 3\n  fallback: { adapter: replay, file: replay.jsonl }\n",
      ),
    );
    await dropAnswers(dir, 0, ["judge_3", "judge_3_swapped"]);
    const replay = join(dir, "replay.jsonl");
    const lines = (await readFile(replay, "utf8")).split("\n").filter(Boolean);
    const judge1 = lines.find((l) => l.includes('"role":"judge"') && l.includes('"exchange":0'))!;
    await writeFile(
      replay,
      `${[...lines, judge1.replace('"role":"judge"', '"role":"judge_fallback"')].join("\n")}\n`,
    );
    const calls: string[] = [];
    const summary = await runDebate(dir, { ...options(calls), exchanges: 1 });
    expect(summary.status).toBe("done");
    expect(calls).toContain("judge_fallback@0");
    const [x0] = await panels(dir);
    expect(x0).toMatchObject({ configured: 3, answered: 3, degraded: true, fallback_used: true });
  });
});
