import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countBlockTokens, renderSkillBlock, selectSkills } from "./select.js";
import { skillOf } from "./test-helpers/skill.js";
import { countTokens } from "./tokens.js";

const paragraphs = (word: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${word} paragraph ${i + 1}: check the source, the numbers and the scope.`,
  ).join("\n\n");

const evidence = skillOf("evidence", { triggers: ["evidence", "benchmark"] }, paragraphs("Evidence", 15));
const perf = skillOf("perf", { triggers: ["benchmark", "latency"] }, paragraphs("Perf", 15));
const rubric = skillOf("rubric", { triggers: ["*"], applicable_agents: ["judge"] }, paragraphs("Rubric", 3));
const longOne = skillOf("long", { triggers: ["latency"], max_context_tokens: 60 }, paragraphs("Long", 10));
const all = [evidence, perf, rubric, longOne];
const motion = "A benchmark shows the cache cuts latency; the evidence is a benchmark.";

describe("selectSkills", () => {
  it("chooses by score, joins the blocks, and reports exact token counts", () => {
    const sel = selectSkills(all, { text: motion, role: "judge", budgetTokens: 10_000 });
    expect(sel.chosen.map((c) => [c.name, c.score, c.matched])).toEqual([
      ["rubric", 10, ["*"]],
      ["evidence", 21, ["benchmark", "evidence"]],
      ["perf", 21, ["benchmark", "latency"]],
      ["long", 10, ["latency"]],
    ]);
    expect(sel.text).toBe(sel.chosen.map((c) => renderSkillBlock(c.name, c.text)).join("\n\n"));
    expect(sel.totalTokens).toBe(countTokens(sel.text));
    for (const c of sel.chosen) expect(c.tokens).toBe(countTokens(renderSkillBlock(c.name, c.text)));
    expect(sel.dropped).toEqual([]);
  });

  it("cuts a skill to its own max_context_tokens with a visible marker", () => {
    const sel = selectSkills(all, {
      text: "latency",
      role: "proposition",
      kinds: ["debater"],
      budgetTokens: 10_000,
    });
    const long = sel.chosen.find((c) => c.name === "long")!;
    expect(long).toMatchObject({ truncated: true, cutBy: "max_context_tokens" });
    expect(countTokens(long.text)).toBeLessThanOrEqual(60);
    expect(long.text).toMatch(/\n\n\[skill "long" cut to 60 tokens of \d+\]$/);
    expect(long.fullTokens).toBeGreaterThan(60);
  });

  it("fits the seat's budget: whole if it fits, cut to what is left, else dropped with the reason", () => {
    const whole = countTokens(renderSkillBlock("evidence", evidence.text));
    const budget = whole + 160;
    const sel = selectSkills(all, {
      text: motion,
      role: "opposition",
      kinds: ["debater"],
      budgetTokens: budget,
    });
    expect(sel.totalTokens).toBeLessThanOrEqual(budget);
    expect(sel.chosen[0]).toMatchObject({ name: "evidence", truncated: false });
    expect(sel.chosen[1]).toMatchObject({ name: "perf", truncated: true, cutBy: "budget" });
    expect(sel.chosen[1]?.text).toContain('[skill "perf" cut to');
    expect(sel.dropped.map((d) => [d.name, d.code])).toEqual([["long", "over_budget"]]);
    expect(sel.dropped[0]?.reason).toMatch(
      /^needs \d+ tokens, \d+ of \d+ left \(only one skill is cut to fill the budget: perf\)$/,
    );
  });

  it("drops excluded skills and reports them; a zero budget sends nothing", () => {
    const sel = selectSkills(all, { text: motion, role: "judge", budgetTokens: 10_000, exclude: ["perf"] });
    expect(sel.chosen.map((c) => c.name)).not.toContain("perf");
    expect(sel.dropped).toEqual([
      { name: "perf", always: false, score: 21, code: "excluded", reason: "excluded by skills.exclude" },
    ]);
    const none = selectSkills(all, { text: motion, role: "judge", budgetTokens: 0 });
    expect(none).toMatchObject({ chosen: [], text: "", totalTokens: 0 });
    expect(none.dropped).toHaveLength(4);
  });

  it("never exceeds the budget and is deterministic, for any budget and skill order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 800 }),
        fc.shuffledSubarray(all, { minLength: 0 }),
        (budget, skills) => {
          const a = selectSkills(skills, { text: motion, role: "judge", budgetTokens: budget });
          const b = selectSkills([...skills].reverse(), {
            text: motion,
            role: "judge",
            budgetTokens: budget,
          });
          expect(a.totalTokens).toBeLessThanOrEqual(budget);
          expect(a.totalTokens).toBe(countTokens(a.text));
          expect(b).toEqual(a);
          expect(a.chosen.length + a.dropped.length).toBe(skills.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("adds the heading's and the text's counts only where that is exact (any name, any text)", () => {
    const piece = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.constantFrom(" ", "\n", "\r\n", "\t\n", "-", "!!", "'s", "12345", "字", "```"),
    );
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.oneof(text, fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/)), text, (name, body) => {
        expect(countBlockTokens(name, body, countTokens(body))).toBe(
          countTokens(renderSkillBlock(name, body)),
        );
      }),
      { numRuns: 500 },
    );
  });
});
