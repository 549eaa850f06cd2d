import { describe, expect, it } from "vitest";
import { COLLAPSE_AT, layoutGraph, renderGraphSvg, titleLines } from "./graph.js";
import type { GraphEdge, GraphNode } from "./model.js";

const node = (id: string, rank?: number): GraphNode => ({
  id,
  side: id.startsWith("p") ? "proposition" : "opposition",
  title: `title of ${id}`,
  ...(rank === undefined ? {} : { rank }),
});

describe("layoutGraph", () => {
  it("stands ranked nodes in one column per rank, earliest on the left, even one nothing answers", () => {
    const nodes = [node("p0", 0), node("o0", 0), node("p1", 1), node("o1", 1), node("p5", 5)];
    const edges: GraphEdge[] = [{ from: "p1", to: "o0", kind: "attack", label: "rebutting" }];
    const layout = layoutGraph({ nodes, edges });
    const x = new Map(layout.nodes.map((n) => [n.id, n.x]));
    expect(x.get("p0")).toBe(x.get("o0"));
    expect(x.get("p1")).toBe(x.get("o1"));
    expect(x.get("p0")!).toBeLessThan(x.get("p1")!);
    expect(x.get("p1")!).toBeLessThan(x.get("p5")!);
    // The arrow runs from the actor (right) to its target (left).
    const [e] = layout.edges;
    expect(e!.points[0]!.x).toBeGreaterThan(e!.points.at(-1)!.x);
  });

  it("draws an edge that points forward in time or within a column straight, without failing", () => {
    const nodes = [node("p0", 0), node("o0", 0), node("p1", 1)];
    const edges: GraphEdge[] = [
      { from: "p0", to: "o0", kind: "attack", label: "same exchange" },
      { from: "p0", to: "p1", kind: "defense", label: "a later one" },
      { from: "p0", to: "gone", kind: "attack", label: "not in the debate" },
    ];
    const layout = layoutGraph({ nodes, edges });
    expect(layout.edges.map((e) => e.points.length)).toEqual([2, 2, 0]);
    expect(layout.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
  });

  it(`past ${COLLAPSE_AT} ranked nodes, one box per rank with its counts and the links between ranks counted`, () => {
    const nodes = Array.from({ length: COLLAPSE_AT + 2 }, (_, i) =>
      node(`${i % 2 ? "o" : "p"}${i}`, Math.floor(i / 2)),
    );
    const edges: GraphEdge[] = nodes
      .slice(2)
      .map((n, i) => ({ from: n.id, to: nodes[i]!.id, kind: "attack" as const, label: "x" }));
    const layout = layoutGraph({ nodes, edges }, { unit: "round" });
    expect(layout.collapsed).toEqual({ unit: "round", nodes: nodes.length, edges: edges.length });
    expect(layout.nodes).toHaveLength(nodes.length / 2);
    expect(layout.nodes[3]).toMatchObject({
      id: "round 3",
      counts: { proposition: 1, opposition: 1 },
      first: "p6",
    });
    expect(layout.edges).toHaveLength(nodes.length / 2 - 1);
    expect(layout.edges[0]).toMatchObject({ from: "round 1", to: "round 0", label: "2 links" });
  });
});

describe("renderGraphSvg", () => {
  it("escapes every title and links only the nodes it is given a target for", () => {
    const hostile = '<script>alert(1)</script> "quoted" & </text>';
    const layout = layoutGraph({ nodes: [{ ...node("p0", 0), title: hostile, detail: hostile }], edges: [] });
    const svg = renderGraphSvg(layout, hostile, { href: (id) => (id === "p0" ? "#entry-p0" : undefined) });
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain('"quoted"');
    expect(svg).toContain('<a href="#entry-p0">');
    expect(renderGraphSvg(layout, "d")).not.toContain("<a ");
  });
});

describe("titleLines", () => {
  it("keeps a short title whole, breaks at spaces, and cuts the rest with an ellipsis", () => {
    expect(titleLines("Short title")).toEqual(["Short title"]);
    expect(titleLines("The Pause-Safety Paradox Is a False Dilemma")).toEqual([
      "The Pause-Safety",
      "Paradox Is a False…",
    ]);
    expect(titleLines("Supercalifragilisticexpialidocious words", 10)).toEqual(["Supercalif", "ragilisti…"]);
    expect(titleLines("  ")).toEqual([]);
  });
});
