import type { Role } from "@debatekit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { selectSkills } from "./select.js";
import { selectSkillsReference } from "./test-helpers/select-reference.js";
import { skillOf } from "./test-helpers/skill.js";
import type { LoadedSkill } from "./types.js";

// selectSkills must give exactly what the algorithm gave before it counted with the piece memo,
// added block counts and remembered cuts by content: same chosen skills in the same order, same
// texts and cuts, same token counts, same dropped skills and reasons. The reference is that
// algorithm kept verbatim (test-helpers/select-reference.ts), counting with the plain encoder.

const ROLES = ["proposition", "opposition", "judge", "debater"] as const;
const TRIGGERS = ["evidence", "latency", "code review", "benchmark", "*", "安全", "naïve", "p99"];

/** Pieces that stress the pre-tokenizer, the paragraph cut and the fence rule. */
const PIECE = fc.constantFrom(
  "evidence",
  "Latency",
  "p99",
  "1234567",
  "café",
  "naïve",
  "Straße",
  "安全性",
  "字",
  "👍🏽",
  "it's",
  "they'll",
  "<|endoftext|>",
  "```ts",
  "```",
  "~~~",
  "- item",
  "## Heading",
  "`code()`",
  "...",
  "—",
  "=====",
  "  ",
  "\t",
);
const SEPARATOR = fc.constantFrom(" ", " ", " ", "\n", "\n\n", "\n\n", "\n \n", "\r\n", ". ", ", ", "");
const TEXT = fc
  .tuple(
    fc.array(fc.tuple(PIECE, SEPARATOR), { maxLength: 160 }),
    fc.constantFrom("", "", "", " ", "\n"), // loaded texts are trimmed; others must still agree
  )
  .map(([parts, lead]) => lead + parts.map(([p, s]) => p + s).join(""));

const SKILL = fc.record({
  name: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,10}$/),
  triggers: fc.uniqueArray(fc.constantFrom(...TRIGGERS), { minLength: 1, maxLength: 3 }),
  agents: fc.uniqueArray(fc.constantFrom<Role[]>("debater", "judge", "proposition", "opposition"), {
    minLength: 1,
    maxLength: 3,
  }),
  limit: fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 60, max: 400 })),
  text: TEXT,
});

const INPUT = fc.record({
  skills: fc.uniqueArray(SKILL, { selector: (s) => s.name, maxLength: 7 }),
  role: fc.constantFrom(...ROLES),
  budget: fc.oneof(fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 1500 })),
  words: fc.subarray(["evidence", "latency", "code review", "benchmark", "安全", "naive", "p99", "p99"]),
  exclude: fc.subarray(["a", "b", "c", "x1"]),
});

function toSkills(
  specs: { name: string; triggers: string[]; agents: Role[]; limit: number; text: string }[],
): LoadedSkill[] {
  return specs.map((s) =>
    skillOf(
      s.name,
      { triggers: s.triggers, applicable_agents: s.agents, max_context_tokens: s.limit },
      s.text,
    ),
  );
}

describe("selectSkills matches the reference algorithm", () => {
  it("for any skills, role, budget, text and exclusions: cold, warm, and reloaded objects", () => {
    fc.assert(
      fc.property(INPUT, (input) => {
        const query = {
          text: input.words.join(" "),
          role: input.role,
          budgetTokens: input.budget,
          exclude: input.exclude,
        };
        const skills = toSkills(input.skills);
        const expected = selectSkillsReference(skills, query);
        expect(selectSkills(skills, query)).toEqual(expected); // first: nothing memoized for them
        expect(selectSkills(skills, query)).toEqual(expected); // memoized per object
        expect(selectSkills(toSkills(input.skills), query)).toEqual(expected); // new objects, same content
        // Same texts under another limit, or another name: a cut remembered by content must not apply.
        const relimited = toSkills(input.skills.map((s) => ({ ...s, limit: s.limit + 7 })));
        expect(selectSkills(relimited, query)).toEqual(selectSkillsReference(relimited, query));
        const renamed = toSkills(input.skills.map((s) => ({ ...s, name: `${s.name}-r` })));
        expect(selectSkills(renamed, query)).toEqual(selectSkillsReference(renamed, query));
      }),
      { numRuns: 150 },
    );
  });

  it("with 150 matching skills, most of them dropped for the budget (the slow case it was)", () => {
    const para = (i: number) =>
      `Guidance ${i}: cite the file and line, state the workload and the numbers, qualify the claim.`;
    const skills = Array.from({ length: 150 }, (_, i) =>
      skillOf(
        `skill-${String(i).padStart(4, "0")}`,
        { triggers: [i % 2 ? "latency" : "benchmark"], max_context_tokens: i % 5 === 0 ? 1000 : 300 },
        Array(i % 7 === 0 ? 3 : 16)
          .fill(para(i))
          .join("\n\n"),
      ),
    );
    for (const budgetTokens of [0, 250, 4000]) {
      const query = { text: "benchmark latency", role: "judge" as const, budgetTokens };
      const expected = selectSkillsReference(skills, query);
      expect(expected.dropped.length).toBeGreaterThan(100);
      expect(selectSkills(skills, query)).toEqual(expected);
    }
  });
});
