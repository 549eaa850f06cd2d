import type { SkillManifest } from "@debatekit/schema";
import type { LoadedSkill } from "../types.js";

/** An in-memory skill for matching and selection tests (the loader has its own tests). */
export function skillOf(
  name: string,
  manifest: Partial<SkillManifest>,
  text = `Text of ${name}.`,
): LoadedSkill {
  return {
    name,
    manifest: {
      name,
      version: "1.0.0",
      description: name,
      triggers: [name],
      applicable_agents: ["debater", "judge"],
      max_context_tokens: 1000,
      entry_file: "SKILL.md",
      ...manifest,
    },
    root: "/mem",
    dir: `/mem/${name}`,
    manifestPath: `/mem/${name}/manifest.json`,
    entryPath: `/mem/${name}/SKILL.md`,
    text,
    frontmatter: {},
  };
}
