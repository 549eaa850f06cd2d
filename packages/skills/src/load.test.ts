import { mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { clearSkillCache, loadSkills } from "./load.js";
import { makeTempDir, manifestFor, writeSkill } from "./test-helpers/skill-tree.js";

beforeEach(() => clearSkillCache());

describe("loadSkills", () => {
  it("loads valid skills, strips YAML frontmatter and normalizes line ends", async () => {
    const root = await makeTempDir();
    await writeSkill(
      root,
      "alpha",
      manifestFor("alpha"),
      "---\ntitle: Alpha\n---\r\nLine one.\r\n\r\nLine two.\r\n",
    );
    await writeSkill(root, "beta", manifestFor("beta"));
    const { skills, problems } = await loadSkills([root]);
    expect(problems).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
    expect(skills[0]).toMatchObject({
      text: "Line one.\n\nLine two.",
      frontmatter: { title: "Alpha" },
      root,
    });
  });

  it("reports each bad manifest with its file and field, and still loads the good ones", async () => {
    const root = await makeTempDir();
    await writeSkill(root, "good", manifestFor("good"));
    const { name: _dropped, ...noName } = manifestFor("missing-name");
    await writeSkill(root, "missing-name", noName);
    await writeSkill(root, "wrong-type", { ...manifestFor("wrong-type"), max_context_tokens: "lots" });
    await writeSkill(root, "not-json", '{"name": "not-json", ');
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    const byFile = (folder: string) => problems.filter((p) => p.file === join(root, folder, "manifest.json"));
    expect(byFile("missing-name")).toEqual([
      expect.objectContaining({ code: "SKILL_MANIFEST_INVALID", severity: "error", field: "name" }),
    ]);
    expect(byFile("wrong-type")).toEqual([
      expect.objectContaining({
        code: "SKILL_MANIFEST_INVALID",
        field: "max_context_tokens",
        skill: "wrong-type",
      }),
    ]);
    const [notJson] = byFile("not-json");
    expect(notJson).toMatchObject({ code: "SKILL_MANIFEST_NOT_JSON", severity: "error" });
    expect(notJson?.message).toContain('"{\\"name\\": \\"not-json\\", "');
    expect(notJson?.cause).toBeInstanceOf(SyntaxError);
  });

  it("reports an entry file that is missing, outside via '..', outside via a symlink, or a folder", async () => {
    const root = await makeTempDir();
    const outside = await makeTempDir();
    await writeFile(join(outside, "secret.md"), "not yours");
    await writeSkill(root, "missing", manifestFor("missing"), null);
    await writeSkill(root, "dotdot", manifestFor("dotdot", { entry_file: "../good/SKILL.md" }));
    await writeSkill(root, "absolute", manifestFor("absolute", { entry_file: join(outside, "secret.md") }));
    const linked = await writeSkill(root, "linked", manifestFor("linked", { entry_file: "LINK.md" }));
    await symlink(join(outside, "secret.md"), join(linked, "LINK.md"));
    const dirEntry = await writeSkill(root, "dir-entry", manifestFor("dir-entry", { entry_file: "docs" }));
    await mkdir(join(dirEntry, "docs"));
    await writeSkill(root, "good", manifestFor("good"));
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    const codeOf = (skill: string) => problems.filter((p) => p.skill === skill).map((p) => [p.code, p.field]);
    expect(codeOf("missing")).toEqual([["SKILL_ENTRY_MISSING", "entry_file"]]);
    expect(codeOf("dotdot")).toEqual([["SKILL_ENTRY_OUTSIDE", "entry_file"]]);
    expect(codeOf("absolute")).toEqual([["SKILL_ENTRY_OUTSIDE", "entry_file"]]);
    expect(codeOf("linked")).toEqual([["SKILL_ENTRY_OUTSIDE", "entry_file"]]);
    expect(problems.find((p) => p.skill === "linked")?.message).toContain("symlink");
    expect(codeOf("dir-entry")).toEqual([["SKILL_ENTRY_NOT_FILE", "entry_file"]]);
  });

  it("skips huge manifests and entry files without reading them, and binary or executable-frontmatter entries", async () => {
    const root = await makeTempDir();
    await writeSkill(root, "big-manifest", {
      ...manifestFor("big-manifest"),
      description: "x".repeat(70_000),
    });
    await writeSkill(root, "big-entry", manifestFor("big-entry"), "word ".repeat(60_000));
    await writeSkill(root, "binary", manifestFor("binary"), "abc\u0000def");
    await writeSkill(root, "js-matter", manifestFor("js-matter"), "---js\n{ a: process.exit(9) }\n---\nBody");
    await writeSkill(root, "empty", manifestFor("empty"), "---\ntitle: nothing\n---\n\n");
    const { skills, problems } = await loadSkills([root]);
    expect(skills).toEqual([]);
    expect(problems.map((p) => p.code).sort()).toEqual([
      "SKILL_ENTRY_EMPTY",
      "SKILL_ENTRY_FRONTMATTER",
      "SKILL_ENTRY_NOT_TEXT",
      "SKILL_ENTRY_TOO_LARGE",
      "SKILL_MANIFEST_TOO_LARGE",
    ]);
    expect(problems.find((p) => p.code === "SKILL_ENTRY_FRONTMATTER")?.message).toContain("not allowed");
  });

  it("lets a later root override an earlier one with a warning; same-root duplicates keep the first folder", async () => {
    const project = await makeTempDir();
    const debate = await makeTempDir();
    await writeSkill(project, "shared", manifestFor("shared"), "project version");
    await writeSkill(debate, "shared", manifestFor("shared"), "debate version");
    await writeSkill(project, "a-copy", manifestFor("twin"), "first");
    await writeSkill(project, "b-copy", manifestFor("twin"), "second");
    const { skills, problems } = await loadSkills([project, debate]);
    expect(skills.map((s) => [s.name, s.text])).toEqual([
      ["shared", "debate version"],
      ["twin", "first"],
    ]);
    const dup = problems.filter((p) => p.code === "SKILL_DUPLICATE");
    expect(dup).toEqual([
      expect.objectContaining({
        severity: "error",
        file: join(project, "b-copy", "manifest.json"),
        skill: "twin",
      }),
      expect.objectContaining({ severity: "warning", file: join(debate, "shared", "manifest.json") }),
    ]);
    expect(dup[1]?.message).toContain(join(project, "shared", "manifest.json"));
    expect(problems.filter((p) => p.code === "SKILL_NAME_MISMATCH").map((p) => p.file)).toEqual([
      join(project, "a-copy", "manifest.json"),
      join(project, "b-copy", "manifest.json"),
    ]);
  });

  it("sets aside other tools' agent names in applicable_agents, keeping the debatekit roles it names", async () => {
    const root = await makeTempDir();
    await writeSkill(root, "mixed", { ...manifestFor("mixed"), applicable_agents: ["strategist", "judge"] });
    await writeSkill(root, "typed", { ...manifestFor("typed"), applicable_agents: ["judge", 7] });
    // Every name the manifest schema knows is kept: the seats of crossfire and review too.
    await writeSkill(root, "seats", { ...manifestFor("seats"), applicable_agents: ["proposer", "critic"] });
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => [s.name, s.manifest.applicable_agents])).toEqual([
      ["mixed", ["judge"]],
      ["seats", ["proposer", "critic"]],
    ]);
    expect(problems.filter((p) => p.skill === "seats")).toEqual([]);
    expect(problems.filter((p) => p.skill === "mixed").map((p) => [p.code, p.severity])).toEqual([
      ["SKILL_AGENTS_FOREIGN", "warning"],
    ]);
    // Not a list of names: left to the schema, which rejects it as before.
    expect(new Set(problems.filter((p) => p.skill === "typed").map((p) => p.code))).toEqual(
      new Set(["SKILL_MANIFEST_INVALID"]),
    );
  });

  it("warns about a missing root, a folder without manifest and a trigger that can never match", async () => {
    const root = await makeTempDir();
    await mkdir(join(root, "notes"));
    await writeSkill(root, "odd", manifestFor("odd", { triggers: ["odd", "++"] }));
    const { skills, problems } = await loadSkills([join(root, "nope"), root]);
    expect(skills.map((s) => s.name)).toEqual(["odd"]);
    expect(problems.map((p) => [p.code, p.severity, p.field])).toEqual([
      ["SKILL_ROOT_MISSING", "warning", undefined],
      ["SKILL_MANIFEST_MISSING", "warning", undefined],
      ["SKILL_TRIGGER_UNUSABLE", "warning", "triggers[1]"],
    ]);
  });

  it("loads a manifest's concepts, warns about a phrase that can never match, and rejects a concept without phrases", async () => {
    const root = await makeTempDir();
    const concepts = [{ name: "keys", phrases: ["signing key", "--"] }];
    await writeSkill(root, "good", manifestFor("good", { concepts }));
    await writeSkill(root, "bad", manifestFor("bad", { concepts: [{ name: "empty", phrases: [] }] }));
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => [s.name, s.manifest.concepts])).toEqual([["good", concepts]]);
    expect(problems.map((p) => [p.skill, p.code, p.severity, p.field])).toEqual([
      ["bad", "SKILL_MANIFEST_INVALID", "error", "concepts[0].phrases"],
      ["good", "SKILL_TRIGGER_UNUSABLE", "warning", "concepts[0].phrases[1]"],
    ]);
    expect(problems[1]?.message).toContain('phrase "--" of concept "keys" has no letters or digits');
  });

  it("caches by path, size and mtime: unchanged skills are the same objects, changed ones are re-read", async () => {
    const root = await makeTempDir();
    await writeSkill(root, "one", manifestFor("one"), "first text");
    const dir = await writeSkill(root, "two", manifestFor("two"), "two text");
    const first = await loadSkills([root]);
    const again = await loadSkills([root]);
    expect(again.skills[0]).toBe(first.skills[0]);
    expect(again.skills[1]).toBe(first.skills[1]);
    await writeFile(join(dir, "SKILL.md"), "two text, edited");
    const future = new Date(Date.now() + 5000);
    await utimes(join(dir, "SKILL.md"), future, future);
    const edited = await loadSkills([root]);
    expect(edited.skills[0]).toBe(first.skills[0]);
    expect(edited.skills[1]).not.toBe(first.skills[1]);
    expect(edited.skills[1]?.text).toBe("two text, edited");
  });
});
