import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "./load.js";
import { builtinSkillsRoot, defaultSkillRoots } from "./roots.js";
import { makeTempDir } from "./test-helpers/skill-tree.js";

describe("defaultSkillRoots", () => {
  it("lists the existing roots from general to specific: built-in, project (nearest above cwd), user, debate", async () => {
    const base = await makeTempDir();
    const project = join(base, "project");
    const debate = join(project, "debates", "d1");
    const config = join(base, "config");
    await mkdir(join(project, "skills"), { recursive: true });
    await mkdir(join(debate, "skills"), { recursive: true });
    await mkdir(join(config, "debatekit", "skills"), { recursive: true });
    const roots = await defaultSkillRoots({
      cwd: debate,
      env: { XDG_CONFIG_HOME: config },
      debateDir: debate,
    });
    expect(roots).toEqual([
      builtinSkillsRoot,
      join(project, "skills"),
      join(config, "debatekit", "skills"),
      join(debate, "skills"),
    ]);
  });

  it("leaves out roots that do not exist, never the built-in one", async () => {
    const base = await makeTempDir();
    expect(await defaultSkillRoots({ cwd: base, env: { XDG_CONFIG_HOME: join(base, "none") } })).toEqual([
      builtinSkillsRoot,
    ]);
  });
});

describe("the built-in skills", () => {
  it("are replaced by a later root's skill of the same name without a warning", async () => {
    const mine = await makeTempDir();
    await cp(join(builtinSkillsRoot, "judging-rubric"), join(mine, "judging-rubric"), { recursive: true });
    const { skills, problems } = await loadSkills([builtinSkillsRoot, mine]);
    expect(skills.find((s) => s.name === "judging-rubric")?.manifestPath).toBe(
      join(mine, "judging-rubric", "manifest.json"),
    );
    expect(problems).toEqual([]);
  });
});
