import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateGateEvalCase } from "@debatekit/schema";
import { afterEach, describe, expect, it } from "vitest";
import { buildEvalSet } from "./build.js";

// SZZ on real git repositories whose answer is known: each test writes a small history with a
// bug-introducing commit and the commit that fixes it.
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
};
const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function newRepo() {
  const repo = await mkdtemp(join(tmpdir(), "szz-"));
  made.push(repo);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, env }).toString().trim();
  git("init", "-q", "-b", "main");
  /** Writes `files` and commits them with `message`; returns the commit id. */
  const commit = async (message: string, files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) await writeFile(join(repo, name), text);
    git("add", "-A");
    git("commit", "-q", "--allow-empty", "-m", message);
    return git("rev-parse", "HEAD");
  };
  return { repo, git, commit };
}

const lines = (...xs: string[]) => `${xs.join("\n")}\n`;
const build = (repo: string) => buildEvalSet({ repo, repoRef: repo });

describe("buildEvalSet (SZZ)", () => {
  it("a one-line fix: the commit that wrote the line is bad, with the line; as many good cases", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("price", { "price.js": lines("export function price(x) {", "  return x;", "}") });
    const other = await commit("readme", { "README.md": "prices\n" });
    const bug = await commit("discount", {
      "price.js": lines("export function price(x) {", "  // ten percent off", "  return x * 0.09;", "}"),
    });
    const fix = await commit("Fixes #3: discount is 10%, not 91%", {
      "price.js": lines("export function price(x) {", "  // ten percent off", "  return x * 0.9;", "}"),
    });
    const set = await build(repo);
    const bad = set.cases.filter((c) => c.label === "bad");
    expect(bad).toEqual([
      {
        id: `bad-${bug.slice(0, 7)}`,
        repo,
        base: git("rev-parse", `${bug}^`),
        head: bug,
        label: "bad",
        fix,
        defects: [{ file: "price.js", line: 3 }],
        reasons: [
          `fixed by ${fix.slice(0, 7)} "Fixes #3: discount is 10%, not 91%"`,
          "the fix removed or changed price.js:3, written by this change",
        ],
      },
    ]);
    const good = set.cases.filter((c) => c.label === "good");
    expect(good.map((c) => c.head)).toEqual([other]);
    for (const c of set.cases) expect(validateGateEvalCase(c).ok).toBe(true);
  });

  it("a fix spread over two files: each file's introducing commit is bad, pointing at its own file", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "a.js": lines("a = 1"), "b.js": lines("b = 1") });
    const bugA = await commit("tune a", { "a.js": lines("a = 2") });
    const bugB = await commit("tune b", { "b.js": lines("b = 2") });
    await commit("docs", { "c.md": "c\n" });
    const fix = await commit("fix a and b", { "a.js": lines("a = 1"), "b.js": lines("b = 1") });
    const set = await build(repo);
    expect(set.cases.filter((c) => c.label === "bad").map((c) => [c.head, c.fix, c.defects])).toEqual([
      [bugA, fix, [{ file: "a.js", line: 1 }]],
      [bugB, fix, [{ file: "b.js", line: 1 }]],
    ]);
    expect(set.cases.filter((c) => c.label === "good")).toHaveLength(1);
    // --max caps the bad cases; the good ones follow.
    const capped = await buildEvalSet({ repo, repoRef: repo, max: 1 });
    expect(capped.cases.map((c) => [c.label, c.head])).toEqual([
      ["bad", bugA],
      ["good", expect.any(String)],
    ]);
  });

  it("a fix that only adds lines has no suspect, and the set says so", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "x.js": lines("const x = read();") });
    await commit("more", { "y.js": lines("y") });
    const fix = await commit("fix: check x", {
      "x.js": lines("const x = read();", "if (!x) throw new Error('no x');"),
    });
    const set = await build(repo);
    expect(set.cases).toEqual([]);
    expect(set.notes).toContain(
      `${fix.slice(0, 7)}: only adds lines (or changes whitespace and comments): no suspect`,
    );
  });

  it("whitespace-only changes are ignored: the re-indent is not blamed, a whitespace-only fix has no suspect", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "w.js": lines("function w() {", "return 1;", "}") });
    const bug = await commit("w returns 2", { "w.js": lines("function w() {", "return 2;", "}") });
    await commit("indent", { "w.js": lines("function w() {", "    return 2;", "}") });
    const fix = await commit("fix w", { "w.js": lines("function w() {", "    return 1;", "}") });
    const style = await commit("fix indentation", { "w.js": lines("function w() {", "  return 1;", "}") });
    const set = await build(repo);
    expect(set.cases.filter((c) => c.label === "bad").map((c) => [c.head, c.fix, c.defects])).toEqual([
      [bug, fix, [{ file: "w.js", line: 2 }]],
    ]);
    expect(set.notes).toContain(
      `${style.slice(0, 7)}: only adds lines (or changes whitespace and comments): no suspect`,
    );
  });

  it("a merge commit is never a case: the branch commit that wrote the bug is blamed, a merged fix is skipped", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("start", { "m.js": lines("m = 1") });
    git("checkout", "-q", "-b", "topic");
    const bug = await commit("topic: m", { "m.js": lines("m = 2") });
    git("checkout", "-q", "main");
    await commit("other", { "o.js": lines("o") });
    git("merge", "-q", "--no-ff", "-m", "Merge branch topic", "topic");
    git("checkout", "-q", "-b", "hotfix");
    const fix = await commit("fix m", { "m.js": lines("m = 1") });
    git("checkout", "-q", "main");
    git("merge", "-q", "--no-ff", "-m", "Merge branch hotfix (fixes m)", "hotfix");
    const merge = git("rev-parse", "HEAD");
    const set = await build(repo);
    expect(set.cases.filter((c) => c.label === "bad").map((c) => [c.head, c.fix])).toEqual([[bug, fix]]);
    expect(set.cases.map((c) => c.head)).not.toContain(merge);
    expect(set.notes).toContain(`${merge.slice(0, 7)}: a merge commit, never a fix: skipped`);
  });
  it("a revert names its suspect; --pattern replaces the default fix words; huge commits are skipped", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("start", { "r.js": lines("r = 1") });
    const bad = await commit("tune r", { "r.js": lines("r = 2") });
    git("revert", "--no-edit", bad);
    const revert = git("rev-parse", "HEAD");
    const set = await build(repo);
    expect(
      set.cases.filter((c) => c.label === "bad").map((c) => [c.head, c.fix, c.defects, c.reasons[1]]),
    ).toEqual([[bad, revert, undefined, "the fix reverts this change"]]);
    // Only messages with "oops" are fixes now: the revert is an ordinary commit, and there is no fix.
    const custom = await buildEvalSet({ repo, repoRef: repo, patterns: ["oops"] });
    expect(custom.cases).toEqual([]);
    const fix = await commit("oops: r is 1", { "r.js": lines("r = 1", "s = 1", "t = 1") });
    const huge = await buildEvalSet({ repo, repoRef: repo, patterns: ["oops"], maxLines: 1 });
    expect(huge.notes).toContain(`${fix.slice(0, 7)}: huge (1 files, 2 lines), never a fix: skipped`);
  });
});
