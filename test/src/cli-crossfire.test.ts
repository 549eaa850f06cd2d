import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
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
    expect(made.stderr).toContain("warning: the judge (codex) is the same adapter and model as the proposer");
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
    expect(quiet.stderr).toBe("");
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
      "done: verdict: the challenger wins after 3 round(s) (exchange 3, complete)\nthe challenger wins\n",
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
        sides: { proposition: "-", opposition: "winner" },
      },
    ]);
  });
});
