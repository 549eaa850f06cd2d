import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSkills } from "./load.js";
import { matchSkills } from "./match.js";

// Skill folders in opencode-multiagent's layout (its 0.2.0 package): manifest.json with the same
// seven fields as ours, but applicable_agents naming that tool's agents (critic, strategist,
// librarian) and budgets like 2200; SKILL.md with YAML frontmatter (name, a description quoted or
// not, its own version, argument-hint) over a body with `#` headings and `---` rules.
const root = fileURLToPath(new URL("../test/fixtures/opencode-multiagent/skills", import.meta.url));

describe("skill folders in the opencode-multiagent layout", () => {
  it("load as they are: frontmatter parsed, body kept, foreign agents set aside with a warning", async () => {
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.name)).toEqual(["context-hygiene", "stress-test"]);
    expect(problems.map((p) => [p.code, p.severity, p.skill, p.field])).toEqual([
      ["SKILL_AGENTS_FOREIGN", "warning", "context-hygiene", "applicable_agents"],
      ["SKILL_AGENTS_FOREIGN", "warning", "stress-test", "applicable_agents"],
    ]);
    // `critic` is also review's seat, so it is kept; a pack naming none of ours applies to every kind.
    expect(problems[1]?.message).toBe(
      'applicable_agents names "strategist", "librarian", not debatekit roles (proposition, opposition, debater, judge, proposer, challenger, summarizer, author, critic); read as another tool\'s agents and set aside, so the skill applies to critic',
    );
    const stress = skills.find((s) => s.name === "stress-test")!;
    expect(stress.manifest).toMatchObject({ version: "1.0.0", max_context_tokens: 2200 });
    expect(stress.manifest.applicable_agents).toEqual(["critic"]);
    const hygieneAgents = skills.find((s) => s.name === "context-hygiene")!.manifest.applicable_agents;
    expect(hygieneAgents).toEqual(["debater", "judge"]);
    expect(stress.frontmatter).toEqual({
      name: "stress-test",
      description:
        "Put a plan under pressure before committing to it. Use when asked to 'stress test a plan', 'poke holes', 'play devils advocate'.",
      version: "3.2.0",
      "argument-hint": "[plan] [--rounds=N] [--voice=tool]",
    });
    expect(stress.text.startsWith("# stress-test\n\nTake the plan")).toBe(true);
    expect(stress.text).toContain("\n---\n\n## Rounds");
    const hygiene = skills.find((s) => s.name === "context-hygiene")!;
    expect(hygiene.frontmatter.description).toMatch(
      /^This skill applies when someone says "the agent forgot/,
    );
  });

  it("are matched by their triggers and, through the frontmatter description, by the ranked match", async () => {
    const { skills } = await loadSkills([root]);
    const byTrigger = matchSkills(skills, { text: "Play devils advocate on the plan", role: "critic" });
    expect(byTrigger.map((m) => [m.skill.name, m.hits.map((h) => h.trigger)])).toEqual([
      ["stress-test", ["devils advocate"]],
    ]);
    // No trigger here: "forgot", "agreed" and "contradicts" are only in SKILL.md's frontmatter description.
    const ranked = matchSkills(skills, {
      text: "The agent forgot what we agreed and the prompt contradicts itself",
      role: "judge",
    });
    expect(ranked.map((m) => m.skill.name)).toEqual(["context-hygiene"]);
    expect(ranked[0]?.ranked.hits.filter((h) => h.field === "description").map((h) => h.stem)).toEqual(
      expect.arrayContaining(["forgot", "agre", "contradict"]),
    );
  });
});
