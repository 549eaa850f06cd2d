import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

// What the gate's end-to-end tests share: a function, the real bug a change adds to it, and the
// critic's and judge's answers about that bug (served by the loopback model server).

/** sum.ts on main. */
export const goodSum =
  "export function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n";

/** sum.ts with an off-by-one: the last element is never added. */
export const buggySum = goodSum.replace("i < xs.length;", "i < xs.length - 1;");

/** The critic on the buggy change: one P1 with evidence the engine can verify (sum.ts line 3). */
export const bugCritique = JSON.stringify({
  findings: [
    {
      severity: "P1",
      title: "Off-by-one drops the last element",
      detail: "The loop stops at xs.length - 1, so sum([1, 2, 3]) returns 3.",
      evidence: { file: "sum.ts", line: 3, quote: "i < xs.length - 1" },
      suggestion: "Loop while i < xs.length.",
    },
  ],
  recommendation: "B",
  agree: false,
});

/** The judge on that critique: valid, accept the critique. */
export const bugJudgment = JSON.stringify({
  classifications: [{ finding_id: "r01-f1", verdict: "valid", reasoning: "Line 3 stops one short." }],
  recommendation: "B",
  reasons: ["A verified P1: the change must not land as is."],
});

/** git's identity for test commits. */
export const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};

/**
 * A new git repository at `repo`: `goodSum` committed on main, then branch `branch` with the
 * off-by-one committed (what most gate tests review with `--scope base:main`).
 */
export async function createSumRepo(repo: string, branch: string): Promise<void> {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env: gitEnv });
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  await writeFile(join(repo, "sum.ts"), goodSum);
  git("add", "sum.ts");
  git("commit", "-q", "-m", "sum");
  git("checkout", "-q", "-b", branch);
  await writeFile(join(repo, "sum.ts"), buggySum);
  git("commit", "-q", "-am", "faster sum");
}
