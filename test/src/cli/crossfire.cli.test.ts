// A crossfire debate of 2 rounds whose three seats are three different real CLIs: claude
// (proposer) vs codex (challenger), verdict by gemini. The loopback model server plays the models:
// each CLI calls its own API, so the API tells the seat, and the prompt tells the round; the answers
// are the crossfire example's recorded (valid) turns, and a verdict on rounds 1-2.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { type RunEvent, runDebate } from "@debatekit/runner";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv } from "./harness.js";
import { cliBinPath, repoRoot } from "./install-clis.mjs";

const example = join(repoRoot, "examples", "crossfire-grpc");
const recorded = readFileSync(join(example, "replay.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { exchange: number; role: string; attempt?: number; text: string });

/** The example's last recorded answer for a seat in a round (the valid one when a retry was recorded). */
function recordedAnswer(role: string, round: number): string {
  const entry = recorded.filter((e) => e.role === role && e.exchange === round).at(-1);
  if (!entry) throw new Error(`no recorded ${role} answer for round ${round}`);
  return entry.text;
}

const verdict = JSON.stringify({
  winner: "challenger",
  reasoning: "C1.1 shows gzip removes most of P1.1's size win, and C2.1 shows P2.1's CPU figure is a peak.",
  cited_points: ["C1.1", "C2.1", "P1.1", "P2.1"],
  ratings: { genuine_disagreement: "medium", evidence_quality: "high", challenge_depth: "high" },
  agreements: [{ text: "mTLS is needed whatever the protocol.", points: ["P2.2", "C2.2"] }],
  disagreements: ["Whether the CPU saving justifies a migration."],
  unresolved: ["End-to-end latency was never measured."],
  recommendation: "Pilot gRPC on the orders service with median CPU and p95 latency as exit criteria.",
});

const roleByApi: Partial<Record<ModelRequest["api"], string>> = {
  anthropic: "proposer",
  "openai-responses": "challenger",
  "gemini-stream": "judge",
};

function answer(request: ModelRequest): string {
  // Gemini's JSON side calls (next-speaker check, model router) want a small JSON object.
  if (request.api === "gemini")
    return JSON.stringify({ reasoning: "done", next_speaker: "user", model_choice: "pro" });
  const role = roleByApi[request.api];
  if (!role) return "unexpected API";
  if (role === "judge") return verdict;
  const round = Number(/round (\d) of \d/.exec(request.allText)?.[1] ?? 1);
  return recordedAnswer(role, round);
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(answer);
});
afterAll(async () => {
  await server.close();
});

test("claude vs codex, verdict by gemini: a 2-round crossfire debate runs to its verdict through the real CLIs", async () => {
  const fresh = createFreshHome("crossfire");
  const env = {
    ...pointCliAtServer("claude", server, fresh),
    ...pointCliAtServer("codex", server, fresh),
    ...pointCliAtServer("gemini", server, fresh),
  };
  const dir = join(fresh.cwd, "crossfire-grpc");
  mkdirSync(dir);
  const seatLine = (cli: "claude" | "codex" | "gemini", model: string) =>
    `{ adapter: ${cli}, model: ${model}, timeout_ms: 120000, command: [${JSON.stringify(cliBinPath(cli))}] }`;
  const debate = readFileSync(join(example, "debate.md"), "utf8")
    .replace(/^rounds: \d+$/m, "rounds: 2")
    .replace(/^ {2}proposer: .*$/m, `  proposer: ${seatLine("claude", "sonnet")}`)
    .replace(/^ {2}challenger: .*$/m, `  challenger: ${seatLine("codex", "gpt-5.5")}`)
    .replace(/^ {2}judge: .*$/m, `  judge: ${seatLine("gemini", "gemini-2.5-pro")}`);
  writeFileSync(join(dir, "debate.md"), debate);

  const events: RunEvent[] = [];
  const summary = await runDebate(dir, { env, cwd: fresh.cwd, onEvent: (e) => events.push(e) });
  try {
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: "done", format: "crossfire", phase: "complete", exchange: 2 });
    expect(summary.outcome).toBeUndefined();
    expect(readdirSync(join(dir, "turns")).sort()).toEqual([
      "r01-challenger.md",
      "r01-proposer.md",
      "r02-challenger.md",
      "r02-proposer.md",
    ]);
    expect(readFileSync(join(dir, "verdict.md"), "utf8")).toContain("# Verdict: the challenger wins");
    // The turn the challenger's CLI returned (inside prose and a fence) is the one on disk.
    expect(readFileSync(join(dir, "turns/r01-challenger.md"), "utf8")).toContain(
      "gzip already removes it on the wire",
    );
    // Every seat was answered by its real CLI over its own API, one after another, each step once.
    const finished = events.filter((e) => e.type === "seat_finished") as Extract<
      RunEvent,
      { type: "seat_finished" }
    >[];
    expect(finished.map((e) => `${e.exchange}:${e.role}:${e.adapter}`)).toEqual([
      "1:proposer:claude",
      "1:challenger:codex",
      "2:proposer:claude",
      "2:challenger:codex",
      "2:judge:gemini",
    ]);
    // The challenger saw what the proposer had just said.
    const codexPrompts = server.requests.filter((r) => r.api === "openai-responses").map((r) => r.allText);
    expect(
      codexPrompts.some((t) => t.includes("P1.1") && t.includes("Protobuf payloads for the orders list")),
    ).toBe(true);
    expect(processesWithEnv(fresh.home)).toEqual([]);
  } finally {
    fresh.remove();
  }
});
