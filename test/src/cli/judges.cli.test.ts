// A 2-judge panel of two different real CLIs: claude and codex judge the opening of the example
// debate (its debaters are replay seats), each blind to which debater is which, asked in parallel,
// the second judge reading the sides in the other order. The loopback model server plays both
// judges: it reads the labels from the prompt it receives and answers with the example's recorded
// judgment in those labels, with the judge's own margin, so the combination is visible.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { blindCrossfireText } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { type RunEvent, runDebate } from "@debatekit/runner";
import type { CrossfireVerdict, PanelResult } from "@debatekit/schema";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv } from "./harness.js";
import { cliBinPath, repoRoot } from "./install-clis.mjs";

const example = join(repoRoot, "examples", "ai-review-gate");
const judgeByApi: Partial<Record<ModelRequest["api"], { margin: number }>> = {
  anthropic: { margin: 0.3 },
  "openai-responses": { margin: 0.1 },
};

/** The crossfire-grpc verdict (the challenger wins), in the labels this judge's prompt shows. */
const crossfireVerdict = JSON.parse(
  readFileSync(join(repoRoot, "examples", "crossfire-grpc", "replay.jsonl"), "utf8")
    .split("\n")
    .find((l) => l.includes('"role":"judge"'))!,
).text as string;
function crossfireAnswer(request: ModelRequest): string {
  const proposer = /Round 1: Debater ([AB]) \(opening\)/.exec(request.allText)?.[1] as "A" | "B" | undefined;
  if (!proposer) return "no labels in the prompt";
  const labels = { proposer, challenger: proposer === "A" ? ("B" as const) : ("A" as const) };
  return JSON.stringify({
    ...JSON.parse(blindCrossfireText(crossfireVerdict, labels)),
    winner: `Debater ${labels.challenger}`,
  });
}

function answer(request: ModelRequest): string {
  const judge = judgeByApi[request.api];
  if (!judge) return "unexpected API";
  if (request.allText.includes("you know them only as Debater A and Debater B"))
    return crossfireAnswer(request);
  const labels = /Debater ([AB]) argues for the motion, Debater ([AB]) against it/.exec(request.allText);
  if (!labels) return "no labels in the prompt";
  const [, prop, opp] = labels;
  const ids = ["000a", "000b", "000c"];
  return JSON.stringify({
    scores: [
      ...ids.map((id) => ({
        argument_id: `${prop}_${id}`,
        score: judge.margin,
        reasoning: `Debater ${prop} grounded it.`,
      })),
      ...ids.map((id) => ({
        argument_id: `${opp}_${id}`,
        score: -judge.margin,
        reasoning: `Debater ${opp} did not.`,
      })),
    ],
  });
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(answer);
});
afterAll(async () => {
  await server.close();
});

test("a panel of claude and codex judges the opening blind, in parallel, and is combined", async () => {
  const fresh = createFreshHome("judges");
  const env = { ...pointCliAtServer("claude", server, fresh), ...pointCliAtServer("codex", server, fresh) };
  const dir = join(fresh.cwd, "panel");
  mkdirSync(dir);
  copyFileSync(join(example, "replay.jsonl"), join(dir, "replay.jsonl"));
  const seatLine = (cli: "claude" | "codex", model: string) =>
    `{ adapter: ${cli}, model: ${model}, timeout_ms: 120000, command: [${JSON.stringify(cliBinPath(cli))}] }`;
  const debate = readFileSync(join(example, "debate.md"), "utf8")
    .replace(/^exchanges: \d+$/m, "exchanges: 1")
    .replace(/^ {2}judge: .*\n/m, "")
    .replace(
      /^cumulative_scores:/m,
      `judges:\n  panel:\n    - ${seatLine("claude", "sonnet")}\n    - ${seatLine("codex", "gpt-5.5")}\ncumulative_scores:`,
    );
  writeFileSync(join(dir, "debate.md"), debate);

  const events: RunEvent[] = [];
  const summary = await runDebate(dir, { env, cwd: fresh.cwd, onEvent: (e) => events.push(e) });
  try {
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: "done", exchange: 1 });
    const finished = events.filter((e) => e.type === "seat_finished") as Extract<
      RunEvent,
      { type: "seat_finished" }
    >[];
    expect(
      finished
        .filter((e) => e.role.startsWith("judge"))
        .map((e) => `${e.role}:${e.adapter}`)
        .sort(),
    ).toEqual(["judge:claude", "judge_2:codex"]);
    // Asked in parallel: both judges started before either finished.
    const judgeEvents = events
      .filter((e) => (e.type === "seat_started" || e.type === "seat_finished") && e.role.startsWith("judge"))
      .map((e) => e.type);
    expect(judgeEvents.slice(0, 2)).toEqual(["seat_started", "seat_started"]);
    // Each CLI got a blind prompt: labels, no side names, no real ids.
    const judgePrompts = server.requests.filter(
      (r) => judgeByApi[r.api] && /Debater [AB] argues for/.test(r.allText),
    );
    expect(new Set(judgePrompts.map((r) => r.api))).toEqual(new Set(["anthropic", "openai-responses"]));
    for (const r of judgePrompts) expect(r.allText).not.toMatch(/\b(prop|opp)_000[abc]\b/);
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const result = read.value.state.records!.find((r) => r.file === "judges/x0000.md")!
      .frontmatter as unknown as PanelResult;
    expect(result).toMatchObject({ configured: 2, answered: 2, degraded: false, winner: "proposition" });
    expect(result.judges.map((b) => `${b.role}:${b.adapter}:${b.first}`)).toEqual([
      "judge:claude:proposition",
      "judge_2:codex:opposition",
    ]);
    // Mapped back to the right sides whatever the labels: claude +0.3, codex +0.1 for the proposition.
    expect(result.judges[0]!.scores!.prop_000a).toBe(0.3);
    expect(result.judges[1]!.scores!.prop_000a).toBe(0.1);
    expect(result.combined!.prop_000a).toBeCloseTo(0.2, 6);
    expect(result.combined!.opp_000c).toBeCloseTo(-0.2, 6);
    expect(result.figures.deviation).toEqual({ judge: 0.1, judge_2: 0.1 });
    expect(processesWithEnv(fresh.home)).toEqual([]);
  } finally {
    fresh.remove();
  }
});

test("a crossfire verdict panel of claude and codex: blind, both orders across the panel, majority", async () => {
  const fresh = createFreshHome("xjudges");
  const env = { ...pointCliAtServer("claude", server, fresh), ...pointCliAtServer("codex", server, fresh) };
  const dir = join(fresh.cwd, "xpanel");
  mkdirSync(dir);
  const crossfire = join(repoRoot, "examples", "crossfire-panel");
  copyFileSync(join(crossfire, "replay.jsonl"), join(dir, "replay.jsonl"));
  const seatLine = (cli: "claude" | "codex", model: string) =>
    `{ adapter: ${cli}, model: ${model}, timeout_ms: 120000, command: [${JSON.stringify(cliBinPath(cli))}] }`;
  const debate = readFileSync(join(crossfire, "debate.md"), "utf8")
    .replace(
      "  challenger: { adapter: replay, file: replay.jsonl }\n",
      "  challenger: { adapter: replay, file: replay.jsonl }\n  summarizer: { adapter: replay, file: replay.jsonl }\n",
    )
    .replace(
      /^judges:\n(?: {2}.*\n)+/m,
      `judges:\n  panel:\n    - ${seatLine("claude", "sonnet")}\n    - ${seatLine("codex", "gpt-5.5")}\n`,
    );
  writeFileSync(join(dir, "debate.md"), debate);
  const before = server.requests.length;
  const summary = await runDebate(dir, { env, cwd: fresh.cwd });
  try {
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: "done" });
    const prompts = server.requests
      .slice(before)
      .filter((r) => r.allText.includes("you know them only as Debater A and Debater B"));
    expect(new Set(prompts.map((r) => r.api))).toEqual(new Set(["anthropic", "openai-responses"]));
    for (const r of prompts) expect(r.allText).not.toMatch(/\bproposer\b|\bchallenger\b|\b[PC][1-5]\.\d/);
    const read = await readDebateFolder(dir);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const records = read.value.state.records!;
    const panel = records.find((r) => r.file === "judges/verdict.md")!.frontmatter as unknown as PanelResult;
    expect(panel.judges.map((b) => `${b.role}:${b.adapter}:${b.first}`)).toEqual([
      "judge:claude:proposer",
      "judge_2:codex:challenger",
    ]);
    // Each answered with its own labels; both map back to the challenger.
    expect(panel.votes).toEqual({ judge: "challenger", judge_2: "challenger" });
    expect(panel).toMatchObject({ configured: 2, answered: 2, winner: "challenger", degraded: false });
    expect(panel.figures).toMatchObject({ agreement: 1, agreement_metric: "percent_agreement" });
    const verdict = records.find((r) => r.file === "verdict.md")!.frontmatter as unknown as CrossfireVerdict;
    expect(verdict.winner).toBe("challenger");
    expect(verdict.cited_points).toContain("C1.1");
    expect(processesWithEnv(fresh.home)).toEqual([]);
  } finally {
    fresh.remove();
  }
});
