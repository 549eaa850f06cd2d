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
          "a fix because subject: matches /\\b(hot|bug)?fix(e[sd]|ing)?\\b/",
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
      `${fix.slice(0, 7)}: only adds lines (or changes whitespace, comments, tests, docs or lock files): no suspect`,
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
      `${style.slice(0, 7)}: only adds lines (or changes whitespace, comments, tests, docs or lock files): no suspect`,
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
  it("a revert of a fix names its suspect; a revert of anything else is no fix; --pattern replaces the fix words; huge commits are skipped", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("start", { "r.js": lines("r = 1") });
    const tune = await commit("tune r", { "r.js": lines("r = 2") });
    git("revert", "--no-edit", tune);
    // Reverting "tune r" is a decision, not a fix: no case.
    expect((await build(repo)).cases).toEqual([]);
    // Only subjects with "oops" (or of type fix) are fixes now: "fix r" is an ordinary commit.
    await commit("fix r", { "r.js": lines("r = 4") });
    expect((await build(repo)).cases.filter((c) => c.label === "bad")).toHaveLength(1);
    expect((await buildEvalSet({ repo, repoRef: repo, patterns: ["oops"] })).cases).toEqual([]);
    // A fix that only adds a file (no suspect of its own), then reverted: the fix is the suspect.
    const bad = await commit("fix: s is 3", { "s.js": lines("s = 3") });
    git("revert", "--no-edit", bad);
    const revert = git("rev-parse", "HEAD");
    const set = await build(repo);
    expect(
      set.cases.filter((c) => c.fix === revert).map((c) => [c.head, c.defects, c.reasons.slice(1)]),
    ).toEqual([
      [
        bad,
        undefined,
        ["the fix reverts this change", 'a fix because subject: a revert of a fix ("fix: s is 3")'],
      ],
    ]);
    const fix = await commit("oops: r is 1", { "r.js": lines("r = 1", "s = 1", "t = 1") });
    const huge = await buildEvalSet({ repo, repoRef: repo, patterns: ["oops"], maxLines: 1 });
    expect(huge.notes).toContain(`${fix.slice(0, 7)}: huge (1 files, 4 lines), never a fix: skipped`);
  });

  it("the subject line decides: feat/chore never fix whatever the body; bodies only with fixInBody; a bug label with issues", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "a.js": lines("a = 1"), "b.js": lines("b = 1"), "c.js": lines("c = 1") });
    const a = await commit("tune a", { "a.js": lines("a = 2") });
    const b = await commit("tune b", { "b.js": lines("b = 2") });
    const c = await commit("tune c", { "c.js": lines("c = 2") });
    // A squashed feature whose body lists a "fix:" bullet, an unprefixed change whose body says fix,
    // and a change referring to #7, which the tracker labels a bug.
    await commit("feat: a is 3\n\n* fix: a was wrong", { "a.js": lines("a = 3") });
    const bodyFix = await commit("Update b\n\n* fix: b was 2", { "b.js": lines("b = 3") });
    const issueFix = await commit("Handle c (#7)", { "c.js": lines("c = 3") });
    const bad = (set: Awaited<ReturnType<typeof build>>) =>
      set.cases.filter((x) => x.label === "bad").map((x) => [x.head, x.reasons.at(-1)]);
    expect(bad(await build(repo))).toEqual([]);
    expect(bad(await buildEvalSet({ repo, repoRef: repo, fixInBody: true }))).toEqual([
      [b, 'a fix because body (--fix-in-body): "* fix: b was 2"'],
    ]);
    const issues = new Map([[7, ["type: bug"]]]);
    const labelled = await buildEvalSet({ repo, repoRef: repo, issues });
    expect(
      labelled.cases.filter((x) => x.label === "bad").map((x) => [x.head, x.fix, x.reasons.at(-1)]),
    ).toEqual([[c, issueFix, 'a fix because the tracker labels #7 "type: bug" (--issues)']]);
    expect(a).not.toBe(bodyFix);
  });

  it("renames are followed: a fix that renames a file and changes one line blames that line only", async () => {
    const { repo, git, commit } = await newRepo();
    const body = ["export function f(x) {", "  const y = x + 1;", "  return y * 2;", "}"];
    await commit("start", { "README.md": "f\n" });
    // Not the root: were the renamed file's lines counted as removed, this commit would be blamed too.
    const first = await commit("f", { "index.js": lines(...body) });
    const bug = await commit("f doubles", {
      "index.js": lines(body[0]!, body[1]!, "  return y * 3;", body[3]!),
    });
    git("mv", "index.js", "index.mjs");
    const fix = await commit("fix: f doubles, not triples", {
      "index.mjs": lines(body[0]!, body[1]!, "  return y * 2;", body[3]!),
    });
    const set = await build(repo);
    expect(set.cases.filter((c) => c.label === "bad").map((c) => [c.head, c.fix, c.defects])).toEqual([
      [bug, fix, [{ file: "index.js", line: 3 }]],
    ]);
    expect(first).not.toBe(bug);
  });

  it("cosmetic commits are passed over: reformatting, an identifier renamed, a line moved", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("start", { "m.js": lines("export const rate = 1;", "export const cap = 1;") });
    const bug = await commit("rate and cap", {
      "m.js": lines("export const rate = 'weekly' === period ? 7 : 1", "export const cap = total > 100"),
    });
    // Quotes and semicolons, then an identifier renamed everywhere, then the two lines swapped.
    await commit("style: prettier", {
      "m.js": lines('export const rate = "weekly" === period ? 7 : 1;', "export const cap = total > 100;"),
    });
    await commit("refactor: period -> interval", {
      "m.js": lines('export const rate = "weekly" === interval ? 7 : 1;', "export const cap = total > 100;"),
    });
    await commit("refactor: cap first", {
      "m.js": lines("export const cap = total > 100;", 'export const rate = "weekly" === interval ? 7 : 1;'),
    });
    const fix = await commit("fix: a week has 7 days, a cap starts at 100", {
      "m.js": lines("export const cap = total >= 100;", 'export const rate = "weekly" === interval ? 7 : 0;'),
    });
    const set = await build(repo);
    const cases = set.cases.filter((c) => c.label === "bad");
    expect(cases.map((c) => [c.head, c.fix])).toEqual([[bug, fix]]);
    expect(cases[0]!.defects).toEqual([
      { file: "m.js", line: 2 },
      { file: "m.js", line: 1 },
    ]);
    expect(cases[0]!.reasons.at(-1)).toMatch(
      /^passed over cosmetic changes: .*\(moved or reformatted\).*\(identifier renamed\)/,
    );
    expect(git("log", "--format=%s", "-1", bug)).toBe("rate and cap");
  });

  it("a line edited without touching what the fix changed is followed to the commit that wrote that", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "l.js": lines("const n = 0;") });
    const bug = await commit("limit n", { "l.js": lines("const n = limit(10, x);") });
    await commit("pass options", { "l.js": lines("const n = limit(10, x, options);") });
    const fix = await commit("fix: the limit is 100", { "l.js": lines("const n = limit(100, x, options);") });
    const cases = (await build(repo)).cases.filter((c) => c.label === "bad");
    expect(cases.map((c) => [c.head, c.fix])).toEqual([[bug, fix]]);
    expect(cases[0]!.reasons.at(-1)).toMatch(/did not write what the fix changed/);
  });

  it("tests, docs and lock files blame nothing; a suspect blamed only for a `}` is skipped", async () => {
    const { repo, commit } = await newRepo();
    await commit("start", { "p.js": lines("function p() {", "  return 1;", "}") });
    await commit("tests and docs", {
      "p.test.js": lines("expect(p()).toBe(2);"),
      "README.md": "p gives 2\n",
      "pnpm-lock.yaml": "a: 1\n",
    });
    const docsFix = await commit("fix: p gives 1", {
      "p.test.js": lines("expect(p()).toBe(1);"),
      "README.md": "p gives 1\n",
      "pnpm-lock.yaml": "a: 2\n",
    });
    const brace = await commit("close p twice", { "p.js": lines("function p() {", "  return 1;", "}", "}") });
    const braceFix = await commit("fix: one brace", { "p.js": lines("function p() {", "  return 1;", "}") });
    const set = await build(repo);
    expect(set.cases.filter((c) => c.label === "bad")).toEqual([]);
    expect(set.notes).toContain(
      `${docsFix.slice(0, 7)}: only adds lines (or changes whitespace, comments, tests, docs or lock files): no suspect`,
    );
    expect(set.notes).toContain(
      `${braceFix.slice(0, 7)}: blamed ${brace.slice(0, 7)} only for punctuation lines: skipped`,
    );
  });

  it("a revert naming a commit of another branch says so, not that it lies before --since", async () => {
    const { repo, git, commit } = await newRepo();
    await commit("start", { "v.js": lines("v = 1") });
    git("checkout", "-q", "-b", "side");
    const other = await commit("fix: v is 2", { "v.js": lines("v = 2") });
    git("checkout", "-q", "main");
    const revert = await commit(`Revert "fix: v is 2"\n\nThis reverts commit ${other}.`, {
      "w.js": lines("w"),
    });
    const set = await build(repo);
    expect(set.notes).toContain(
      `${revert.slice(0, 7)}: blamed ${other.slice(0, 7)}, not in the history of HEAD: skipped`,
    );
    const since = await buildEvalSet({ repo, repoRef: repo, since: "2000-01-01" });
    expect(since.notes).toContain(
      `${revert.slice(0, 7)}: blamed ${other.slice(0, 7)}, outside the history read (--since): skipped`,
    );
  });
});
