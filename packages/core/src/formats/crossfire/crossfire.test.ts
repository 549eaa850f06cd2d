import { describe, expect, it } from "vitest";
import {
  challengerTurn,
  crossfireState,
  ev,
  fm,
  proposerTurn,
  step,
  summaryAnswer,
  verdictAnswer,
} from "../../test-helpers/crossfire.js";
import { formatOf, journalStepKey } from "../registry.js";
import { crossfireFormat } from "./format.js";
import type { CrossfireState } from "./state.js";
import { isCommitted } from "./state.js";

const codes = (state: CrossfireState, role: string, answer: unknown) => {
  const parsed = crossfireFormat.parseAnswer(state, role, JSON.stringify(answer));
  return parsed.ok ? [] : parsed.errors.map((e) => e.code);
};

/** Round 1 done: proposer opening and challenger challenge committed. */
const afterRound1 = (rounds = 3) => {
  const s = step(crossfireState({ rounds }), "proposer", proposerTurn());
  return step(
    s,
    "challenger",
    challengerTurn(1, { concessions: [{ text: "Protobuf payloads are smaller.", target: "P1.1" }] }),
  );
};

describe("crossfire: the state machine", () => {
  it("is registered and names its journal steps", () => {
    expect(formatOf({ format: "crossfire" })).toEqual({ ok: true, value: crossfireFormat });
    expect(journalStepKey("awaiting_challenger")).toBe("2-challenger");
    expect(journalStepKey("awaiting_summary")).toBe("0-summary");
  });

  it("asks the proposer, then the challenger, one after the other, then the judge", () => {
    let s = crossfireState();
    expect(crossfireFormat.next(s)).toMatchObject({
      kind: "ask",
      mode: "sequential",
      asks: [{ role: "proposer", task: "opening" }],
      opens: true,
      completed: 0,
    });
    s = step(s, "proposer", proposerTurn());
    expect(crossfireFormat.next(s)).toMatchObject({
      asks: [{ role: "challenger", task: "challenge" }],
      opens: false,
    });
    s = step(s, "challenger", challengerTurn(1));
    expect(crossfireFormat.next(s)).toMatchObject({
      asks: [{ role: "proposer", task: "defense" }],
      exchange: 2,
      completed: 1,
    });
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Proxy cost is small.", targets: ["C1.1"], evidence: [ev("bench/proxy2.md")] }],
      }),
    );
    s = step(s, "challenger", challengerTurn(2));
    expect(crossfireFormat.next(s)).toMatchObject({
      asks: [{ role: "judge", task: "verdict" }],
      completed: 2,
    });
    s = step(s, "judge", verdictAnswer());
    expect(crossfireFormat.next(s)).toEqual({
      kind: "done",
      reason: "complete",
      message: "verdict: the challenger wins after 2 round(s)",
    });
    expect(s.records!.map((r) => r.file)).toEqual([
      "turns/r01-challenger.md",
      "turns/r01-proposer.md",
      "turns/r02-challenger.md",
      "turns/r02-proposer.md",
      "verdict.md",
    ]);
    expect(s.records![1]!.frontmatter).toMatchObject({
      round: 1,
      role: "proposer",
      kind: "opening",
      points: [{ id: "P1.1" }, { id: "P1.2" }],
    });
    expect(s.records![1]!.body).toContain(
      "- **P1.2** _developer_experience_: Typed clients catch drift.\n  - _unsupported_",
    );
    expect(crossfireFormat.standing(s)).toMatchObject({
      phase: "complete",
      progress: { done: 2, total: 2 },
      sides: { opposition: "winner" },
      complete: true,
    });
  });

  it("refuses to apply a step twice or out of turn", () => {
    const s = step(crossfireState(), "proposer", proposerTurn());
    expect(codes(s, "proposer", proposerTurn())).toEqual(["DEBATE_PHASE_MISMATCH"]);
    const parsed = crossfireFormat.parseAnswer(crossfireState(), "proposer", JSON.stringify(proposerTurn()));
    expect(crossfireFormat.apply(s, { proposer: parsed.ok && parsed.value }, "2026-01-01T00:00:00Z").ok).toBe(
      false,
    );
  });

  it("summarizes from round 3 with the summarizer (default: the judge's seat); the summary replaces rounds past context.window", () => {
    let s = afterRound1(3);
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Proxy cost is small.", targets: ["C1.1"], evidence: [ev("bench/p2.md")] }],
      }),
    );
    s = step(s, "challenger", challengerTurn(2));
    expect(crossfireFormat.next(s)).toMatchObject({
      asks: [{ role: "summarizer", task: "summary" }],
      exchange: 3,
      opens: true,
      completed: 2,
    });
    expect(crossfireFormat.seat(s, "summarizer")).toEqual({ adapter: "replay" });
    const prompt = crossfireFormat.prompt(s, "summarizer");
    expect(prompt).toContain('C1.k1: "Protobuf payloads are smaller."');
    s = step(s, "summarizer", summaryAnswer(["Protobuf payloads are smaller."]));
    expect(s.records!.some((r) => r.file === "turns/r03-summary.md")).toBe(true);
    // Default window (4 rounds): everything in full, so the context only grows.
    const full = crossfireFormat.prompt(s, "proposer");
    expect(full).not.toContain("Summary of rounds");
    expect(full).toContain("Round 1: proposer");
    expect(full).toContain("Round 2: proposer");
    // context.window 1: the summary of rounds 1..N-2 (docs/architecture.md#formats), then the rest in full.
    const narrow = { ...s, frontmatter: { ...s.frontmatter, context: { window: 1 } } };
    const debater = crossfireFormat.prompt(narrow, "proposer");
    expect(debater).toContain("Summary of rounds 1-1");
    expect(debater).not.toContain("Round 1: proposer");
    expect(debater).toContain("Round 2: proposer");
  });
});

describe("crossfire: the rules of a turn (each with a failing answer)", () => {
  const opened = () => step(crossfireState(), "proposer", proposerTurn());

  it("CROSSFIRE_POINT_UNSUPPORTED: a point without evidence that does not say so", () => {
    expect(codes(crossfireState(), "proposer", proposerTurn({ points: [{ claim: "Faster." }] }))).toEqual([
      "CROSSFIRE_POINT_UNSUPPORTED",
    ]);
  });

  it("CROSSFIRE_NO_FLAW: a challenger that names no flaw and certifies nothing", () => {
    const turn = challengerTurn(1);
    turn.points[0] = { ...turn.points[0]!, stance: "claim" };
    expect(codes(opened(), "challenger", turn)).toEqual(["CROSSFIRE_NO_FLAW"]);
  });

  it("CROSSFIRE_RESOLVED_UNSUPPORTED: certifying a concern resolved without evidence", () => {
    const turn = challengerTurn(1);
    turn.points.push({
      claim: "Size concern settled.",
      stance: "resolved",
      targets: ["P1.1"],
      unsupported: true,
    });
    expect(codes(opened(), "challenger", turn)).toEqual(["CROSSFIRE_RESOLVED_UNSUPPORTED"]);
  });

  it("CROSSFIRE_CATEGORY_MISSING: round 1's challenge leaves out security", () => {
    const turn = challengerTurn(1);
    turn.points = turn.points.filter((p) => p.category !== "security");
    expect(codes(opened(), "challenger", turn)).toEqual(["CROSSFIRE_CATEGORY_MISSING"]);
  });

  it("CROSSFIRE_REFERENCE_UNKNOWN: a target that does not exist (or a path trick)", () => {
    const turn = challengerTurn(1);
    turn.points[0]!.targets = ["P1.9"];
    expect(codes(opened(), "challenger", turn)).toEqual(["CROSSFIRE_REFERENCE_UNKNOWN"]);
    turn.points[0]!.targets = ["../P1.1"];
    expect(codes(opened(), "challenger", turn)).toEqual(["CROSSFIRE_REFERENCE_UNKNOWN"]);
  });

  it("CROSSFIRE_TARGET_MISSING and CROSSFIRE_TARGET_OWN_SIDE: a flaw about nothing, or about one's own point", () => {
    const none = challengerTurn(1);
    none.points[0]!.targets = [];
    expect(codes(opened(), "challenger", none)).toContain("CROSSFIRE_TARGET_MISSING");
    let s = step(opened(), "challenger", challengerTurn(1));
    const own = proposerTurn({
      points: [{ claim: "x", stance: "flaw", targets: ["P1.1"], evidence: [ev("a")] }],
    });
    expect(codes(s, "proposer", own)).toEqual(["CROSSFIRE_TARGET_OWN_SIDE"]);
    s = crossfireState();
  });

  it("CROSSFIRE_CONCESSION_CONTRADICTED: attacking a conceded point without withdrawing the concession", () => {
    let s = afterRound1(3);
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Still smaller.", targets: ["C1.1"], evidence: [ev("bench/p2.md")] }],
      }),
    );
    const turn = challengerTurn(2);
    turn.points[0]!.targets = ["P1.1"];
    expect(codes(s, "challenger", turn)).toEqual(["CROSSFIRE_CONCESSION_CONTRADICTED"]);
  });

  it("CROSSFIRE_WITHDRAWAL_NO_NEW_EVIDENCE: taking a concession back with evidence already cited; new evidence is a walk-back", () => {
    let s = afterRound1(3);
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Still smaller.", targets: ["C1.1"], evidence: [ev("bench/p2.md")] }],
      }),
    );
    const turn = challengerTurn(2, {
      withdrawals: [
        { concession: "C1.k1", reason: "The benchmark was gzip-less.", evidence: [ev("bench/payload.md")] },
      ],
    });
    turn.points[0]!.targets = ["P1.1"];
    expect(codes(s, "challenger", turn)).toEqual(["CROSSFIRE_WITHDRAWAL_NO_NEW_EVIDENCE"]);
    turn.withdrawals![0]!.evidence = [ev("bench/gzip.md")];
    s = step(s, "challenger", turn);
    expect(s.records!.find((r) => r.file === "turns/r02-challenger.md")!.body).toContain(
      "walk-back of C1.k1",
    );
  });

  it("a withdrawal of someone else's or an unknown concession is CROSSFIRE_REFERENCE_UNKNOWN", () => {
    let s = afterRound1(3);
    const turn = proposerTurn({
      withdrawals: [{ concession: "C1.k1", reason: "r", evidence: [ev("new.md")] }],
    });
    expect(codes(s, "proposer", turn)).toEqual(["CROSSFIRE_REFERENCE_UNKNOWN"]);
    s = crossfireState();
  });

  it("ids in the answer are ignored: the engine numbers points and concessions", () => {
    const s = step(
      crossfireState(),
      "proposer",
      proposerTurn({ points: [{ id: "C5.5", claim: "x", unsupported: true }] }),
    );
    expect(s.records![0]!.frontmatter).toMatchObject({ points: [{ id: "P1.1" }] });
  });
});

describe("crossfire: the summary's rules (each with a failing answer)", () => {
  const due = () => {
    let s = afterRound1(3);
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Proxy cost is small.", targets: ["C1.1"], evidence: [ev("bench/p2.md")] }],
      }),
    );
    return step(s, "challenger", challengerTurn(2));
  };

  it("SUMMARY_CONCESSION_MISSING: a concession reworded", () => {
    expect(codes(due(), "summarizer", summaryAnswer(["Protobuf payloads are a bit smaller."]))).toEqual([
      "SUMMARY_CONCESSION_MISSING",
    ]);
  });

  it("SUMMARY_POSITION_MISSING and SUMMARY_DISAGREEMENTS_MISSING", () => {
    const answer = summaryAnswer(["Protobuf payloads are smaller."], { open_disagreements: [] });
    answer.positions.challenger = "  ";
    expect(codes(due(), "summarizer", answer)).toEqual([
      "SUMMARY_POSITION_MISSING",
      "SUMMARY_DISAGREEMENTS_MISSING",
    ]);
  });

  it("SUMMARY_TOO_SHORT and SUMMARY_TOO_LONG: outside 500-800 tokens", () => {
    expect(
      codes(due(), "summarizer", summaryAnswer(["Protobuf payloads are smaller."], { summary: "Short." })),
    ).toEqual(["SUMMARY_TOO_SHORT"]);
    expect(
      codes(
        due(),
        "summarizer",
        summaryAnswer(["Protobuf payloads are smaller."], { summary: "x".repeat(4000) }),
      ),
    ).toEqual(["SUMMARY_TOO_LONG"]);
  });
});

describe("crossfire: the verdict's rules (each with a failing answer)", () => {
  const due = () =>
    step(step(crossfireState({ rounds: 1 }), "proposer", proposerTurn()), "challenger", challengerTurn(1));

  it("VERDICT_NO_WINNER: a tie", () => {
    expect(codes(due(), "judge", verdictAnswer({ winner: "tie" as never }))).toEqual(["VERDICT_NO_WINNER"]);
  });

  it("VERDICT_POINT_UNKNOWN: a cited id, an id in the reasoning, an agreement's id that does not exist", () => {
    expect(codes(due(), "judge", verdictAnswer({ cited_points: ["C1.9"] }))).toEqual([
      "VERDICT_POINT_UNKNOWN",
    ]);
    expect(codes(due(), "judge", verdictAnswer({ reasoning: "P2.1 settles it." }))).toEqual([
      "VERDICT_POINT_UNKNOWN",
    ]);
    expect(codes(due(), "judge", verdictAnswer({ agreements: [{ text: "t", points: ["P4.1"] }] }))).toEqual([
      "VERDICT_POINT_UNKNOWN",
    ]);
  });

  it("VERDICT_AGREEMENT_UNSUPPORTED: an agreement resting on an unsupported point", () => {
    expect(codes(due(), "judge", verdictAnswer({ agreements: [{ text: "t", points: ["P1.2"] }] }))).toEqual([
      "VERDICT_AGREEMENT_UNSUPPORTED",
    ]);
  });

  it("VERDICT_RECOMMENDATION_VAGUE and ANSWER_SCHEMA (a missing rating)", () => {
    expect(codes(due(), "judge", verdictAnswer({ recommendation: "Do it." }))).toEqual([
      "VERDICT_RECOMMENDATION_VAGUE",
    ]);
    const { ratings: _, ...noRatings } = verdictAnswer();
    expect(codes(due(), "judge", noRatings)).toEqual(["ANSWER_SCHEMA"]);
  });
});

describe("crossfire: every problem of an answer at once, shape first", () => {
  it("a turn refused for its shape also gets its rules checked", () => {
    const turn = proposerTurn({
      points: [{ claim: "Faster.", category: "speed" as never }, { claim: "Typed clients catch drift." }],
    });
    const parsed = crossfireFormat.parseAnswer(crossfireState(), "proposer", JSON.stringify(turn));
    expect(parsed.ok ? [] : parsed.errors.map((e) => [e.code, e.path])).toEqual([
      ["ANSWER_SCHEMA", "points[0].category"],
      ["CROSSFIRE_POINT_UNSUPPORTED", "points[0].evidence"],
      ["CROSSFIRE_POINT_UNSUPPORTED", "points[1].evidence"],
    ]);
  });

  it("quotes a refused turn's values cut short, as every message does", () => {
    const opened = step(crossfireState(), "proposer", proposerTurn());
    const long = `C1.k1 ${"x".repeat(3000)}`;
    const turn = challengerTurn(1, {
      withdrawals: [{ concession: long, reason: "r", evidence: [ev("bench/payload.md")] }],
    });
    turn.points[0] = { ...turn.points[0]!, stance: long as never, targets: [] };
    const parsed = crossfireFormat.parseAnswer(opened, "challenger", JSON.stringify(turn));
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.code)).toContain(
      "CROSSFIRE_WITHDRAWAL_NO_NEW_EVIDENCE",
    );
    for (const e of parsed.ok ? [] : parsed.errors) expect(e.message.length, e.code).toBeLessThan(600);
  });

  it("a verdict without a winner also names the points it cites that do not exist", () => {
    const due = step(
      step(crossfireState({ rounds: 1 }), "proposer", proposerTurn()),
      "challenger",
      challengerTurn(1),
    );
    expect(codes(due, "judge", verdictAnswer({ winner: "tie" as never, cited_points: ["C1.9"] }))).toEqual([
      "VERDICT_NO_WINNER",
      "VERDICT_POINT_UNKNOWN",
    ]);
  });
});

describe("crossfire: the failure policy", () => {
  const failure = { code: "SEAT_TIMEOUT", message: "the proposer seat (codex) returned timeout" };

  it("the proposer failing round 1 aborts", () => {
    const next = crossfireFormat.onSeatFailure!(crossfireState(), "proposer", failure, "t");
    const s = next!.ok ? next!.value : crossfireState();
    expect(fm(s)).toMatchObject({
      current_phase: "aborted",
      outcome: "aborted",
      failures: [{ role: "proposer", round: 1, code: "SEAT_TIMEOUT" }],
    });
    expect(crossfireFormat.next(s)).toMatchObject({ kind: "done", reason: "aborted" });
    expect(crossfireFormat.standing(s)).toMatchObject({ outcome: "aborted", complete: true });
  });

  it("the challenger failing round 1 leaves an uncontested position, then the verdict on the opening", () => {
    const opened = step(crossfireState(), "proposer", proposerTurn());
    const next = crossfireFormat.onSeatFailure!(opened, "challenger", failure, "t");
    let s = next!.ok ? next!.value : opened;
    expect(crossfireFormat.next(s)).toMatchObject({ asks: [{ role: "judge" }] });
    expect(crossfireFormat.prompt(s, "judge")).toContain("uncontested");
    s = step(
      s,
      "judge",
      verdictAnswer({ winner: "proposer", reasoning: "P1.1 stands.", cited_points: ["P1.1"] }),
    );
    expect(crossfireFormat.standing(s)).toMatchObject({ outcome: "uncontested", phase: "complete" });
    expect(s.records!.find((r) => r.file === "verdict.md")!.body).toContain("**Uncontested**");
  });

  it("a failure in round 2+ stops the rounds; the verdict uses the completed ones; status says partial (rounds 1-1 of 3)", () => {
    let s = afterRound1(3);
    s = step(
      s,
      "proposer",
      proposerTurn({
        points: [{ claim: "Proxy cost is small.", targets: ["C1.1"], evidence: [ev("bench/p2.md")] }],
      }),
    );
    const next = crossfireFormat.onSeatFailure!(s, "challenger", failure, "t");
    s = next!.ok ? next!.value : s;
    expect(crossfireFormat.standing(s).outcome).toBe("partial (rounds 1-1 of 3)");
    // Degraded (docs/architecture.md#honest-degradation): the failed seat with its real error, and the rounds the verdict lacks.
    expect(crossfireFormat.standing(s).degraded).toMatchObject([
      { cause: "seat_failed", role: "challenger", round: 2, code: failure.code, error: failure.message },
      { cause: "rounds_missing", configured: 3, used: 1 },
    ]);
    expect(crossfireFormat.prompt(s, "judge")).not.toContain("Round 2: proposer");
    expect(codes(s, "judge", verdictAnswer({ reasoning: "P2.1 matters." }))).toEqual([
      "VERDICT_POINT_UNKNOWN",
    ]);
    s = step(s, "judge", verdictAnswer());
    expect(s.records!.find((r) => r.file === "verdict.md")!.frontmatter).toMatchObject({
      outcome: "partial",
      rounds_considered: 1,
    });
  });

  it("the judge failing is an error (no state: the run fails and a re-run asks again)", () => {
    expect(
      crossfireFormat.onSeatFailure!(
        crossfireState({ current_phase: "awaiting_verdict" }),
        "judge",
        failure,
        "t",
      ),
    ).toBeUndefined();
  });
});

describe("crossfire: records under the commit marker", () => {
  it("a turn of the step being worked on is not committed; earlier ones are; a failed seat's file never is", () => {
    const f = fm(crossfireState({ current_exchange: 2, current_phase: "awaiting_challenger" }));
    expect(isCommitted(f, "turns/r01-challenger.md")).toBe(true);
    expect(isCommitted(f, "turns/r02-proposer.md")).toBe(true);
    expect(isCommitted(f, "turns/r02-challenger.md")).toBe(false);
    expect(isCommitted(f, "verdict.md")).toBe(false);
    const failed = fm(
      crossfireState({
        current_exchange: 2,
        current_phase: "awaiting_verdict",
        failures: [{ role: "challenger", round: 2, code: "X", message: "m" }],
      }),
    );
    expect(isCommitted(failed, "turns/r02-challenger.md")).toBe(false);
  });
});

describe("crossfire: a new debate", () => {
  it("defaults the rounds to 2 and the judge to a CLI that debates in neither seat", () => {
    const made = crossfireFormat.newDebate({
      slug: "g",
      seats: { proposer: "codex", challenger: "gemini" },
      now: "2026-01-01T00:00:00Z",
    });
    expect(made.ok && made.value).toMatchObject({
      frontmatter: { rounds: 2, current_exchange: 1, seats: { judge: { adapter: "claude" } } },
      warnings: [],
    });
  });

  it("warns when the judge is a debater's adapter and model", () => {
    const made = crossfireFormat.newDebate({
      slug: "g",
      seats: { proposer: "codex", challenger: "gemini", judge: "codex" },
      now: "2026-01-01T00:00:00Z",
    });
    expect(made.ok && made.value.warnings).toEqual([
      "the judge (codex) is the proposer's own adapter, model and endpoint: it may favour its own side; pass --judge with another CLI or model",
    ]);
  });
});

describe("crossfire: a committed state is re-checked when read", () => {
  const done = () => {
    let s = step(crossfireState({ rounds: 1 }), "proposer", proposerTurn());
    s = step(s, "challenger", challengerTurn(1));
    return step(s, "judge", verdictAnswer());
  };
  const edit = (
    s: CrossfireState,
    file: string,
    change: (fm: Record<string, unknown>) => void,
  ): CrossfireState => ({
    ...s,
    records: s.records!.map((r) => {
      if (r.file !== file) return r;
      const frontmatter = structuredClone(r.frontmatter);
      change(frontmatter);
      return { ...r, frontmatter };
    }),
  });

  it("accepts what the engine committed", () => {
    expect(crossfireFormat.checkCommitted(done())).toEqual([]);
  });

  it("refuses a hand-edited target, renumbered ids, and a verdict citing a point that is not there", () => {
    const target = edit(done(), "turns/r01-challenger.md", (f) => {
      (f.points as { targets?: string[] }[])[0]!.targets = ["P1.7"];
    });
    expect(crossfireFormat.checkCommitted(target)).toEqual([
      expect.objectContaining({
        code: "CROSSFIRE_REFERENCE_UNKNOWN",
        path: "turns/r01-challenger.md:points[0].targets[0]",
      }),
    ]);
    const ids = edit(done(), "turns/r01-proposer.md", (f) => {
      (f.points as { id?: string }[])[0]!.id = "P1.9";
    });
    expect(crossfireFormat.checkCommitted(ids).map((e) => e.code)).toContain("RECORD_IDS_MISMATCH");
    const verdict = edit(done(), "verdict.md", (f) => {
      f.cited_points = ["C1.5"];
    });
    expect(crossfireFormat.checkCommitted(verdict)).toEqual([
      expect.objectContaining({ code: "VERDICT_POINT_UNKNOWN", path: "verdict.md:cited_points[0]" }),
    ]);
  });
});
