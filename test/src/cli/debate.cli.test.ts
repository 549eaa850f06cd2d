// A full formal debate of 2 exchanges whose three seats are three different real CLIs:
// claude (proposition) vs codex (opposition), judged by gemini. The loopback model server plays
// the models: each CLI calls its own API, so the API tells the seat, and the prompt tells the
// exchange; the answers are the example debate's recorded (valid) arguments and judgments.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { type RunEvent, runDebate } from "@debatekit/runner";
import type { UsageLedger } from "@debatekit/schema";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv } from "./harness.js";
import { cliBinPath, repoRoot } from "./install-clis.mjs";

const example = join(repoRoot, "examples", "ai-review-gate");
const recorded = readFileSync(join(example, "replay.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { exchange: number; role: string; attempt?: number; text: string });

/** The example's recorded answer for a seat at an exchange (first attempt). */
function recordedAnswer(role: string, exchange: number): string {
  const entry = recorded.find((e) => e.role === role && e.exchange === exchange && (e.attempt ?? 1) === 1);
  if (!entry) throw new Error(`no recorded ${role} answer for exchange ${exchange}`);
  return entry.text;
}

const roleByApi: Partial<Record<ModelRequest["api"], string>> = {
  anthropic: "proposition",
  "openai-responses": "opposition",
  "gemini-stream": "judge",
};

function answer(request: ModelRequest): string {
  // Gemini's JSON side calls (next-speaker check, model router) want a small JSON object.
  if (request.api === "gemini")
    return JSON.stringify({ reasoning: "done", next_speaker: "user", model_choice: "pro" });
  const role = roleByApi[request.api];
  if (!role) return "unexpected API";
  const exchange = Number(
    /judgment of exchange (\d+)/.exec(request.allText)?.[1] ??
      /Your turn: exchange (\d+)/.exec(request.allText)?.[1] ??
      0,
  );
  return recordedAnswer(role, exchange);
}

/** The first words of an answer's first argument title (as they appear, escaped or not, in raw output). */
function firstWordsOf(answer: string): string {
  const title = (JSON.parse(answer) as { arguments: { title: string }[] }).arguments[0]?.title ?? "";
  return title.split(" ").slice(0, 3).join(" ");
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(answer);
});
afterAll(async () => {
  await server.close();
});

test("claude vs codex judged by gemini: 2 exchanges run to completion through the real CLIs", async () => {
  const fresh = createFreshHome("debate");
  // One HOME for the three CLIs: each finds its own config there.
  const env = {
    ...pointCliAtServer("claude", server, fresh),
    ...pointCliAtServer("codex", server, fresh),
    ...pointCliAtServer("gemini", server, fresh),
  };
  const dir = join(fresh.cwd, "ai-review-gate");
  mkdirSync(dir);
  const seatLine = (cli: "claude" | "codex" | "gemini", model: string) =>
    `{ adapter: ${cli}, model: ${model}, timeout_ms: 120000, command: [${JSON.stringify(cliBinPath(cli))}] }`;
  const debate = readFileSync(join(example, "debate.md"), "utf8")
    .replace(/^exchanges: \d+$/m, "exchanges: 2")
    .replace(/^ {2}proposition: .*$/m, `  proposition: ${seatLine("claude", "sonnet")}`)
    .replace(/^ {2}opposition: .*$/m, `  opposition: ${seatLine("codex", "gpt-5.5")}`)
    .replace(/^ {2}judge: .*$/m, `  judge: ${seatLine("gemini", "gemini-2.5-pro")}`);
  writeFileSync(join(dir, "debate.md"), debate);

  const events: RunEvent[] = [];
  const summary = await runDebate(dir, { env, cwd: fresh.cwd, onEvent: (e) => events.push(e) });
  try {
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: "done", exchange: 2 });
    expect(readdirSync(join(dir, "arguments")).sort()).toEqual([
      "opp_000a.md",
      "opp_000b.md",
      "opp_000c.md",
      "opp_001.md",
      "prop_000a.md",
      "prop_000b.md",
      "prop_000c.md",
      "prop_001.md",
    ]);
    const scores = JSON.parse(readFileSync(join(dir, "scores.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(scores)).toHaveLength(8);
    // The argument the proposition's CLI returned is the one on disk.
    const firstTitle = (JSON.parse(recordedAnswer("proposition", 0)) as { arguments: { title: string }[] })
      .arguments[0]?.title;
    expect(readFileSync(join(dir, "arguments", "prop_000a.md"), "utf8")).toContain(firstTitle);
    // Every seat was answered by its real CLI over its own API, each step once.
    const finished = events.filter((e) => e.type === "seat_finished") as Extract<
      RunEvent,
      { type: "seat_finished" }
    >[];
    expect(finished.map((e) => `${e.exchange}:${e.role}:${e.adapter}`).sort()).toEqual([
      "0:judge:gemini",
      "0:opposition:codex",
      "0:proposition:claude",
      "1:judge:gemini",
      "1:opposition:codex",
      "1:proposition:claude",
    ]);
    // Usage on record, as each real CLI reported it (the server reports 12 input and 7 output
    // tokens per answer): claude prices its own calls, codex's gpt-5.5 has no price (cost unknown,
    // never guessed), gemini-2.5-pro is priced from the table.
    const ledger = JSON.parse(readFileSync(join(dir, ".debate/ledger.json"), "utf8")) as UsageLedger;
    expect(ledger.calls).toHaveLength(6);
    for (const call of ledger.calls) expect(call.usage.tokens).toBe("reported");
    const byRole = (role: string) => ledger.calls.filter((c) => c.role === role).map((c) => c.usage);
    for (const usage of byRole("proposition")) expect(usage).toMatchObject({ cost: "reported" });
    for (const usage of byRole("opposition"))
      expect(usage).toMatchObject({ input_tokens: 12, output_tokens: 7, cost: "unknown" });
    for (const usage of byRole("judge")) {
      // gemini-2.5-pro: $1.25 in, $10 out per million (its side calls, if any, are in its counts).
      expect(usage.cost).toBe("priced");
      expect(usage.cost_usd).toBeCloseTo((usage.input_tokens * 1.25 + usage.output_tokens * 10) / 1e6, 9);
    }
    expect(ledger.seats.opposition).toMatchObject({ calls: 2, unknown_cost_calls: 2, cost_usd: 0 });
    expect(ledger.total.unknown_cost_calls).toBe(2);
    const apis = new Set(server.requests.map((r) => r.api));
    expect([...apis]).toEqual(expect.arrayContaining(["anthropic", "openai-responses", "gemini-stream"]));
    expect(processesWithEnv(fresh.home)).toEqual([]);
    // `debate log` shows what was sent to each real CLI and what it printed (from the journal).
    const log = spawnSync(
      process.execPath,
      [join(repoRoot, "apps/debate/dist/bin.js"), "log", dir, "--step", "1:proposition"],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: fresh.home, NO_COLOR: "1" },
      },
    );
    expect(log.status, log.stderr).toBe(0);
    expect(log.stdout).toMatch(
      /^=== exchange 1 · awaiting_arguments · proposition · attempt 1 · claude sonnet · ok · /,
    );
    expect(log.stdout).toContain("--- sent ---\nYou are the **proposition**");
    // claude's own stream (its JSON lines), with the recorded answer inside it.
    expect(log.stdout).toContain("--- received (raw stdout) ---\n{");
    expect(log.stdout).toContain(firstWordsOf(recordedAnswer("proposition", 1)));
    expect(log.stdout).not.toContain("opposition · attempt");
  } finally {
    fresh.remove();
  }
});
