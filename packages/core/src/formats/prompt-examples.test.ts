import { describe, expect, it } from "vitest";
import type { AnyFormat } from "./format.js";
import { formatList } from "./registry.js";

// Every prompt shows the seat a ```json example; a person or a model copying its shape must get an
// answer the format's own parser accepts, not one refused for the example's own mistakes.

/** The ```json example a prompt shows. */
function exampleOf(prompt: string): string | undefined {
  return /```json\n([\s\S]*?)\n```/.exec(prompt)?.[1];
}

/** A new debate of `format` as the folder reader would give it, at its first step. */
function firstState(format: AnyFormat) {
  const seats = Object.fromEntries(format.roles.map((r) => [r.role, "manual"]));
  const made = format.newDebate({ slug: "t", seats, now: "2026-01-01T00:00:00Z" });
  if (!made.ok) throw new Error(JSON.stringify(made.errors));
  const motion = "Adopt gRPC for the internal API";
  return {
    frontmatter: made.value.frontmatter,
    body: `# Motion\n\n${motion}\n`,
    motion: { text: motion },
    arguments: [],
    scores: {},
    records: [
      {
        file: "artifact/v1.md",
        frontmatter: { kind: "original", version: 1 },
        body: "# Proposal\n\nAdopt gRPC for the internal API.\n",
      },
    ],
  };
}

describe("every format's first prompts", () => {
  for (const format of formatList()) {
    it(`${format.name}: each seat asked first is shown an example answer the parser accepts`, () => {
      const state = firstState(format) as never;
      const next = format.next(state);
      expect(next.kind, JSON.stringify(next)).toBe("ask");
      if (next.kind !== "ask") return;
      for (const { role } of next.asks) {
        const example = exampleOf(format.prompt(state, role));
        expect(example, `${format.name} ${role}: no example`).toBeDefined();
        const parsed = format.parseAnswer(state, role, example!);
        expect(parsed.ok, `${format.name} ${role}: ${JSON.stringify(parsed)}`).toBe(true);
      }
    });
  }
});
