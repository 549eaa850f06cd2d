import { describe, expect, it } from "vitest";
import { fixtureState } from "../../test-helpers/states.js";
import { formalReport, toulminPieces } from "./report.js";

describe("formal's report body", () => {
  it("of the dialectic fixture states its facts: winner, totals, strongest, weakest, graph, chart", () => {
    const b = formalReport(fixtureState());
    expect(b.verdict.winner).toBe("proposition");
    expect(b.verdict.totals).toEqual({ proposition: 2.05, opposition: -2.05 });
    expect(b.verdict.headline).toBe("the proposition wins: +2.05 to -2.05");
    expect(b.strongest[0]).toMatchObject({ id: "prop_000b", score: 0.4 });
    expect(b.weakest[0]).toMatchObject({ id: "opp_000c", score: -0.8 });
    expect(b.graph.nodes).toHaveLength(14);
    expect(b.graph.edges).toHaveLength(38);
    expect(b.chart.series.map((s) => s.points.map((p) => p.y))).toEqual([
      [0.75, 1.1, 1.45, 1.8, 2.05],
      [-0.75, -1.1, -1.45, -1.8, -2.05],
    ]);
    // dialectic scores zero-sum: every exchange moves the margin by twice its proposition gain
    expect(b.turningPoints[0]).toMatchObject({
      kind: "swing",
      label: "exchange 0: +1.50 toward the proposition",
    });
    // Every score sits next to its argument, once: none left for a separate list.
    expect(b.judges).toEqual([]);
    const entries = b.transcript!.flatMap((s) => s.entries);
    expect(entries).toHaveLength(14);
    expect(entries.flatMap((e) => e.judgements)).toHaveLength(14);
    expect(b.transcript!.map((s) => s.title)[0]).toBe("Opening statements (exchange 0)");
  });

  it("lists each exchange as given (the proposition first) and tells each ranked argument's own score story", () => {
    const b = formalReport(fixtureState());
    for (const section of b.transcript!) {
      const sides = section.entries.map((e) => e.side);
      expect(sides, section.title).toEqual(
        [...sides].sort((x, y) => (x === y ? 0 : x === "proposition" ? -1 : 1)),
      );
      expect(sides[0], section.title).toBe("proposition");
    }
    const whys = [...b.strongest, ...b.weakest].map((a) => a.why);
    expect(whys.every((w) => /^scored -?\d\.\d\d in exchange \d/.test(w))).toBe(true);
    expect(new Set(whys).size).toBeGreaterThan(1);
  });

  it("splits an argument's Toulmin body into labelled pieces, quotes apart", () => {
    const pieces = toulminPieces(
      "## Claim\n\nA.\n\n## Grounds\n\n### 1. Source\n\n> quoted\n> more\n\n**Relevance:** why\n\n## Warrant\n\nW.",
    );
    expect(pieces).toEqual([
      { label: "Claim", text: "A." },
      { label: "1. Source", text: "quoted\nmore", quote: true },
      { label: "Relevance", text: "why" },
      { label: "Warrant", text: "W." },
    ]);
  });

  it("says `leads` while the debate runs and `wins` once it is complete", () => {
    const state = fixtureState();
    const running = { ...state, frontmatter: { ...state.frontmatter, exchanges: 6 } };
    expect(formalReport(running).verdict.headline).toBe("the proposition leads: +2.05 to -2.05");
  });
});
