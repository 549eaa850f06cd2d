import { formalFormat } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import { buildReport, createReport, type FormatReporter, layoutGraph, reporters } from "./index.js";
import { longFormalDebate } from "./testing.js";

// The dialectic fixture as dialectic wrote it (shared, read in place, never copied).
const FIXTURE = new URL("../../../../shared/fixtures/dialectic/halt-ai-development", import.meta.url)
  .pathname;

async function fixtureState() {
  const read = await readDebateFolder(FIXTURE);
  if (!read.ok) throw new Error(JSON.stringify(read.errors));
  return read.value.state;
}

describe("the report of the dialectic fixture", () => {
  it("states its facts: winner, totals, strongest, weakest, graph, chart", async () => {
    const { report, markdown, html } = createReport({ state: await fixtureState() });
    const b = report.body!;
    expect(report.format).toBe("formal");
    expect(report.progress).toBe("5 exchanges");
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
    expect(b.judges).toHaveLength(14);
    expect(markdown).toContain("| 4 | 2.05 | -2.05 |");
    expect(markdown.endsWith("\n")).toBe(true);
    expect(html.match(/<circle class="point"/g)).toHaveLength(10);
    expect(html.match(/<g class="node"/g)).toHaveLength(14);
    expect(html.match(/<path class="edge"/g)).toHaveLength(38);
  });

  it("is self-contained: no script, no request, nothing loaded from elsewhere", async () => {
    const { html } = createReport({ state: await fixtureState() });
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|\ssrc=|\shref=/i);
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "")).not.toMatch(/https?:/);
  });

  it("escapes what the debate says (a title is never markup)", async () => {
    const state = await fixtureState();
    state.arguments[0]!.frontmatter.title = '<script>alert("x")</script>';
    const { html } = createReport({ state });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
  });
});

describe("the format -> reporter table", () => {
  it("uses the reporter keyed by the debate's format object", async () => {
    const custom: FormatReporter = {
      build: (state) => ({
        ...reporters.get(formalFormat)!.build(state),
        alerts: ["from the custom reporter"],
      }),
    };
    const report = buildReport(
      { state: await fixtureState() },
      { reporters: new Map([[formalFormat, custom]]) },
    );
    expect(report.alerts).toEqual(["from the custom reporter"]);
  });

  it("still reports header and seats for a format without a reporter", async () => {
    const { report, html, markdown } = createReport(
      { state: await fixtureState() },
      { reporters: new Map() },
    );
    expect(report.body).toBeUndefined();
    expect(html).toContain('<th scope="row">judge</th>');
    expect(markdown).not.toContain("## Verdict");
  });
});

describe("the header", () => {
  it("sums tokens and cost per seat from the journal and puts failed calls at the top", async () => {
    const state = await fixtureState();
    const entry = (role: string, status: "ok" | "timeout", usage?: object) =>
      ({ role, model: "m1", result: { status, ...(usage ? { usage } : {}) } }) as never;
    const report = buildReport({
      state,
      journal: [
        entry("judge", "ok", { inputTokens: 1000, outputTokens: 200, costUsd: 0.01 }),
        entry("judge", "timeout"),
        entry("proposition", "ok", { inputTokens: 10, outputTokens: 5, costUsd: 0.002 }),
      ],
    });
    expect(report.seats.find((s) => s.role === "judge")).toMatchObject({
      calls: 2,
      failedCalls: 1,
      inputTokens: 1000,
      outputTokens: 200,
      model: "m1",
    });
    expect(report.totals).toEqual({ inputTokens: 1010, outputTokens: 205, costUsd: 0.012 });
    expect(report.alerts[0]).toBe("the judge seat failed 1 of 2 call(s)");
  });
});

describe("a long debate", () => {
  it("lays out 1000 arguments with every node placed and reports 500 exchanges well under a second", () => {
    const state = longFormalDebate(500);
    const started = performance.now();
    const { report, html } = createReport({ state });
    const ms = performance.now() - started;
    expect(report.body!.chart.series[0]!.points).toHaveLength(500);
    expect(report.body!.graph.edges).toHaveLength(998);
    const layout = layoutGraph(report.body!.graph);
    expect(layout.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
    expect(html.match(/<g class="node"/g)).toHaveLength(1000);
    expect(ms).toBeLessThan(5000);
  });
});
