import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAdapter as createReplayAdapter } from "@debatekit/adapter-replay";
import { type DebateState, formatOfState, type SeatRole } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { countTokens, loadSkills, selectSkills } from "@debatekit/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseSkills, skillMatchText } from "./prompt.js";
import { runDebate } from "./run.js";

// The example debate, run for real (replay seats answering from its recording); only the adapter is
// wrapped, to see the exact prompt each seat receives.
const example = fileURLToPath(new URL("../../../examples/ai-review-gate", import.meta.url));
const repoSkills = fileURLToPath(new URL("../../../skills", import.meta.url));
const roles: SeatRole[] = ["proposition", "opposition", "judge"];

let base: string;
let dir: string;
let state: DebateState;
const prompts: { role: string; exchange: number; prompt: string }[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "runner-skills-"));
  dir = join(base, "ai-review-gate");
  await cp(example, dir, { recursive: true });
  const folder = await readDebateFolder(dir);
  if (!folder.ok) throw new Error(JSON.stringify(folder.errors));
  state = folder.value.state;
  const summary = await runDebate(dir, {
    exchanges: 2,
    skillRoots: [repoSkills],
    cwd: base,
    adapters: {
      replay: (seat, context) => {
        const real = createReplayAdapter(seat, context);
        return {
          name: real.name,
          detect: () => real.detect(),
          call: (request) => {
            prompts.push({
              role: request.step!.role,
              exchange: request.step!.exchange,
              prompt: request.prompt,
            });
            return real.call(request);
          },
        };
      },
    },
  });
  expect(summary.status).toBe("done");
}, 120_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("skills in the example debate's prompts", () => {
  it("gives each seat at the opening exactly the skills chosen for it, within the 4000-token default", async () => {
    const { skills } = await loadSkills([repoSkills]);
    for (const role of roles) {
      const kinds = formatOfState(state)
        .roles.filter((r) => r.role === role)
        .map((r) => r.kind);
      const selection = selectSkills(skills, {
        text: skillMatchText(state, role),
        role,
        kinds,
        budgetTokens: 4000,
      });
      expect(selection.chosen.length, role).toBeGreaterThan(0);
      expect(selection.totalTokens).toBeLessThanOrEqual(4000);
      const prompt = prompts.find((p) => p.role === role && p.exchange === 0)!.prompt;
      expect(prompt).toContain(selection.text);
      for (const c of selection.chosen) expect(prompt).toContain(`## Skill: ${c.name}\n\n`);
      const sent = prompt.match(/^## Skill: [a-z0-9-]+$/gm) ?? [];
      expect(sent.map((h) => h.slice(10)).sort()).toEqual(selection.chosen.map((c) => c.name).sort());
      expect(countTokens(selection.text)).toBe(selection.totalTokens);
    }
  });

  it("gives the judge its rubric and the debaters the rebuttal skill only once rebuttals start", () => {
    const at = (role: SeatRole, exchange: number) =>
      prompts.find((p) => p.role === role && p.exchange === exchange)!.prompt;
    expect(at("judge", 0)).toContain("## Skill: judging-rubric");
    expect(at("proposition", 0)).not.toContain("## Skill: judging-rubric");
    expect(at("proposition", 0)).not.toContain("## Skill: steelmanning");
    expect(at("opposition", 1)).toContain("## Skill: steelmanning");
  });
});

describe("chooseSkills reads debate.md's skill settings", () => {
  const withSkills = (fm: Partial<DebateState["frontmatter"]>): DebateState => ({
    ...state,
    frontmatter: { ...state.frontmatter, ...fm },
  });
  const options = () => ({ dir, cwd: base, skillRoots: [repoSkills] });

  it("sends nothing when skills.enabled is false", async () => {
    expect(await chooseSkills(withSkills({ skills: { enabled: false } }), "judge", options())).toEqual({
      selection: null,
      problems: [],
    });
  });

  it("uses skills.budget_tokens, a seat's skill_budget_tokens over it, and skills.exclude", async () => {
    const { selection: small } = await chooseSkills(
      withSkills({ skills: { budget_tokens: 700 } }),
      "proposition",
      options(),
    );
    expect(small!.budgetTokens).toBe(700);
    expect(small!.totalTokens).toBeLessThanOrEqual(700);
    const seats = {
      ...state.frontmatter.seats!,
      judge: { ...state.frontmatter.seats!.judge!, skill_budget_tokens: 900 },
    };
    const { selection: judge } = await chooseSkills(
      withSkills({ skills: { budget_tokens: 100 }, seats }),
      "judge",
      options(),
    );
    expect(judge!.budgetTokens).toBe(900);
    expect(judge!.chosen[0]?.name).toBe("judging-rubric");
    const { selection: excluded } = await chooseSkills(
      withSkills({ skills: { exclude: ["judging-rubric"] } }),
      "judge",
      options(),
    );
    expect(excluded!.chosen.map((c) => c.name)).not.toContain("judging-rubric");
    expect(excluded!.dropped).toContainEqual(
      expect.objectContaining({ name: "judging-rubric", code: "excluded" }),
    );
  });
});

describe("the run's env finds the user's skills folder", () => {
  it("reads $XDG_CONFIG_HOME/debatekit/skills from RunOptions.env, not process.env", async () => {
    const root = await mkdtemp(join(tmpdir(), "runner-xdg-"));
    try {
      const config = join(root, "config");
      // The user's own copy of a built-in skill, marked so the prompt shows which one it got.
      const userRubric = join(config, "debatekit", "skills", "judging-rubric");
      await cp(join(repoSkills, "judging-rubric"), userRubric, { recursive: true });
      const entry = join(userRubric, "SKILL.md");
      await writeFile(entry, (await readFile(entry, "utf8")).replace("\n\n", "\n\nUSER-RUBRIC-MARKER\n\n"));
      const judgePrompts = async (name: string, env: NodeJS.ProcessEnv) => {
        const debate = join(root, name);
        await cp(example, debate, { recursive: true });
        const seen: string[] = [];
        const summary = await runDebate(debate, {
          exchanges: 1,
          // No skills/ at or above cwd, and no skillRoots: only the env can point at a skills folder.
          cwd: root,
          env,
          adapters: {
            replay: (seat, context) => {
              const real = createReplayAdapter(seat, context);
              return {
                name: real.name,
                detect: () => real.detect(),
                call: (request) => {
                  if (request.step!.role === "judge") seen.push(request.prompt);
                  return real.call(request);
                },
              };
            },
          },
        });
        expect(summary.status).toBe("done");
        return seen;
      };
      expect(process.env.XDG_CONFIG_HOME).not.toBe(config);
      const withConfig = await judgePrompts("with", { XDG_CONFIG_HOME: config, HOME: root });
      expect(withConfig.length).toBeGreaterThan(0);
      expect(withConfig[0]).toContain("## Skill: judging-rubric");
      expect(withConfig[0]).toContain("USER-RUBRIC-MARKER");
      const without = await judgePrompts("without", { XDG_CONFIG_HOME: join(root, "none"), HOME: root });
      expect(without.length).toBeGreaterThan(0);
      // Without the user's folder the judge still gets the built-in rubric, not the user's copy.
      expect(without[0]).toContain("## Skill: judging-rubric");
      expect(without[0]).not.toContain("USER-RUBRIC-MARKER");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
