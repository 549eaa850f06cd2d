import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validateAgentDefinition } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { defaultAgentTemplates } from "../generated/agents.js";

describe("the shipped agent templates", () => {
  it("are valid AgentDefinitions, one per task", () => {
    expect(defaultAgentTemplates.map((t) => `${t.definition.role}/${t.definition.task}`).sort()).toEqual([
      "author/accepted",
      "author/compromise",
      "author/rebuttal",
      "challenger/challenge",
      "challenger/follow-up",
      "critic/critique",
      "debater/opening",
      "debater/rebuttal",
      "judge/classify",
      "judge/judgment",
      "judge/verdict",
      "proposer/defense",
      "proposer/opening",
      "summarizer/summary",
    ]);
    for (const t of defaultAgentTemplates) expect(validateAgentDefinition(t.definition).ok).toBe(true);
  });

  it("are in sync with agents/*.md (run `node packages/core/scripts/codegen-agents.mjs` after editing them)", () => {
    const dir = join(import.meta.dirname, "../../../../agents");
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort();
    expect(files.map((f) => f.slice(0, -3))).toEqual(defaultAgentTemplates.map((t) => t.definition.name));
    for (const file of files) {
      const [, yaml, body] = /^---\n([\s\S]*?)\n---\n\n*([\s\S]*)$/.exec(
        readFileSync(join(dir, file), "utf8"),
      )!;
      const template = defaultAgentTemplates.find((t) => `${t.definition.name}.md` === file)!;
      expect(template.definition).toEqual(parse(yaml!));
      expect(template.body).toBe(body);
    }
  });
});
