import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDebateAsync } from "./workspace.js";

// Where `debate gate` keeps its review folder when --dir is not given: never in the user's working
// tree, where it would show up as an untracked change after every run.
let work: string;
let repo: string;
const env = { ...process.env, NO_COLOR: "1", CI: "1" };
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: repo,
    encoding: "utf8",
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "gate-folder-"));
  repo = join(work, "repo");
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  await writeFile(join(repo, "a.ts"), "export const a = 1;\n");
  git("add", "a.ts");
  git("commit", "-q", "-m", "a");
  await writeFile(join(repo, "a.ts"), "export const a = 2;\n");
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("debate gate's review folder", () => {
  it("is kept under .git/debatekit/ (not in the working tree) and the output says where and why", async () => {
    const seats = ["--critic", "replay", "--author", "replay", "--judge", "replay"];
    const run = await runDebateAsync(["gate", "--scope", "uncommitted", ...seats], repo, env);
    expect(run.code, run.stderr).toBe(2);
    expect(git("status", "--porcelain", "--untracked-files=all")).toBe(" M a.ts\n");
    expect(existsSync(join(repo, "debates"))).toBe(false);
    expect(run.stderr + run.stdout).toMatch(
      /gate: reviewing .* in \.git\/debatekit\/gate\/gate-uncommitted-/,
    );
    expect(run.stderr).toContain("kept in the git folder, outside the working tree");
    // Progress counts in the review's unit, as `debate review` does.
    expect(run.stderr).toContain("round 1/1 · critic (replay)");
    expect(run.stderr).not.toMatch(/^exchange 1/m);
  });
});
