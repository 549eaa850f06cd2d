import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultAgentTemplates } from "@debatekit/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentRoots, loadAgentTemplates } from "./agents.js";

// The built-in sources, as a user would copy one to change it.
const sources = fileURLToPath(new URL("../../../agents/", import.meta.url));
let base: string;
let home: string;
let project: string;
let debate: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-agents-"));
  home = join(base, "home");
  project = join(base, "project");
  debate = join(project, "debates", "d");
  await mkdir(debate, { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Writes the built-in `name` into `folder`, with `marker` as the first line of its body. */
async function copyWithMarker(folder: string, name: string, marker: string, edit = (t: string) => t) {
  await mkdir(folder, { recursive: true });
  const text = await readFile(join(sources, `${name}.md`), "utf8");
  const withMarker = text.replace(/\n---\n\n/, `\n---\n\n${marker}\n\n`);
  await writeFile(join(folder, `${name}.md`), edit(withMarker));
}

const roots = () => agentRoots({ cwd: project, env: { HOME: home }, debateDir: debate });
const bodyOf = (templates: Awaited<ReturnType<typeof loadAgentTemplates>>, name: string) =>
  templates?.find((t) => t.definition.name === name)?.body ?? "";

describe("role templates from the user, the project and the debate", () => {
  it("uses the built-in ones when no folder replaces one, and ignores files that are not ours", async () => {
    expect(await loadAgentTemplates(await roots())).toBeUndefined();
    await mkdir(join(project, ".debatekit/agents"), { recursive: true });
    await writeFile(join(project, ".debatekit/agents/notes.md"), "not a template at all");
    expect(await roots()).toEqual([join(project, ".debatekit/agents")]);
    expect(await loadAgentTemplates(await roots())).toBeUndefined();
  });

  it("replaces a built-in by name; the debate's own beats the project's, which beats the user's", async () => {
    await copyWithMarker(join(home, ".config/debatekit/agents"), "judge", "USER-JUDGE");
    await copyWithMarker(join(home, ".config/debatekit/agents"), "debater-opening", "USER-OPENING");
    await copyWithMarker(join(project, ".debatekit/agents"), "debater-opening", "PROJECT-OPENING");
    await copyWithMarker(join(debate, "agents"), "judge", "DEBATE-JUDGE");
    const templates = await loadAgentTemplates(await roots());
    expect(bodyOf(templates, "judge").startsWith("DEBATE-JUDGE")).toBe(true);
    expect(bodyOf(templates, "debater-opening").startsWith("PROJECT-OPENING")).toBe(true);
    const rebuttal = defaultAgentTemplates.find((t) => t.definition.name === "debater-rebuttal");
    expect(templates?.find((t) => t.definition.name === "debater-rebuttal")).toBe(rebuttal);
    expect(templates).toHaveLength(defaultAgentTemplates.length);
  });

  it("refuses a replacement that changes the role or task, or uses a value the role is not given", async () => {
    const folder = join(debate, "agents");
    await copyWithMarker(folder, "judge", "X", (t) => t.replace("role: judge", "role: debater"));
    await expect(loadAgentTemplates(await roots())).rejects.toMatchObject({
      code: "AGENT_INVALID",
      field: "role",
      message: expect.stringContaining('judge.md: `role` must stay "judge"'),
    });
    await copyWithMarker(folder, "judge", "{{secret_env}}", (t) =>
      t.replace("placeholders: [", "placeholders: [secret_env, "),
    );
    await expect(loadAgentTemplates(await roots())).rejects.toMatchObject({
      code: "AGENT_INVALID",
      field: "placeholders",
      message: expect.stringContaining("{{secret_env}} is not given to judge"),
    });
    await copyWithMarker(folder, "judge", "{{motion_text}}");
    await expect(loadAgentTemplates(await roots())).rejects.toMatchObject({
      message: expect.stringContaining(
        "the body uses {{motion_text}} but `placeholders` does not declare it",
      ),
    });
    await writeFile(join(folder, "judge.md"), "no frontmatter");
    await expect(loadAgentTemplates(await roots())).rejects.toMatchObject({ code: "AGENT_INVALID" });
  });

  it("keeps only the placeholders a replacement uses (a shorter template is fine)", async () => {
    const folder = join(debate, "agents");
    await mkdir(folder, { recursive: true });
    const text = await readFile(join(sources, "judge.md"), "utf8");
    const head = text.slice(0, text.indexOf("\n---\n") + 5);
    await writeFile(join(folder, "judge.md"), `${head}\nScore {{expected_ids}} for {{motion}}.\n`);
    const judge = (await loadAgentTemplates(await roots()))?.find((t) => t.definition.name === "judge");
    expect(judge?.body).toBe("Score {{expected_ids}} for {{motion}}.\n");
    expect(judge?.definition.placeholders?.sort()).toEqual(["expected_ids", "motion"]);
  });
});
