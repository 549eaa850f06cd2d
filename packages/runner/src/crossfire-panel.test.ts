import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { formatOfState } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import type { CrossfireVerdict, PanelResult } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { runDebate } from "./run.js";
import { exampleCopies } from "./test-helpers/example.js";
import type { RunOptions } from "./types.js";

// examples/crossfire-panel: crossfire-grpc's debate, its verdict given by a 3-judge panel (replay),
// each judge asked in both orders; judge_3 picks whichever side it reads first (a flip).
const example = fileURLToPath(new URL("../../../examples/crossfire-panel", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));

const { base, copy: copyExample } = exampleCopies(example, "runner-xpanel-");

/** Run options that record each call as `role@round`, and each judge's prompt. */
function options(calls: string[] = [], prompts: Record<string, string> = {}): RunOptions {
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
            prompts[request.step!.role] = request.prompt;
            return real.call(request);
          },
        };
      },
    },
  };
}

async function state(dir: string) {
  const read = await readDebateFolder(dir);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.value.state;
}
const record = async (dir: string, file: string) =>
  (await state(dir)).records?.find((r) => r.file === file)?.frontmatter;

/** Rewrites the recorded verdicts of `roles` with `edit` (the replay file's text of each). */
async function editAnswers(dir: string, roles: string[], edit: (text: string) => string | undefined) {
  const file = join(dir, "replay.jsonl");
  const original = await readFile(file, "utf8");
  const lines = original
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      const e = JSON.parse(line) as { role: string; text: string };
      if (!roles.includes(e.role)) return [line];
      const text = edit(e.text);
      return text === undefined ? [] : [JSON.stringify({ ...e, text })];
    });
  await writeFile(file, `${lines.join("\n")}\n`);
  return original;
}
const JUDGES = ["judge", "judge_swapped", "judge_2", "judge_2_swapped", "judge_3", "judge_3_swapped"];

describe("a crossfire verdict panel (examples/crossfire-panel)", () => {
  it("asks every judge blind, in both orders, and gives the majority's verdict with its figures", async () => {
    const dir = await copyExample("full");
    const calls: string[] = [];
    const prompts: Record<string, string> = {};
    const summary = await runDebate(dir, options(calls, prompts));
    expect(summary).toMatchObject({ status: "done" });
    expect(calls.filter((c) => c.startsWith("judge")).sort()).toEqual(JUDGES.map((j) => `${j}@3`).sort());
    const panel = (await record(dir, "judges/verdict.md")) as unknown as PanelResult;
    // judge_3 flips with the order: its vote is a tie; the other two outvote nobody.
    expect(panel.votes).toEqual({ judge: "challenger", judge_2: "challenger", judge_3: "tie" });
    expect(panel).toMatchObject({ step: "verdict", configured: 3, answered: 3, winner: "challenger" });
    expect(panel.figures).toEqual({
      agreement: 0.333,
      agreement_metric: "percent_agreement",
      flip_rate: 0.333,
      flips: 1,
      swapped_judges: 3,
      deviation: { judge: 0, judge_2: 0, judge_3: 0.5 },
    });
    expect(panel.judges.find((b) => b.role === "judge_3")).toMatchObject({
      first: "proposer",
      winner: "proposer",
    });
    expect(panel.judges.map((b) => `${b.role}:${b.first}`)).toEqual([
      "judge:proposer",
      "judge_swapped:challenger",
      "judge_2:challenger",
      "judge_2_swapped:proposer",
      "judge_3:proposer",
      "judge_3_swapped:challenger",
    ]);
    // Blind: no side's name nor real point id reaches a judge; labels as recorded.
    for (const role of JUDGES) {
      const prompt = prompts[role]!;
      expect(prompt).not.toMatch(/\bproposer\b|\bchallenger\b|\b[PC][1-5]\.\d/i);
      const labels = panel.judges.find((b) => b.role === role)!.labels!;
      expect(prompt).toContain(`Round 1: Debater ${labels.proposer} (opening)`);
      // The side read first comes first within each round.
      const opening = prompt.indexOf(`Round 1: Debater ${labels.proposer} (opening)`);
      const challenge = prompt.indexOf(`Round 1: Debater ${labels.challenger} (challenge)`);
      const first = panel.judges.find((b) => b.role === role)!.first;
      expect(first === "proposer" ? opening < challenge : challenge < opening).toBe(true);
    }
    const verdict = (await record(dir, "verdict.md")) as unknown as CrossfireVerdict;
    expect(verdict.winner).toBe("challenger");
    expect(verdict.cited_points).toContain("C1.1");
    expect(verdict.reasoning).toMatch(/^The judge panel's majority: the challenger/);
    const fm = (await state(dir)).frontmatter as unknown as Record<string, unknown>;
    expect(fm.winner).toBe("challenger");
    expect(fm.reliability).toEqual({ judges: 3, judged_steps: 1, degraded_steps: 0, figures: panel.figures });
  });

  it("a split panel is a tie, reported as such", async () => {
    const dir = await copyExample("tie");
    // judge_2 (proposer = Debater A for it) now votes for the proposer in both orders.
    await editAnswers(dir, ["judge_2", "judge_2_swapped"], (t) =>
      t.replace(/"winner": "Debater [AB]"/, '"winner": "Debater A"'),
    );
    const summary = await runDebate(dir, options());
    expect(summary.status).toBe("done");
    const panel = (await record(dir, "judges/verdict.md")) as unknown as PanelResult;
    expect(panel.judges.find((b) => b.role === "judge_2")!.labels?.proposer).toBe("A");
    expect(panel.votes).toEqual({ judge: "challenger", judge_2: "proposer", judge_3: "tie" });
    expect(panel.winner).toBe("tie");
    const verdict = (await record(dir, "verdict.md")) as unknown as CrossfireVerdict;
    expect(verdict.winner).toBe("tie");
    expect(verdict.reasoning).toMatch(/^The judge panel is split/);
    const st = await state(dir);
    expect((st.frontmatter as unknown as Record<string, unknown>).winner).toBe("tie");
    expect(formatOfState(st).standing(st).headline).toBe("a tie: the judge panel is split");
    const body = await readFile(join(dir, "verdict.md"), "utf8");
    expect(body).toContain("# Verdict: a tie (the judge panel is split)");
  });

  it("a failed judge is recorded with its error; the quorum lets the verdict stand, marked degraded", async () => {
    const dir = await copyExample("degraded");
    await editAnswers(dir, ["judge_2", "judge_2_swapped"], () => undefined);
    const summary = await runDebate(dir, options());
    expect(summary.status).toBe("done");
    expect(summary.degraded).toEqual([
      expect.objectContaining({ cause: "seat_failed", role: "judge_2", code: "SEAT_UNAVAILABLE", used: 2 }),
      expect.objectContaining({ cause: "seat_failed", role: "judge_2_swapped", configured: 3 }),
    ]);
    const panel = (await record(dir, "judges/verdict.md")) as unknown as PanelResult;
    expect(panel).toMatchObject({ answered: 2, degraded: true, winner: "challenger" });
    expect(panel.votes).toEqual({ judge: "challenger", judge_3: "tie" });
  });

  it("a run that stops mid-panel re-asks only the judges whose verdicts were not journaled", async () => {
    const dir = await copyExample("resume");
    const original = await editAnswers(
      dir,
      ["judge_2", "judge_2_swapped", "judge_3", "judge_3_swapped"],
      () => undefined,
    );
    const first = await runDebate(dir, options());
    // One judge of three: short of the quorum (2), no fallback: nothing committed.
    expect(first.status).toBe("failed");
    expect(await record(dir, "verdict.md")).toBeUndefined();
    expect(await record(dir, "judges/verdict.md")).toBeUndefined();
    await writeFile(join(dir, "replay.jsonl"), original);
    const calls: string[] = [];
    const second = await runDebate(dir, options(calls));
    expect(second.status).toBe("done");
    expect(calls.sort()).toEqual(["judge_2@3", "judge_2_swapped@3", "judge_3@3", "judge_3_swapped@3"]);
    const panel = (await record(dir, "judges/verdict.md")) as unknown as PanelResult;
    expect(panel).toMatchObject({ answered: 3, degraded: false, winner: "challenger" });
  });

  it("the fallback judge stands in when the panel misses its quorum", async () => {
    const dir = await copyExample("fallback");
    const md = join(dir, "debate.md");
    await writeFile(
      md,
      (await readFile(md, "utf8")).replace(
        "  swap: true\n",
        "  swap: true\n  quorum: 3\n  fallback: { adapter: replay, file: replay.jsonl }\n",
      ),
    );
    const replay = join(dir, "replay.jsonl");
    // The fallback answers with the sides' real names and ids (they pass through the label mapping as they are).
    const recorded = await readFile(join(example, "..", "crossfire-grpc", "replay.jsonl"), "utf8");
    const text = JSON.parse(recorded.split("\n").find((l) => l.includes('"role":"judge"'))!).text;
    const fallback = JSON.stringify({ exchange: 3, role: "judge_fallback", text });
    await editAnswers(dir, ["judge_3", "judge_3_swapped"], () => undefined);
    await writeFile(replay, `${(await readFile(replay, "utf8")).trimEnd()}\n${fallback}\n`);
    const calls: string[] = [];
    const summary = await runDebate(dir, options(calls));
    expect(summary.status).toBe("done");
    expect(calls).toContain("judge_fallback@3");
    const panel = (await record(dir, "judges/verdict.md")) as unknown as PanelResult;
    expect(panel).toMatchObject({ configured: 3, answered: 3, degraded: true, fallback_used: true });
    expect(summary.degraded).toEqual(
      expect.arrayContaining([expect.objectContaining({ cause: "fallback_judge", role: "judge_fallback" })]),
    );
  });
});
