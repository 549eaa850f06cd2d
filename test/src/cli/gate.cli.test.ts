// `debate gate` with a real CLI in the critic's seat: the pinned codex binary, pointed at the
// loopback model server, which refuses it (HTTP 401). The gate must exit 2 (undecided), never 0,
// and say why with codex's own error.
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, expect, test } from "vitest";
import { bugCritique, buggySum, gitEnv, goodSum } from "../gate-fixtures.js";
import { repoRoot } from "../workspace.js";
import { createFreshHome, pointCliAtServer } from "./harness.js";
import { cliBinPath } from "./install-clis.mjs";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer((r) =>
    r.api === "openai-responses"
      ? { error: 401, message: "scripted failure 401: invalid api key" }
      : bugCritique,
  );
});
afterAll(async () => {
  await server.close();
});

test("the critic's CLI (codex) fails: exit 2 with codex's own error on stderr and in --json", async () => {
  const fresh = createFreshHome("gate");
  try {
    const repo = join(fresh.cwd, "repo");
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env: { ...gitEnv, HOME: fresh.home } });
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    writeFileSync(join(repo, "sum.ts"), goodSum);
    git("add", "sum.ts");
    git("commit", "-q", "-m", "sum");
    git("checkout", "-q", "-b", "faster");
    writeFileSync(join(repo, "sum.ts"), buggySum);
    git("commit", "-q", "-am", "faster sum");
    const policy = join(fresh.cwd, "policy.json");
    writeFileSync(
      policy,
      JSON.stringify({
        critic: { adapter: "codex", model: "gpt-5.5", timeout_ms: 120_000, command: [cliBinPath("codex")] },
        judge: { adapter: "http", base_url: `${server.url}/v1`, model: "judge" },
        author: { adapter: "http", base_url: `${server.url}/v1`, model: "judge" },
      }),
    );
    const child = spawn(
      process.execPath,
      [
        join(repoRoot, "apps/debate/dist/bin.js"),
        "gate",
        "--scope",
        "base:main",
        "--policy",
        policy,
        "--json",
        "--dir",
        join(fresh.cwd, "gates"),
      ],
      { cwd: repo, env: { ...pointCliAtServer("codex", server, fresh), CI: "1" } },
    );
    child.stdin.end();
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code, stderr).toBe(2);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ outcome: "undecided", exit_code: 2 });
    expect(result.reason).toMatch(
      /^undecided: the critic \(codex\) failed: .*(401|scripted failure|nvalid|uthenticat)/,
    );
    expect(result.degraded).toMatchObject([
      { cause: "seat_failed", role: "critic", adapter: "codex", code: "SEAT_EXIT" },
    ]);
    expect(stderr.trim().split("\n").at(-1)).toBe(`gate: ${result.reason}`);
    expect(server.requests.some((r) => r.api === "openai-responses")).toBe(true);
  } finally {
    fresh.remove();
  }
});
