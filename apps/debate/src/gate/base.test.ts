import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseRevision, openBaseTree } from "./base.js";

// A real repository: a root commit, then a commit that changes the settings a gate would read.
let repo: string;
let first: string;
let second: string;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: repo,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  })
    .toString()
    .trim();

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "gate-base-"));
  git("init", "-q", "-b", "main");
  await mkdir(join(repo, ".debatekit/agents"), { recursive: true });
  await mkdir(join(repo, "app"), { recursive: true });
  await writeFile(join(repo, ".debatekit/agents/judge.md"), "base judge\n");
  await writeFile(join(repo, ".debatekit/agents/notes.txt"), "not a template\n");
  await writeFile(join(repo, "debatekit.config.yaml"), "dir: base\n");
  await writeFile(join(repo, "app/debatekit.config.mjs"), "export default {};\n");
  await writeFile(join(repo, "policy.yml"), "block_on: [P1]\n");
  await symlink("policy.yml", join(repo, "linked.yml"));
  git("add", ".");
  git("commit", "-q", "-m", "base");
  first = git("rev-parse", "HEAD");
  git("checkout", "-q", "-b", "change");
  await writeFile(join(repo, ".debatekit/agents/judge.md"), "changed judge\n");
  await writeFile(join(repo, "policy.yml"), "block_on: [P3]\n");
  git("commit", "-q", "-am", "change");
  second = git("rev-parse", "HEAD");
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe("baseRevision", () => {
  it("is the revision each kind of scope starts from", async () => {
    expect(await baseRevision(repo, { kind: "base", branch: "main" })).toBe(first);
    expect(await baseRevision(repo, { kind: "range", from: "main", to: "change" })).toBe(first);
    expect(await baseRevision(repo, { kind: "commit", sha: second })).toBe(first);
    expect(await baseRevision(repo, { kind: "uncommitted" })).toBe(second);
    // A root commit starts from the empty tree.
    expect(await baseRevision(repo, { kind: "commit", sha: first })).toBe(
      git("hash-object", "-t", "tree", "/dev/null"),
    );
  });
});

describe("openBaseTree", () => {
  it("copies the base's settings out of git; the working tree's are never read", async () => {
    const tree = await openBaseTree(join(repo, "app"), { kind: "base", branch: "main" });
    try {
      expect(tree.revision).toBe(first);
      expect(tree.cwd).toBe(join(tree.dir, "app"));
      expect(await readFile(join(tree.dir, ".debatekit/agents/judge.md"), "utf8")).toBe("base judge\n");
      expect(tree.rolePrompts).toEqual([".debatekit/agents/judge.md"]);
      expect(await readFile(join(tree.dir, "debatekit.config.yaml"), "utf8")).toBe("dir: base\n");
      // A JS config is named, never copied (nothing could run it).
      expect(tree.codeConfigs).toEqual(["app/debatekit.config.mjs"]);
      expect(existsSync(join(tree.dir, "app/debatekit.config.mjs"))).toBe(false);
      // Paths relative to the working folder; inside the repository, the base's copy.
      expect(tree.contains("../policy.yml")).toBe(true);
      expect(await readFile((await tree.copyOf("../policy.yml"))!, "utf8")).toBe("block_on: [P1]\n");
      expect(await tree.copyOf("../missing.yml")).toBeUndefined();
      // A symbolic link is not followed out of the base: it has no copy.
      expect(await tree.copyOf("../linked.yml")).toBeUndefined();
      expect(tree.contains(join(tmpdir(), "elsewhere.yml"))).toBe(false);
    } finally {
      await tree.dispose();
    }
    expect(existsSync(tree.dir)).toBe(false);
  });
});
