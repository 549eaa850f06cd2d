import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyPath, isIgnoredPath } from "./paths.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "watch-paths-"));
  await writeFile(join(dir, "scores.json"), "{}");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("classifyPath", () => {
  it("knows debate.md and inbox answers, nothing else", () => {
    expect(classifyPath("/d/x/debate.md")).toEqual({ kind: "debate", dir: "/d/x" });
    expect(classifyPath("/d/x/inbox/e001-judge.json")).toEqual({
      kind: "inbox",
      dir: "/d/x",
      name: "e001-judge.json",
    });
    expect(classifyPath("/d/x/inbox/.e001-judge.json.swp").kind).toBe("other");
    expect(classifyPath("/d/x/inbox/notes.txt").kind).toBe("other");
    expect(classifyPath("/d/x/scores.json").kind).toBe("other");
    expect(classifyPath("/d/x/.debate.md.12.ab.tmp").kind).toBe("other");
  });
});

describe("isIgnoredPath", () => {
  it("skips the runner's own folders by name, before any stat", () => {
    for (const name of [".debate", "prompts", "arguments", "node_modules", ".git"]) {
      expect(isIgnoredPath(`/d/x/${name}`)).toBe(true);
    }
    expect(isIgnoredPath("/d/x")).toBe(false);
    expect(isIgnoredPath("/d/x/inbox")).toBe(false);
  });

  it("with stats, keeps folders and only the files that matter", async () => {
    const folder = await stat(dir);
    const file = await stat(join(dir, "scores.json"));
    expect(isIgnoredPath(dir, folder)).toBe(false);
    expect(isIgnoredPath(join(dir, "scores.json"), file)).toBe(true);
    expect(isIgnoredPath(join(dir, "argument-graph.mmd"), file)).toBe(true);
    expect(isIgnoredPath(join(dir, "debate.md"), file)).toBe(false);
    expect(isIgnoredPath(join(dir, "inbox/e000-proposition.md"), file)).toBe(false);
  });
});

describe("every format's record folders", () => {
  it("are never entered (formal's arguments/, crossfire's turns/)", () => {
    expect(isIgnoredPath("/d/debates/x/arguments")).toBe(true);
    expect(isIgnoredPath("/d/debates/x/turns")).toBe(true);
    expect(isIgnoredPath("/d/debates/x/inbox")).toBe(false);
  });
});
