import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { validateAgentDefinition } from "@debatekit/schema";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { loadSkills } from "./load.js";
import { selectSkills } from "./select.js";
import { countTokens } from "./tokens.js";

// CI gate for the content the project ships: skills/ and agents/ at the repository root.
const skillsRoot = fileURLToPath(new URL("../../../skills", import.meta.url));
const agentsRoot = fileURLToPath(new URL("../../../agents", import.meta.url));

describe("the repository's skills/", () => {
  it("loads with no problem at all (errors or warnings) and holds at least 6 skills", async () => {
    const { skills, problems } = await loadSkills([skillsRoot]);
    expect(problems.map((p) => `${p.code} ${p.file} ${p.field ?? ""}: ${p.message}`)).toEqual([]);
    expect(skills.length).toBeGreaterThanOrEqual(6);
  });

  it("each skill fits its own max_context_tokens, so nothing is cut by default", async () => {
    const { skills } = await loadSkills([skillsRoot]);
    const over = skills
      .map((s) => ({ name: s.name, tokens: countTokens(s.text), max: s.manifest.max_context_tokens }))
      .filter((s) => s.tokens > s.max);
    expect(over).toEqual([]);
  });

  it("gives the judge its rubric for any motion and debaters never get it", async () => {
    const { skills } = await loadSkills([skillsRoot]);
    const text = "This house would rewrite the billing service in Rust";
    const judge = selectSkills(skills, { text, role: "judge", kinds: ["judge"], budgetTokens: 4000 });
    expect(judge.chosen.map((c) => c.name)).toContain("judging-rubric");
    const prop = selectSkills(skills, { text, role: "proposition", kinds: ["debater"], budgetTokens: 4000 });
    expect(prop.chosen.map((c) => c.name)).not.toContain("judging-rubric");
    expect(prop.chosen.map((c) => c.name)).toContain("cost-and-risk-tradeoffs");
  });

  it("keeps the formal judge's zero-sum rubric from another format's judge", async () => {
    const { skills } = await loadSkills([skillsRoot]);
    const query = {
      text: "Review the change to sum.ts",
      role: "judge",
      kinds: ["judge"],
      budgetTokens: 4000,
    };
    const formal = selectSkills(skills, { ...query, format: "formal" });
    expect(formal.chosen.map((c) => c.name)).toContain("judging-rubric");
    for (const format of ["review", "crossfire"]) {
      const other = selectSkills(skills, { ...query, format });
      expect(
        other.chosen.map((c) => c.name),
        format,
      ).not.toContain("judging-rubric");
      expect(other.text).not.toMatch(/sum to 0/);
    }
  });
});

describe("the repository's agents/", () => {
  it("every agents/*.md has frontmatter valid against the AgentDefinition schema, named after its file", async () => {
    let files: string[] = [];
    try {
      files = (await readdir(agentsRoot)).filter((f) => f.endsWith(".md"));
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") throw cause;
    }
    const problems: string[] = [];
    for (const file of files) {
      const { data } = matter(await readFile(`${agentsRoot}/${file}`, "utf8"), { engines: {} });
      const checked = validateAgentDefinition(data);
      if (!checked.ok)
        for (const e of checked.errors) problems.push(`agents/${file} ${e.path}: ${e.message}`);
      else if (`${checked.value.name}.md` !== file)
        problems.push(`agents/${file} name: ${checked.value.name}`);
    }
    expect(problems).toEqual([]);
  });
});
