import { spawnSync } from "node:child_process";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPacked, newcomer } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// The skill packs live at the repository's top (skills/); the build copies them into
// @debatekit/skills, which must ship them: installed from its tarball, far from the repository.
let root: string;
let prefix: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, env } = await newcomer("skills-pack-"));
  prefix = join(root, "prefix");
  await installPacked(prefix, env, "@debatekit/skills");
}, 300_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the packed @debatekit/skills", () => {
  it("lists the repository's skills/ as its built-in skills, from its own install, with no problem", async () => {
    const script = `
      import { builtinSkillsRoot, loadSkills } from "@debatekit/skills";
      const { skills, problems } = await loadSkills([builtinSkillsRoot]);
      console.log(JSON.stringify({ root: builtinSkillsRoot, names: skills.map((s) => s.name), problems }));`;
    // Resolved from the global install's node_modules, as a program depending on it would.
    const lib = join(prefix, "lib");
    const ran = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: lib,
      env,
      encoding: "utf8",
    });
    expect(ran.status, ran.stderr).toBe(0);
    const listed = JSON.parse(ran.stdout) as { root: string; names: string[]; problems: unknown[] };
    expect(listed.root).toBe(join(lib, "node_modules", "@debatekit", "skills", "builtin"));
    const packs = (await readdir(join(repoRoot, "skills"), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(packs.length).toBeGreaterThanOrEqual(8);
    expect(listed.names).toEqual(packs);
    expect(listed.problems).toEqual([]);
  });
});
