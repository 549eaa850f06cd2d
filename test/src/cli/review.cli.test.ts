// A review through two real CLIs: codex critiques (and answers in `codex review`'s native `[P1]`
// bullets, the form fancive's script drops), claude judges and, as the author, writes the accepted
// version. The loopback model server plays the models: the API tells the CLI, the prompt the task.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { type RunEvent, runDebate } from "@debatekit/runner";
import { validateReviewDecision } from "@debatekit/schema";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv } from "./harness.js";
import { cliBinPath } from "./install-clis.mjs";

const diff = [
  "# Commit 3f2a9c1",
  "",
  "```diff",
  "diff --git a/src/sum.ts b/src/sum.ts",
  "--- a/src/sum.ts",
  "+++ b/src/sum.ts",
  "@@ -1,4 +1,4 @@",
  " export function sum(xs: number[]): number {",
  "   let total = 0;",
  "-  for (let i = 0; i < xs.length; i++) total += xs[i];",
  "+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];",
  "   return total;",
  "```",
  "",
].join("\n");

const nativeCritique =
  "Review comment:\n\n- [P1] Off-by-one drops the last element — src/sum.ts:3-3\n  The loop stops at xs.length - 1, so sum([1, 2, 3]) returns 3.\n";
const judgment = JSON.stringify({
  classifications: [
    { finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 bounds the loop one short." },
  ],
  recommendation: "B",
  reasons: ["A verified P1: the change must not land as is."],
});
const fixed =
  "```ts\nexport function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n```\n";

function answer(request: ModelRequest): string {
  if (request.api === "openai-responses") return nativeCritique;
  if (request.api === "anthropic") {
    if (
      request.allText.includes("classify") ||
      request.allText.includes("You judge round") ||
      request.allText.includes("You judge a ")
    )
      return judgment;
    return fixed;
  }
  return "unexpected API";
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(answer);
});
afterAll(async () => {
  await server.close();
});

test("codex critiques in its native [P1] form, claude judges and writes the accepted version", async () => {
  const fresh = createFreshHome("review");
  const env = { ...pointCliAtServer("claude", server, fresh), ...pointCliAtServer("codex", server, fresh) };
  const dir = join(fresh.cwd, "sum-review");
  mkdirSync(join(dir, "artifact"), { recursive: true });
  const seat = (cli: "claude" | "codex", model: string) =>
    `{ adapter: ${cli}, model: ${model}, timeout_ms: 120000, command: [${JSON.stringify(cliBinPath(cli))}] }`;
  writeFileSync(
    join(dir, "debate.md"),
    `---\ndebate_id: sum-review\nformat: review\ntarget: code\nmode: auto\nmax_rounds: 3\nbudget_minutes: 20\ncurrent_exchange: 1\ncurrent_phase: awaiting_critic\nartifact_version: 1\nseats:\n  author: ${seat("claude", "sonnet")}\n  critic: ${seat("codex", "gpt-5.5")}\n  judge: ${seat("claude", "sonnet")}\n---\n\n# Motion\n\nReview of commit 3f2a9c1\n`,
  );
  writeFileSync(
    join(dir, "artifact/v1.md"),
    `---\nkind: original\nversion: 1\nscope: commit:3f2a9c1\n---\n${diff}`,
  );

  const events: RunEvent[] = [];
  const summary = await runDebate(dir, { env, cwd: fresh.cwd, onEvent: (e) => events.push(e) });
  try {
    expect(summary.error).toBeUndefined();
    expect(summary).toMatchObject({ status: "done", format: "review", phase: "complete" });
    const critique = readFileSync(join(dir, "rounds/r01-critique.md"), "utf8");
    expect(critique).toContain("form: bullets");
    expect(critique).toContain("- r01-f1 [P1] Off-by-one drops the last element (evidence verified)");
    const decision = JSON.parse(readFileSync(join(dir, "decision.json"), "utf8"));
    expect(validateReviewDecision(decision).ok).toBe(true);
    expect(decision).toMatchObject({
      decision: "B",
      final_artifact: "artifact/v2.md",
      findings: { P1: 1, verified: 1 },
    });
    expect(readFileSync(join(dir, "artifact/v2.md"), "utf8")).toContain("i < xs.length; i++");
    const finished = events.filter((e) => e.type === "seat_finished") as Extract<
      RunEvent,
      { type: "seat_finished" }
    >[];
    expect(finished.map((e) => `${e.exchange}:${e.role}:${e.adapter}`)).toEqual([
      "1:critic:codex",
      "1:judge:claude",
      "1:author:claude",
    ]);
    // The judge saw the critic's finding with the engine's id and evidence status.
    const claudePrompts = server.requests.filter((r) => r.api === "anthropic").map((r) => r.allText);
    expect(claudePrompts.some((t) => t.includes("r01-f1 [P1] Off-by-one drops the last element"))).toBe(true);
    expect(processesWithEnv(fresh.home)).toEqual([]);
  } finally {
    fresh.remove();
  }
});
