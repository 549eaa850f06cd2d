import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate new --format crossfire`, `run` and `status` on a crossfire debate, through the built CLI.
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const example = join(repoRoot, "examples/crossfire-grpc");

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "cli-crossfire-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function debate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: "1", CI: "1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}

describe("debate new --format crossfire", () => {
  it("writes a crossfire debate.md, and warns when the judge is a debater's adapter and model", async () => {
    const dir = join(work, "debates");
    const made = await debate([
      "new",
      "--format",
      "crossfire",
      "Should we move the API to gRPC?",
      "--proposer",
      "codex",
      "--challenger",
      "gemini",
      "--judge",
      "codex",
      "--rounds",
      "3",
      "--effort",
      "high",
      "--dir",
      dir,
    ]);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain(
      "warning: the judge (codex) is the proposer's own adapter, model and endpoint",
    );
    const text = await readFile(join(dir, "should-we-move-the-api-to-grpc/debate.md"), "utf8");
    expect(text).toMatch(
      /^format: crossfire\nrounds: 3\ncurrent_exchange: 1\ncurrent_phase: awaiting_proposer\n/m,
    );
    expect(text).toMatch(/proposer:\n\s+adapter: codex\n\s+effort: high/);
    const quiet = await debate([
      "new",
      "--format",
      "crossfire",
      "Tabs or spaces?",
      "--proposer",
      "codex",
      "--challenger",
      "gemini",
      "--dir",
      dir,
    ]);
    expect(quiet.stderr).not.toContain("warning: the judge");
    expect(await readFile(join(dir, "tabs-or-spaces/debate.md"), "utf8")).toMatch(
      /rounds: 2\n[\s\S]*judge:\n\s+adapter: claude/,
    );
  });

  it("refuses another format's flags and a missing debater, in one line", async () => {
    const wrong = await debate([
      "new",
      "--format",
      "crossfire",
      "x",
      "--proposer",
      "codex",
      "--challenger",
      "gemini",
      "--exchanges",
      "3",
      "--dir",
      work,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      "debate: --exchanges is not an option of the crossfire format (it takes --proposer, --challenger, --judge, --summarizer, --rounds)",
    );
    const missing = await debate(["new", "--format", "crossfire", "x", "--proposer", "codex", "--dir", work]);
    expect(missing.stderr.trim()).toBe("debate: the crossfire format needs --challenger <adapter>");
  });
});

describe("debate run / status on a crossfire debate", () => {
  it("runs the example to its verdict and status shows it complete", async () => {
    const dir = join(work, "grpc");
    await cp(example, dir, { recursive: true });
    const run = await debate(["run", dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("CROSSFIRE_CATEGORY_MISSING");
    expect(run.stdout).toContain(
      "done: verdict: the challenger wins after 3 round(s) (round 3, complete)\nthe challenger wins\n",
    );
    const status = JSON.parse((await debate(["status", dir, "--json"])).stdout);
    expect(status).toEqual([
      {
        dir,
        debate_id: "crossfire-grpc",
        format: "crossfire",
        phase: "complete",
        exchange: 3,
        exchanges: 3,
        unit: "round",
        sides: { proposition: "-", opposition: "winner" },
        winner: "challenger",
        // Replay seats call no model: every call on record, free.
        usage: {
          total: expect.objectContaining({ calls: expect.any(Number), cost_usd: 0, unknown_cost_calls: 0 }),
          seats: expect.objectContaining({ proposer: expect.any(Object), challenger: expect.any(Object) }),
        },
      },
    ]);
    expect(status[0].usage.total.calls).toBeGreaterThanOrEqual(7);
  });
});

describe("debate import (agentsys's last-debate.json)", () => {
  it("creates a crossfire folder that status lists and a run would start, and refuses a file that is not JSON in one line", async () => {
    const file = join(work, "last-debate.json");
    await writeFile(
      file,
      JSON.stringify({
        topic: "Should we adopt Bazel?",
        proposer: { tool: "codex", model: "gpt-5.5" },
        challenger: { tool: "claude", model: "opus" },
        max_rounds: 3,
        exchanges: [{ round: 1, role: "proposer", tool: "codex", response: "Yes." }],
      }),
    );
    const dir = join(work, "imported");
    const made = await debate(["import", file, "--dir", dir]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/created .*should-we-adopt-bazel\/debate\.md \(crossfire, from agentsys\)/);
    const text = await readFile(join(dir, "should-we-adopt-bazel/debate.md"), "utf8");
    expect(text).toMatch(/rounds: 3\n/);
    expect(text).toContain("## Round 1: proposer (codex)\n\nYes.");
    const status = JSON.parse((await debate(["status", dir, "--json"])).stdout);
    expect(status[0]).toMatchObject({
      format: "crossfire",
      phase: "awaiting_proposer",
      exchange: 0,
      exchanges: 3,
    });
    await writeFile(file, "not json");
    const bad = await debate(["import", file, "--dir", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^debate: .*last-debate\.json: expected JSON/);
  });
});
