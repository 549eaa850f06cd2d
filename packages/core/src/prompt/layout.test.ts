import { describe, expect, it } from "vitest";
import { defaultAgentTemplates } from "../generated/agents.js";

/**
 * The cache-friendly layout (docs/architecture.md#prompts-and-cost) of every default template: the stable instructions and
 * answer format first, then what the debate has accumulated, and what changes from one call of a
 * seat to the next (the round, the ids to answer, the outcome note) only under the last heading,
 * "Your turn" (formal's judge: "Your task"), so consecutive prompts of a seat share their prefix.
 */
const perCall = ["round", "covers", "exchange", "finding_ids", "outcome_note", "expected_ids", "latest_ids"];
/** The templates laid out this way (the formal and crossfire debaters' were checked when reordered). */
const reordered = [
  "crossfire-summary",
  "crossfire-verdict",
  "review-critique",
  "review-classify",
  "review-rebuttal",
  "review-compromise",
  "review-accepted",
  "crossfire-opening",
  "crossfire-challenge",
  "crossfire-defense",
  "crossfire-follow-up",
  "debater-rebuttal",
  "judge",
];

describe("default templates: what changes per call comes last", () => {
  for (const name of reordered) {
    it(name, () => {
      const template = defaultAgentTemplates.find((t) => t.definition.name === name);
      expect(template, name).toBeDefined();
      const body = template!.body;
      const headings = [...body.matchAll(/^# (.+)$/gm)].map((m) => ({ title: m[1]!, at: m.index! }));
      const last = headings.at(-1)!;
      // The last heading is the request.
      expect(last.title).toMatch(/^Your (turn|task)\b/);
      // Instructions and the answer format come before anything the debate accumulated.
      const task = headings.find((h) => /^(Your task|How to)/.test(h.title));
      const format = headings.find((h) => h.title === "Answer format");
      const accumulated = [
        "{{context}}",
        "{{history}}",
        "{{artifact}}",
        "{{previous}}",
        "{{findings}}",
        "{{topic}}",
        "{{motion}}",
      ]
        .map((p) => body.indexOf(p))
        .filter((i) => i >= 0);
      for (const h of [task, format].filter((x) => x !== undefined))
        expect(h!.at).toBeLessThan(Math.min(...accumulated));
      // Per-call values appear only in the request (their first use is after its heading).
      for (const name of perCall) {
        const at = body.indexOf(`{{${name}}}`);
        if (at >= 0) expect(at, `{{${name}}} in ${template!.definition.name}`).toBeGreaterThan(last.at);
      }
      // The retry block is the very end.
      expect(body.trimEnd().endsWith("{{feedback}}")).toBe(true);
    });
  }
});
