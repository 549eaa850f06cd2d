import { describe, expect, it } from "vitest";
import { DebatekitError } from "../../errors.js";
import { fillTemplate } from "../../prompt/template.js";
import { draft, freshState } from "../../test-helpers/states.js";
import type { AgentTemplate, DebateState } from "../../types.js";
import { applyArguments, applyJudgment } from "./machine.js";
import { buildPrompt } from "./prompt.js";
import { renderArgument } from "./render.js";

const NOW = "2026-11-21T12:00:00Z";

function must<T>(r: { ok: true; value: T } | { ok: false; errors: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

const ids = ["a", "b", "c"];
const rec = (side: "prop" | "opp", exchange: number, i?: number) => {
  const id = `${side}_${String(exchange).padStart(3, "0")}${i === undefined ? "" : ids[i]}`;
  return renderArgument(draft(`${side} title ${exchange}${i ?? ""}`), { id, side, exchange });
};

/** Exchange 1 awaiting judgment, after a scored opening. */
/** The text of a prompt's `heading` section, up to the next top-level heading. */
function section(prompt: string, heading: string): string {
  const start = prompt.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = prompt.indexOf("\n# ", start + heading.length + 1);
  return prompt.slice(start, end < 0 ? undefined : end);
}

function judgeState(): DebateState {
  let s = freshState({ exchanges: 4 });
  s = must(
    applyArguments(s, 0, {
      proposition: [0, 1, 2].map((i) => rec("prop", 0, i)),
      opposition: [0, 1, 2].map((i) => rec("opp", 0, i)),
    }),
  );
  s = must(
    applyJudgment(
      s,
      0,
      {
        scores: s.arguments.map((a) => ({
          argument_id: a.frontmatter.id,
          score: a.frontmatter.side === "prop" ? 0.15 : -0.15,
          reasoning: "r",
        })),
      },
      NOW,
    ),
  );
  return must(applyArguments(s, 1, { proposition: [rec("prop", 1)], opposition: [rec("opp", 1)] }));
}

describe("buildPrompt", () => {
  it("builds the opening prompt with the motion, the side and no unfilled placeholder", () => {
    const state = freshState();
    state.motion = {
      text: "This house would test everything.",
      definitions: "- **test**: a check",
      scope: "Software only.",
    };
    const prompt = buildPrompt(state, "opposition");
    expect(prompt).toContain("You are the **opposition** in a formal debate");
    expect(prompt).toContain("This house would test everything.");
    expect(prompt).toContain("- **test**: a check");
    expect(prompt).toContain("Software only.");
    expect(prompt).toContain("exactly **3 independent arguments**");
    expect(prompt).toContain("(no extra guidance for this debate)");
    expect(prompt).not.toMatch(/\{\{|\}\}/);
    expect(prompt).not.toContain("previous answer was rejected");
  });

  it("gives the judge every earlier argument with its current score and the ids to score", () => {
    const prompt = buildPrompt(judgeState(), "judge");
    // The judgment log in the history gives every earlier argument its score.
    const history = section(prompt, "# The debate so far");
    expect(history).toContain(
      "Judged: opp_000a -0.15, opp_000b -0.15, opp_000c -0.15, prop_000a 0.15, prop_000b 0.15, prop_000c 0.15",
    );
    expect(prompt).toContain("`scores` must list\nexactly these ids, each once: opp_001, prop_001.");
    expect(prompt).toContain("## prop_001 (proposition, exchange 1): prop title 1\n\n#### Claim");
    expect(prompt).toContain("proposition 0.45 (3 scored), opposition -0.45 (3 scored)");
    expect(prompt).not.toMatch(/\{\{|\}\}/);
  });

  it("gives a rebutting side the opponent's latest arguments in full, skills and feedback", () => {
    let s = judgeState();
    s = must(
      applyJudgment(
        s,
        1,
        {
          scores: [
            { argument_id: "prop_001", score: 0.1, reasoning: "r" },
            { argument_id: "opp_001", score: -0.1, reasoning: "r" },
          ],
        },
        NOW,
      ),
    );
    const prompt = buildPrompt(s, "proposition", {
      skills: "## Skill: evidence\nCite primary sources.",
      feedback: ["ARGUMENT_COUNT at `arguments`: expected exactly 1"],
    });
    expect(prompt).toContain(
      "`target_id` must be the id of one of the opposition's earlier arguments (opp_...)",
    );
    expect(prompt).toContain("# The opposition's latest argument, in full\n\n## opp_001: opp title 1");
    expect(prompt).toContain("Cite primary sources.");
    expect(prompt.indexOf("Cite primary sources.")).toBeLessThan(prompt.indexOf("# The debate so far"));
    expect(prompt).toContain("# Your previous answer was rejected");
    expect(prompt).toContain("- ARGUMENT_COUNT at `arguments`: expected exactly 1");
    // The request comes last, with the changing standing.
    expect(prompt.indexOf("# The opposition's latest argument")).toBeLessThan(
      prompt.indexOf("# Your turn: exchange 2\n\nStanding: proposition "),
    );
  });

  it("never expands placeholders that appear in debate text", () => {
    const state = freshState();
    state.motion = { text: "This house would write {{scope}} literally." };
    expect(buildPrompt(state, "proposition")).toContain("This house would write {{scope}} literally.");
  });

  it("fails loudly when a template uses a placeholder the engine does not supply", () => {
    const broken: AgentTemplate = {
      definition: {
        name: "judge",
        role: "judge",
        task: "judgment",
        description: "d",
        placeholders: ["motion"],
      },
      body: "Motion: {{motion}}. Secret: {{verdict_hint}}.",
    };
    expect(() => buildPrompt(judgeState(), "judge", { templates: [broken] })).toThrowError(
      expect.objectContaining({
        code: "PROMPT_PLACEHOLDER_MISSING",
        file: "agents/judge.md",
        message: "agents/judge.md uses {{verdict_hint}}, which the engine does not supply for this step",
      }),
    );
    expect(() => fillTemplate(broken, { motion: "m" })).toThrow(DebatekitError);
  });

  it("refuses a prompt for a seat whose turn it is not", () => {
    expect(() => buildPrompt(freshState(), "judge")).toThrowError(
      expect.objectContaining({ code: "DEBATE_PHASE_MISMATCH", field: "current_phase" }),
    );
    expect(() => buildPrompt(freshState(), "proposition", { templates: [] })).toThrowError(
      expect.objectContaining({ code: "PROMPT_TEMPLATE_MISSING" }),
    );
  });
});
