import { describe, expect, it } from "vitest";
import { draft, freshState } from "../../test-helpers/states.js";
import { escapeMermaidLabel, renderArgumentGraph } from "./graph.js";
import { renderArgument } from "./render.js";

describe("renderArgumentGraph", () => {
  it("escapes labels so no title can break out of a node", () => {
    expect(escapeMermaidLabel('A "quoted" [x] <b>\nnew & C# end')).toBe(
      "A #34;quoted#34; #91;x#93; #60;b#62; new #38; C#35; end",
    );
    expect(escapeMermaidLabel("Ünïcödé ✓ 日本")).toBe("Ünïcödé ✓ 日本");
  });

  it("shows unscored arguments as such and draws edges only to arguments that exist", () => {
    const state = freshState();
    const a = renderArgument(draft('Title with "quotes"\nand a newline'), {
      id: "prop_000a",
      side: "prop",
      exchange: 0,
    });
    const b = renderArgument(
      draft("Rebuttal", {
        attacks: [
          { target_id: "prop_000a", attack_type: "backing_attack", content: "x" },
          { target_id: "prop_000b", attack_type: "claim_attack", content: "gone" },
        ],
      }),
      { id: "opp_001", side: "opp", exchange: 1 },
    );
    state.arguments = [a, b];
    state.scores = {
      prop_000a: {
        current_score: 0.25,
        history: [{ score: 0.25, reasoning: "r", scored_at: "2026-01-01T00:00:00Z" }],
      },
    };
    const graph = renderArgumentGraph(state);
    expect(graph).toContain(
      '    prop_000a["prop_000a<br/>Title with #34;quotes#34; and a newline<br/>⭐ 0.25"]',
    );
    expect(graph).toContain('    opp_001["opp_001<br/>Rebuttal<br/>⏳ unscored"]');
    expect(graph).toContain(
      "    style opp_001 fill:#B71C1C,stroke:#F44336,stroke-width:2px,color:#FFFFFF,stroke-dasharray:5 5",
    );
    expect(graph.match(/-->/g)).toHaveLength(1);
    expect(graph).toContain("    opp_001 -->|⚔️ backing| prop_000a");
    expect(graph).toContain("    linkStyle 0 stroke:#ff9800,stroke-width:2px\n");
    expect(graph).not.toContain("prop_000b");
  });

  it("renders an empty debate as a valid graph header", () => {
    expect(renderArgumentGraph(freshState())).toBe(
      "---\nconfig:\n  layout: elk\n  elk:\n    nodePlacementStrategy: NETWORK_SIMPLEX\n---\ngraph TD\n\n",
    );
  });
});
