import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DebateState, formalFormat, registerFormat } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseSkills } from "./prompt.js";

// A format registered from outside names its own seats; skills reach them by the seat's kind.
const proCon = {
  ...formalFormat,
  name: "pro-con-kinds",
  roles: [
    { role: "pro", kind: "debater", description: "argues for" },
    { role: "con", kind: "debater", description: "argues against" },
    { role: "judge", kind: "judge", description: "decides" },
  ],
} as const;

const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));
let base: string;
let state: DebateState;

async function writeSkill(name: string, agents: string[]): Promise<void> {
  const dir = join(base, "skills", name);
  await mkdir(dir, { recursive: true });
  const manifest = {
    name,
    version: "1.0.0",
    description: `the ${name} skill`,
    triggers: ["*"],
    applicable_agents: agents,
    max_context_tokens: 200,
    entry_file: "SKILL.md",
  };
  await writeFile(join(dir, "manifest.json"), `${JSON.stringify(manifest)}\n`);
  await writeFile(join(dir, "SKILL.md"), `# ${name}\n\nUse the ${name} habits.\n`);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-skill-kinds-"));
  await writeSkill("for-debaters", ["debater"]);
  await writeSkill("for-judges", ["judge"]);
  expect(registerFormat(proCon).ok).toBe(true);
  const folder = await readDebateFolder(example);
  if (!folder.ok) throw new Error(JSON.stringify(folder.errors));
  // The schema's frontmatter type names the built-in formats only; the registry accepts others.
  const frontmatter = { ...folder.value.state.frontmatter, format: proCon.name as "formal" };
  state = { ...folder.value.state, frontmatter };
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("skills reach a registered format's seats by kind", () => {
  const chosen = async (role: string) => {
    const options = { dir: join(base, "debate"), cwd: base, skillRoots: [join(base, "skills")] };
    const { selection } = await chooseSkills(state, role, options);
    return selection!.chosen.map((c) => c.name);
  };

  it("gives a skill for `debater` to the `pro` and `con` seats, and not to the judge", async () => {
    expect(await chosen("pro")).toEqual(["for-debaters"]);
    expect(await chosen("con")).toEqual(["for-debaters"]);
    expect(await chosen("judge")).toEqual(["for-judges"]);
  });

  it("gives nothing to a seat the format does not list", async () => {
    expect(await chosen("proposition")).toEqual([]);
  });
});
