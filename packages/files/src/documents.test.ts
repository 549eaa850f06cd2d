import type { ArgumentFrontmatter, DebateFrontmatter } from "@debatekit/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  parseArgumentFile,
  parseDebateFile,
  serializeArgumentFile,
  serializeDebateFile,
} from "./documents.js";

const text = (max: number) =>
  fc.oneof(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: max }),
    fc.constantFrom(
      "---",
      "{",
      '{"id": "opp_001"}',
      "title: x\n---\n",
      "yes",
      "null",
      "# Motion",
      "a\n---\nb",
    ),
  );
const id = fc
  .tuple(fc.constantFrom("prop", "opp"), fc.integer({ min: 0, max: 999 }), fc.constantFrom("", "a", "b", "c"))
  .map(([side, n, letter]) => ({
    side: side as "prop" | "opp",
    exchange: n,
    id: `${side}_${String(n).padStart(3, "0")}${letter}`,
  }));
const argument: fc.Arbitrary<ArgumentFrontmatter> = fc
  .record({
    who: id,
    title: text(50), // well under the 200-character schema limit, also for multi-code-point graphemes
    claim: text(500),
    attacks: fc.array(
      fc.record({
        target_id: id.map((i) => i.id),
        type: fc.constantFrom("claim_attack", "grounds_attack", "warrant_attack", "backing_attack" as const),
      }),
      { maxLength: 3 },
    ),
  })
  .map(({ who, title, claim, attacks }) => ({
    id: who.id,
    side: who.side,
    exchange: who.exchange,
    title,
    claim,
    attacks,
  }));
const body = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme" }).map((s) => s.replace(/\n/g, "")),
      fc.constantFrom("---", "{", "}"),
    ),
    { maxLength: 6 },
  )
  .map((l) => (l.length ? `${l.join("\n")}\n` : ""));
const style = fc.constantFrom("yaml" as const, "json" as const);

describe("argument and debate documents", () => {
  it("round-trip arbitrary valid argument frontmatter and bodies in both styles", () => {
    fc.assert(
      fc.property(argument, body, style, (frontmatter, b, s) => {
        const doc = { frontmatter, body: b, style: s };
        expect(parseArgumentFile(serializeArgumentFile(doc), "arguments/x.md")).toEqual({
          ok: true,
          value: doc,
        });
      }),
      { numRuns: 300 },
    );
  });

  it("round-trips debate frontmatter with every optional key", () => {
    const frontmatter: DebateFrontmatter = {
      debate_id: "d-1",
      format: "formal",
      exchanges: 5,
      current_exchange: 2,
      current_phase: "awaiting_judgment",
      paused: false,
      seats: {
        proposition: { adapter: "claude", model: "sonnet", effort: "high" },
        opposition: { adapter: "gemini" },
        judge: { adapter: "codex", effort: "low" },
      },
      retries: 2,
      skills: { enabled: true, budget_tokens: 4000, exclude: ["a", "---"] },
      created_at: "2026-11-21T10:00:00Z",
      cumulative_scores: { proposition: { total: 0.35, count: 4 }, opposition: { total: -0.35, count: 4 } },
    };
    for (const s of ["yaml", "json"] as const) {
      const doc = { frontmatter, body: "\n# Motion\n\nM.\n", style: s };
      expect(parseDebateFile(serializeDebateFile(doc))).toEqual({ ok: true, value: doc });
    }
  });

  it("names the file in schema errors", () => {
    const result = parseArgumentFile("---\nid: prop_001\n---\n", "arguments/prop_001.md");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual([
      "arguments/prop_001.md:side",
      "arguments/prop_001.md:exchange",
      "arguments/prop_001.md:title",
      "arguments/prop_001.md:claim",
    ]);
  });
});
