import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyFindings } from "@debatekit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScope, snapshotScope } from "./scope.js";

let repo: string;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).trim();
const good =
  "export function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n";
const buggy = good.replace("i < xs.length;", "i < xs.length - 1;");
let first: string;
let second: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "debatekit-review-git-"));
  git("init", "-q", "-b", "main");
  await writeFile(join(repo, "sum.ts"), good);
  git("add", "sum.ts");
  git("commit", "-q", "-m", "sum");
  first = git("rev-parse", "HEAD");
  git("checkout", "-q", "-b", "feature");
  await writeFile(join(repo, "sum.ts"), buggy);
  git("commit", "-q", "-am", "faster sum");
  second = git("rev-parse", "HEAD");
  await writeFile(join(repo, "sum.ts"), `${buggy}// wip\n`);
});
afterAll(() => rm(repo, { recursive: true, force: true }));

describe("review scopes through real git", () => {
  it("parses every scope form and refuses option-like refs and paths outside the repository", () => {
    expect(parseScope("uncommitted")).toEqual({ kind: "uncommitted" });
    expect(parseScope("commit:abc123")).toEqual({ kind: "commit", sha: "abc123" });
    expect(parseScope("base:main")).toEqual({ kind: "base", branch: "main" });
    expect(parseScope("range:v1..v2")).toEqual({ kind: "range", from: "v1", to: "v2" });
    expect(parseScope("file:src/a.ts")).toEqual({ kind: "file", path: "src/a.ts" });
    for (const bad of ["commit:--output=/tmp/x", "range:a", "file:../etc/passwd", "file:/etc/passwd", "nope"])
      expect(() => parseScope(bad), bad).toThrow(expect.objectContaining({ code: "REVIEW_SCOPE_INVALID" }));
  });

  it("commit:SHA: the commit's diff, and evidence checked against the repository at that commit", async () => {
    const snap = await snapshotScope(repo, parseScope(`commit:${second}`));
    expect(snap.revision).toBe(second);
    expect(snap.files).toEqual(["sum.ts"]);
    expect(snap.artifact).toContain("+  for (let i = 0; i < xs.length - 1; i++)");
    const file = await snap.readFile("sum.ts");
    expect(file).toBe(buggy); // not the worktree's `// wip`
    const checked = verifyFindings(
      [
        {
          severity: "P1",
          title: "off by one",
          detail: "",
          evidence: { file: "sum.ts", line: 3, quote: "xs.length - 1" },
        },
        {
          severity: "P1",
          title: "invented",
          detail: "",
          evidence: { file: "sum.ts", line: 6, quote: "// wip" },
        },
      ],
      { artifact: snap.artifact, file: (p) => (p === "sum.ts" ? file : undefined) },
    );
    expect(checked.findings.map((f) => [f.severity, f.evidence_status])).toEqual([
      ["P1", "verified"],
      ["P2", "needs_evidence"],
    ]);
  });

  it("base:BRANCH, range:A..B, uncommitted and file:PATH", async () => {
    const base = await snapshotScope(repo, parseScope("base:main"));
    expect(base.revision).toBe(second);
    expect(base.artifact).toContain("-  for (let i = 0; i < xs.length; i++)");
    const range = await snapshotScope(repo, parseScope(`range:${first}..${second}`));
    expect(range.artifact).toContain("xs.length - 1");
    const wip = await snapshotScope(repo, parseScope("uncommitted"));
    expect(wip.revision).toBe("WORKTREE");
    expect(wip.artifact).toContain("+// wip");
    expect(await wip.readFile("sum.ts")).toContain("// wip");
    const file = await snapshotScope(repo, parseScope("file:sum.ts"));
    expect(file.artifact).toContain("```ts\nexport function sum");
    await expect(snapshotScope(repo, parseScope("commit:doesnotexist"))).rejects.toMatchObject({
      code: "REVIEW_SCOPE_INVALID",
      message: expect.stringContaining("no commit named `doesnotexist` in the repository"),
    });
    await expect(snapshotScope(repo, parseScope("file:missing.ts"))).rejects.toMatchObject({
      code: "REVIEW_SCOPE_INVALID",
    });
  });
});
