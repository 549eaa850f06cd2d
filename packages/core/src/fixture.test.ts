import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ArgumentDraft } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { renderArgumentGraph } from "./formats/formal/graph.js";
import { nextAction } from "./formats/formal/machine.js";
import { buildPrompt } from "./formats/formal/prompt.js";
import { renderArgumentBody } from "./formats/formal/render.js";
import { cumulativeScores } from "./formats/formal/scoring.js";
import { FIXTURE_DIR, fixtureState } from "./test-helpers/states.js";

// Reads a dialectic Toulmin body back into a draft, so rendering can be compared with the file.
function draftFromBody(body: string): ArgumentDraft {
  const sections = new Map<string, string>();
  for (const part of body.split(/^## /m).slice(1)) {
    const nl = part.indexOf("\n");
    sections.set(part.slice(0, nl).trim(), part.slice(nl + 1).trim());
  }
  const subsections = (text: string) =>
    text
      .split(/^### /m)
      .slice(1)
      .map((s) => {
        const nl = s.indexOf("\n");
        return { head: s.slice(0, nl), rest: s.slice(nl + 1).trim() };
      });
  const grounds = subsections(sections.get("Grounds")!).map(({ head, rest }) => {
    const [quoted, relevance] = rest.split("\n\n**Relevance:** ");
    return {
      source: head.replace(/^\d+\. /, ""),
      content: quoted!
        .split("\n")
        .map((l) => l.replace(/^> ?/, ""))
        .join("\n"),
      relevance: relevance!,
    };
  });
  const links = (name: string, verb: string) =>
    subsections(sections.get(name) ?? "").map(({ head, rest }) => {
      const [typeLine, ...content] = rest.split("\n\n");
      return {
        target_id: head.replace(`${verb} `, ""),
        type: typeLine!.replace("**Type:** ", ""),
        content: content.join("\n\n"),
      };
    });
  const result: ArgumentDraft = {
    title: "",
    claim: sections.get("Claim")!,
    grounds,
    warrant: sections.get("Warrant")!,
  };
  if (sections.has("Backing")) result.backing = sections.get("Backing")!;
  if (sections.has("Qualifier")) result.qualifier = sections.get("Qualifier")!;
  const attacks = links("Attacks", "Attacking");
  const defends = links("Defends", "Defending");
  if (attacks.length)
    result.attacks = attacks.map((a) => ({
      target_id: a.target_id,
      attack_type: a.type as never,
      content: a.content,
    }));
  if (defends.length)
    result.defends = defends.map((d) => ({
      target_id: d.target_id,
      defense_type: d.type as never,
      content: d.content,
    }));
  return result;
}

describe("the dialectic fixture", () => {
  const state = fixtureState();

  it("derives the cumulative scores of its debate.md from scores.json", () => {
    const derived = cumulativeScores(state.scores);
    expect(derived).toEqual({
      proposition: { total: 2.05, count: 7 },
      opposition: { total: -2.05, count: 7 },
    });
    expect(derived).toEqual(state.frontmatter.cumulative_scores);
  });

  it("regenerates its argument graph byte for byte (same nodes, edges and styles)", () => {
    const original = readFileSync(join(FIXTURE_DIR, "argument-graph.mmd"), "utf8");
    const regenerated = renderArgumentGraph(state);
    const nodes = (t: string) => t.split("\n").filter((l) => /^ {4}\w+\["/.test(l));
    const edges = (t: string) => t.split("\n").filter((l) => l.includes("-->"));
    expect(nodes(regenerated)).toEqual(nodes(original));
    expect(edges(regenerated)).toHaveLength(38);
    expect(edges(regenerated)).toEqual(edges(original));
    expect(regenerated).toBe(original);
  });

  it("renders every argument body in exactly the fixture's layout", () => {
    for (const arg of state.arguments) {
      expect(renderArgumentBody(draftFromBody(arg.body)), arg.frontmatter.id).toBe(`${arg.body.trimEnd()}\n`);
    }
  });

  it("is complete as it stands (no `exchanges`), and continues at exchange 5 once exchanges and seats are added", () => {
    expect(nextAction(state)).toEqual({ kind: "done", reason: "no_exchanges" });
    const withExchanges = { ...state, frontmatter: { ...state.frontmatter, exchanges: 7 } };
    const blocked = nextAction(withExchanges);
    expect(blocked).toMatchObject({ kind: "blocked", reason: "no_seats" });
    const seats = {
      proposition: { adapter: "replay" as const },
      opposition: { adapter: "replay" as const },
      judge: { adapter: "replay" as const },
    };
    const context = { window: 2 };
    const runnable = { ...state, frontmatter: { ...state.frontmatter, exchanges: 7, seats, context } };
    expect(nextAction(runnable)).toEqual({ kind: "arguments", exchange: 5, task: "rebuttal" });
    const prompt = buildPrompt(runnable, "opposition");
    // Every argument compact in the history, the other side's of the latest two exchanges (window 2)
    // in full after it; the judgment log gives every id its current score (a judged score, or the
    // new score of its last rescore).
    for (const arg of state.arguments) {
      const { id, exchange } = arg.frontmatter;
      expect(prompt).toContain(`\n- ${id}: ${arg.frontmatter.title}. `);
      expect(prompt.includes(`\n## ${id}: `)).toBe(exchange >= 3 && arg.frontmatter.side === "prop");
      const score = state.scores[id]!.current_score;
      expect(prompt).toMatch(new RegExp(`\\b${id} (-?[\\d.]+ -> )?${score}\\b`));
    }
    expect(prompt).toContain("Attacking opp_003"); // prop_004 in full: the opponent's latest argument
    expect(prompt).toContain(" -0.8");
  });
});
