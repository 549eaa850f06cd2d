import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer } from "./newcomer.js";
import { replayTournamentArgs } from "./workspace.js";

// Messages that must say what is true, through the built binary on real folders.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("truth-messages-"));
  // A machine without the Codex CLI: only node's and the system's folders on PATH, and a home
  // holding no login.
  env.PATH = [dirname(process.execPath), "/usr/bin", "/bin"].join(":");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const installHint = "npm install -g @openai/codex";

/** The checks every face of a missing codex must pass: not installed, how to install, no login talk. */
function saysNotInstalled(text: string, face: string): void {
  expect(text, face).toContain("codex: not installed");
  expect(text, face).toContain(installHint);
  expect(text, face).not.toContain("no login or key found");
  expect(text, face).not.toMatch(/\binstalled; it answers only after/);
}

describe("a codex seat whose program is not installed", () => {
  it("doctor, run and gate all say it is not installed and how to install it", async () => {
    for (const dir of (env.PATH ?? "").split(":"))
      expect(() => execFileSync("test", ["-x", join(dir, "codex")])).toThrow();

    const made = debate(["new", "This house would write tests first", "--proposition", "codex"], {
      cwd,
      env,
    });
    expect(made.code, made.stderr).toBe(0);
    const folder = made.stdout.match(/created (\S+)\/debate\.md/)![1]!;

    const doctor = debate(["doctor", folder], { cwd, env });
    expect(doctor.stdout).toMatch(/✗ proposition \(codex\)\s+no\s/);
    expect(doctor.stdout).toContain(`proposition (codex): install the Codex CLI: \`${installHint}\``);

    const run = debate(["run", folder, "--exchanges", "1"], { cwd, env });
    expect(run.code).not.toBe(0);
    saysNotInstalled(run.stderr, "run");

    const repo = join(root, "repo");
    await mkdir(repo);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=a@b.c", "-c", "user.name=a", ...args], { cwd: repo, env });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "start");
    await writeFile(join(repo, "a.txt"), "x\n");
    git("add", "a.txt");
    const gate = debate(["gate", "--critic", "codex", "--scope", "uncommitted", "--json"], {
      cwd: repo,
      env,
    });
    expect(gate.code).toBe(2);
    const result = JSON.parse(gate.stdout) as { reason: string; degraded: Array<{ error?: string }> };
    saysNotInstalled(result.reason, "gate --json reason");
    saysNotInstalled(result.degraded[0]?.error ?? "", "gate --json degraded");
    saysNotInstalled(gate.stderr, "gate stderr");
  });
});

describe("the spend of a tournament of free seats", () => {
  it("reads $0.0000 in run, status and the leaderboard, as plan said", async () => {
    const tenv = { ...env, PATH: process.env.PATH };
    const created = debate(replayTournamentArgs("free"), { cwd, env: tenv });
    expect(created.code, created.stderr).toBe(0);
    const plan = debate(["tournament", "plan", "free"], { cwd, env: tenv });
    expect(plan.stdout).toMatch(/^total .* \$0\.0000$/m);

    const ran = debate(["tournament", "run", "free"], { cwd, env: tenv });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/ended \(4 done, 0 failed\), 0 running, spend \$0\.0000/);
    expect(ran.stderr).not.toContain("not reported");

    const status = debate(["tournament", "status", "free"], { cwd, env: tenv });
    expect(status.stdout).toContain("seat calls, spend $0.0000");

    expect(debate(["tournament", "report", "free"], { cwd, env: tenv }).code).toBe(0);
    const board = await readFile(join(cwd, "free", "leaderboard.md"), "utf8");
    expect(board).toContain("Spend: $0.0000.");
    expect(board).not.toContain("not reported");
  });
});
