import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debate, newcomer, newManualDebate } from "./newcomer.js";
import { repoRoot } from "./workspace.js";

// Item 1 of the newcomer issue: the installed `debate` has its built-in agents (compiled into
// @debatekit/core), plus the user's and the project's, and a debate's own.
let root: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ root, cwd, env } = await newcomer("agents-override-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The built-in `name` (agents/<name>.md of this checkout) written into `folder` with `marker` first. */
async function override(folder: string, name: string, marker: string, edit = (t: string) => t) {
  await mkdir(folder, { recursive: true });
  const text = await readFile(join(repoRoot, "agents", `${name}.md`), "utf8");
  await writeFile(join(folder, `${name}.md`), edit(text.replace(/\n---\n\n/, `\n---\n\n${marker}\n\n`)));
}

describe("role templates the user, the project and a debate replace", () => {
  it("a debate's prompts come from the debate's own, then the project's, then the user's templates", async () => {
    const project = join(cwd, "team");
    await mkdir(project, { recursive: true });
    await override(join(env.XDG_CONFIG_HOME!, "debatekit/agents"), "debater-opening", "USER OPENING RULES");
    await override(join(project, ".debatekit/agents"), "debater-opening", "TEAM OPENING RULES");
    expect(newManualDebate("This house would ship on Fridays", "d", { cwd: project, env }).code).toBe(0);
    expect(debate(["run", "d"], { cwd: project, env }).code).toBe(0);
    const prompt = await readFile(join(project, "d/prompts/e000-proposition.md"), "utf8");
    expect(prompt).toContain("TEAM OPENING RULES");
    expect(prompt).not.toContain("USER OPENING RULES");
    // From an unrelated folder the project's is not in effect: the user's is.
    expect(newManualDebate("This house would ship on Mondays", "e", { cwd, env }).code).toBe(0);
    expect(debate(["run", "e"], { cwd, env }).code).toBe(0);
    expect(await readFile(join(cwd, "e/prompts/e000-proposition.md"), "utf8")).toContain(
      "USER OPENING RULES",
    );
    // The debate's own beats both.
    await cp(join(cwd, "e"), join(cwd, "f"), { recursive: true });
    await rm(join(cwd, "f/prompts"), { recursive: true });
    await override(join(cwd, "f/agents"), "debater-opening", "THIS DEBATE'S OPENING RULES");
    expect(debate(["run", "f"], { cwd, env }).code).toBe(0);
    expect(await readFile(join(cwd, "f/prompts/e000-proposition.md"), "utf8")).toContain(
      "THIS DEBATE'S OPENING RULES",
    );
  });

  it("a broken replacement stops the run before any seat is asked, naming the file and field", async () => {
    expect(newManualDebate("This house would pair program", "g", { cwd, env }).code).toBe(0);
    await override(join(cwd, "g/agents"), "judge", "x", (t) => t.replace("task: judgment", "task: opening"));
    const run = debate(["run", "g"], { cwd, env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('g/agents/judge.md: `task` must stay "judgment"');
    await expect(readFile(join(cwd, "g/prompts/e000-proposition.md"), "utf8")).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});
