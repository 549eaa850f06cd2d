import { type AnyFormat, defineFormat, formalFormat, registerFormat } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { describe, expect, it } from "vitest";
import { buildReport, checkNarrative, createReport, layoutGraph, narrativePrompt } from "./index.js";
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
  // The body's facts are formal's to test (core: formats/formal/report.test.ts); here, how they render.
  it("renders its facts: format, progress, status, the chart's table, the graph and the chart", async () => {
    const { report, markdown, html } = createReport({ state: await fixtureState() });
    expect(report.format).toBe("formal");
    expect(report.progress).toBe("5 exchanges");
    expect(report.status).toBe("complete"); // not the phase the folder would resume in
    expect(report.body!.verdict.headline).toBe("the proposition wins: +2.05 to -2.05");
    expect(markdown).toContain("| 4 | 2.05 | -2.05 |");
    expect(markdown.endsWith("\n")).toBe(true);
    expect(html.match(/<circle class="point"/g)).toHaveLength(10);
    expect(html.match(/<g class="node"/g)).toHaveLength(14);
    expect(html.match(/<path class="edge"/g)).toHaveLength(38);
    // The chart names its x axis and labels each exchange under it.
    expect(html).toMatch(/<text [^>]*>exchange<\/text>/);
    expect(
      html.match(/<text x="[^"]+" y="292" text-anchor="middle" font-size="11" fill="#333">\d<\/text>/g),
    ).toHaveLength(5);
  });

  it("is self-contained: no script, no request, nothing loaded from elsewhere", async () => {
    const { html } = createReport({ state: await fixtureState() });
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|\ssrc=|\shref="(?!#)/i);
    // The arguments cite web pages as text; no attribute points anywhere.
    expect(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, "")).not.toMatch(/="[^"]*https?:/);
  });

  it("escapes what the debate says (a title is never markup)", async () => {
    const state = await fixtureState();
    state.arguments[0]!.frontmatter.title = '<script>alert("x")</script>';
    const { html } = createReport({ state });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
  });
});

describe("the debate as a document", () => {
  it("report.md carries every argument under its own anchor, each link lands on one, the summary on top", async () => {
    const { markdown, html } = createReport({ state: await fixtureState() });
    const anchors = [...markdown.matchAll(/^<a id="([^"]+)"><\/a>$/gm)].map((m) => m[1]);
    expect(anchors).toHaveLength(14);
    const targets = [...markdown.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => !anchors.includes(t))).toEqual([]);
    expect(markdown.indexOf("Result: the proposition wins")).toBeLessThan(markdown.indexOf("| Motion |"));
    expect(markdown).toContain("## The debate, in order");
    // The same anchors in the page, and a table of contents.
    for (const a of anchors) expect(html).toContain(`id="${a}"`);
    expect(html).toContain('<h2 id="toc">Contents</h2>');
  });
});

describe("the format's own report", () => {
  it("is the body: the report asks the debate's format for it", async () => {
    const state = await fixtureState();
    expect(buildReport({ state }).body).toEqual(formalFormat.report!(state));
  });

  /** A format registered from outside, with formal's rules, its own name and standing, and `report` or none. */
  function registered(name: string, report?: AnyFormat["report"]): void {
    const { report: _formal, ...rules }: AnyFormat = formalFormat;
    const format = defineFormat({
      ...rules,
      name,
      standing: (state) => ({ ...formalFormat.standing(state), phase: `${name} standing`, complete: false }),
      ...(report ? { report } : {}),
    });
    expect(registerFormat(format).ok).toBe(true);
  }
  const stateOf = async (format: string) => {
    const state = await fixtureState();
    return { ...state, frontmatter: { ...state.frontmatter, format: format as never } };
  };

  it("an outside format's own report is its body", async () => {
    registered("annotated", (state) => ({ ...formalFormat.report!(state), alerts: ["from its own report"] }));
    const report = buildReport({ state: await stateOf("annotated") });
    expect(report.format).toBe("annotated");
    expect(report.alerts).toEqual(["from its own report"]);
  });

  it("a format without one still gets the header, the seats and its standing", async () => {
    registered("plain");
    const { report, html, markdown } = createReport({ state: await stateOf("plain") });
    expect(report.body).toBeUndefined();
    expect(report.format).toBe("plain");
    expect(report.status).toBe("plain standing");
    expect(report.progress).toBe("5 exchanges");
    expect(markdown).toContain("| Status | plain standing |");
    expect(html).toContain('<th scope="row">judge</th>');
    expect(markdown).not.toContain("## Verdict");
  });
});

describe("a debate that has not started", () => {
  it("says so, and shows no verdict, score or chart; the panel's judge is named", () => {
    const state = {
      frontmatter: {
        debate_id: "fresh",
        format: "formal",
        exchanges: 3,
        current_exchange: 0,
        current_phase: "awaiting_arguments",
        seats: { proposition: { adapter: "claude" }, opposition: { adapter: "gemini" } },
        judges: { panel: [{ adapter: "codex" }] },
      },
      body: "# Motion\n\nA fresh debate.\n",
      motion: { text: "A fresh debate." },
      arguments: [],
      scores: {},
    } as unknown as Parameters<typeof buildReport>[0]["state"];
    const { report, markdown, html } = createReport({ state });
    expect(report.status).toBe("not started");
    expect(report.body).toBeUndefined();
    expect(report.alerts[0]).toMatch(/^not started: nothing is committed yet/);
    expect(report.seats.find((s) => s.role === "judge")?.adapter).toBe("codex");
    for (const text of [markdown, html]) {
      expect(text).not.toMatch(/\btied\b|\bwins\b|Cumulative score/);
      expect(text).not.toContain("(not recorded)");
    }
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

  it("counts an answer the rules refused as rejected, not failed, and says so", async () => {
    const state = await fixtureState();
    const entry = (validation?: object) =>
      ({ role: "judge", result: { status: "ok" }, ...(validation ? { validation } : {}) }) as never;
    const report = buildReport({
      state,
      journal: [entry({ ok: false, errors: ["JUDGMENT_NOT_ZERO_SUM at scores: ..."] }), entry()],
    });
    expect(report.seats.find((s) => s.role === "judge")).toMatchObject({
      calls: 2,
      failedCalls: 0,
      rejectedCalls: 1,
    });
    expect(report.alerts).toContain(
      "the judge seat's answer was rejected 1 time(s) and asked again (`debate log` shows each rejection and why)",
    );
  });
});

describe("a long debate", () => {
  // Its speed is `pnpm bench report`'s to measure (a timed unit test fails on a loaded machine).
  // 160 exchanges = 320 arguments: past 300, the ranker the 500-exchange bench uses.
  it("lays out 320 arguments with every node placed and reports 160 exchanges", () => {
    const state = longFormalDebate(160);
    const { report, html } = createReport({ state });
    expect(report.body!.chart.series[0]!.points).toHaveLength(160);
    expect(report.body!.graph.edges).toHaveLength(318);
    const layout = layoutGraph(report.body!.graph);
    expect(layout.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
    expect(html.match(/<g class="node"/g)).toHaveLength(320);
  });
});

describe("the narrative of a reporter seat", () => {
  const words = (n: number, id: string) =>
    Array.from({ length: n }, (_, i) => (i % 50 === 0 ? `[${id}]` : "word")).join(" ");

  it("is accepted at 400-600 words citing known ids, bracketed or bare", async () => {
    const { report } = createReport({ state: await fixtureState() });
    const checked = checkNarrative(`${words(450, "prop_000b")}\n\nAnd opp_000c too.`, report);
    expect(checked.ok && checked.value.cited).toEqual(["opp_000c", "prop_000b"]);
  });

  it("refuses an unknown id, bracketed or bare, a link or tag, and a wrong length, naming each", async () => {
    const { report } = createReport({ state: await fixtureState() });
    const codes = (text: string) => {
      const r = checkNarrative(text, report);
      return r.ok ? [] : r.errors.map((e) => e.code);
    };
    expect(codes(words(450, "prop_009z"))).toEqual(["NARRATIVE_UNKNOWN_ID"]);
    expect(codes(`${words(450, "prop_000b")} and opp_042`)).toEqual(["NARRATIVE_UNKNOWN_ID"]);
    expect(codes(`${words(450, "prop_000b")} see https://example.com`)).toEqual(["NARRATIVE_MARKUP"]);
    expect(codes(`${words(450, "prop_000b")} <img src=x>`)).toEqual(["NARRATIVE_MARKUP"]);
    expect(codes(words(399, "prop_000b"))).toEqual(["NARRATIVE_LENGTH"]);
    expect(codes(words(601, "prop_000b"))).toEqual(["NARRATIVE_LENGTH"]);
    const unknown = checkNarrative(words(450, "C9.9"), report);
    expect(!unknown.ok && unknown.errors[0]!.message).toContain("cites [C9.9], which is not in this debate");
  });

  it("is asked with the report's facts and ids, and told why an answer was refused", async () => {
    const { report } = createReport({ state: await fixtureState() });
    const prompt = narrativePrompt(report, ["NARRATIVE_LENGTH narrative: expected 400-600 words, found 12"]);
    expect(prompt).toContain("Verdict: the proposition wins: +2.05 to -2.05");
    expect(prompt).toContain("- [prop_000b]");
    expect(prompt).toContain("Your previous answer was refused:\n- NARRATIVE_LENGTH");
    expect(narrativePrompt(report)).toBe(narrativePrompt(report)); // deterministic: same state, same prompt
  });

  it("is shown last when written, and its failure never hides the computed report", async () => {
    const state = await fixtureState();
    const good = createReport({
      state,
      narrative: { ok: true, seat: "http / m", text: "First <b>para</b>.\n\nSecond.", cited: [] },
    });
    expect(good.html).toContain("<p>First &#60;b&#62;para&#60;/b&#62;.</p><p>Second.</p>");
    expect(good.markdown.trimEnd().endsWith("Second.")).toBe(true);
    const failed = createReport({ state, narrative: { ok: false, seat: "http / m", error: "SEAT_TIMEOUT" } });
    expect(failed.markdown).toContain("## Verdict");
    expect(failed.markdown).toContain("The reporter seat (http / m) gave no usable analysis: SEAT_TIMEOUT.");
  });
});

describe("the degraded banner, usage and reliability sections", () => {
  it("puts a degraded result's causes above the title, the real error verbatim", async () => {
    const state = await fixtureState();
    (state.frontmatter as unknown as Record<string, unknown>).degraded = [
      {
        cause: "seat_failed",
        message: "the judge failed",
        code: "SEAT_TIMEOUT",
        error: "no answer after 600 s",
      },
    ];
    const { report, markdown, html } = createReport({ state });
    expect(report.degraded?.causes).toEqual(["the judge failed [SEAT_TIMEOUT]: no answer after 600 s"]);
    expect(markdown.startsWith("> [!CAUTION]\n> **Degraded result**")).toBe(true);
    expect(html.indexOf('id="degraded"')).toBeLessThan(html.indexOf("<h1>"));
  });

  it("says where usage comes from and that one judge gives no reliability figures", async () => {
    const { markdown } = createReport({ state: await fixtureState() });
    expect(markdown).toContain("## Usage\n\nTokens, cost and time per seat, from nothing recorded");
    expect(markdown).toContain("## Judges' reliability\n\nOne judge seat gave every judgment");
  });

  it("reads the usage ledger's shape and never counts an unknown cost as 0", async () => {
    const entry = (usage: object) =>
      ({ role: "judge", result: { status: "ok", durationMs: 1500 }, usage }) as never;
    const report = buildReport({
      state: await fixtureState(),
      journal: [
        entry({
          input_tokens: 2000,
          cached_input_tokens: 1500,
          output_tokens: 300,
          cost_usd: 0.02,
          tokens: "reported",
          cost: "reported",
        }),
        entry({ input_tokens: 1000, output_tokens: 100, tokens: "estimated", cost: "unknown" }),
      ],
    });
    expect(report.seats.find((s) => s.role === "judge")).toMatchObject({
      inputTokens: 3000,
      cachedInputTokens: 1500,
      outputTokens: 400,
      costUsd: 0.02,
      unknownCostCalls: 1,
      durationMs: 3000,
    });
    const { markdown } = createReport({
      state: await fixtureState(),
      journal: [entry({ cost_usd: 0.5, cost: "priced" }), entry({ cost: "unknown" })],
    });
    expect(markdown).toContain("| Cost | \\$0.5000+ (cost unknown for 1 call(s)) |");
  });

  it("shows a judge panel's figures from debate.md's reliability", async () => {
    const state = await fixtureState();
    // The shape debate.md holds (schema Reliability): the figures under `figures`.
    (state.frontmatter as unknown as Record<string, unknown>).reliability = {
      judges: 2,
      judged_steps: 3,
      degraded_steps: 1,
      figures: {
        agreement: 0.71,
        agreement_metric: "krippendorff_alpha_interval",
        flip_rate: 0.33,
        flips: 1,
        swapped_judges: 3,
        deviation: { judge: 0.05, judge_2: 0.12 },
      },
    };
    const { markdown } = createReport({ state });
    expect(markdown).toContain("A judge panel judged this debate: agreement 0.71 (tentative).");
    expect(markdown).toContain("- **Winner flips when the sides' order is swapped**: 33%");
    expect(markdown).toContain("- **Judges whose verdict flipped with the order**: 1 of 3");
    expect(markdown).toContain("- **Mean deviation of judge_2 from the panel**: 0.12");
    expect(markdown).toContain("- **Steps judged by fewer judges than configured**: 1");
  });

  it("shows a voting panel's figures (crossfire, review): share of agreeing judge pairs", async () => {
    const state = await fixtureState();
    (state.frontmatter as unknown as Record<string, unknown>).reliability = {
      judges: 3,
      judged_steps: 1,
      degraded_steps: 0,
      figures: {
        agreement: 0.333,
        agreement_metric: "percent_agreement",
        flip_rate: 0.333,
        deviation: { judge: 0, judge_3: 0.5 },
      },
    };
    const { markdown } = createReport({ state });
    expect(markdown).toContain(
      "A judge panel judged this debate: 33% of judge pairs gave the same verdict (split: read the verdict with care).",
    );
    expect(markdown).toContain(
      "- **Agreement between judges (share of judge pairs giving the same verdict)**: 33%",
    );
    expect(markdown).toContain("- **Share of judge_3's verdicts against the panel**: 50%");
  });
});
