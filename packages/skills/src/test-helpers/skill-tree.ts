import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SkillManifest } from "@debatekit/schema";

/** A fresh temp folder for one test. */
export function makeTempDir(prefix = "debatekit-skills-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A valid manifest, with overrides. */
export function manifestFor(name: string, overrides: Partial<SkillManifest> = {}): SkillManifest {
  return {
    name,
    version: "1.0.0",
    description: `The ${name} skill.`,
    triggers: [name],
    applicable_agents: ["debater", "judge"],
    max_context_tokens: 500,
    entry_file: "SKILL.md",
    ...overrides,
  };
}

/** Writes `<root>/<folder>/manifest.json` (object or raw text) and SKILL.md; returns the folder. */
export async function writeSkill(
  root: string,
  folder: string,
  manifest: SkillManifest | Record<string, unknown> | string,
  body: string | null = `Guidance of ${folder}.`,
): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  const text = typeof manifest === "string" ? manifest : `${JSON.stringify(manifest, null, 2)}\n`;
  await writeFile(join(dir, "manifest.json"), text);
  if (body !== null) await writeFile(join(dir, "SKILL.md"), body);
  return dir;
}
