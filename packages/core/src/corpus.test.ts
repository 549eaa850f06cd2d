// A corpus of bad model answers and bad judgments: each gives a precise error (code, path, message)
// and leaves the state untouched.
import type { ArgumentDraft, Judgment } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { parseJudgeAnswer, parseSideAnswer } from "./formats/formal/answers.js";
import { parseArgumentId } from "./formats/formal/ids.js";
import { applyArguments, applyJudgment } from "./formats/formal/machine.js";
import { renderArgument } from "./formats/formal/render.js";
import { checkJudgment } from "./formats/formal/rules/judgment.js";
import { answer, draft, freshState } from "./test-helpers/states.js";
import type { ArgumentRecord, DebaterRole, DebateState, RuleError } from "./types.js";

const NOW = "2026-11-21T12:00:00.000Z";

// JSON.parse's wording differs between Node versions; the error quotes whatever this one says.
function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

function record(id: string, extra: Partial<ArgumentDraft> = {}): ArgumentRecord {
  const { side, exchange } = parseArgumentId(id)!;
  return renderArgument(draft(id, extra), { id, side, exchange });
}

function must<T>(result: { ok: true; value: T } | { ok: false; errors: RuleError[] }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const ids0 = ["prop_000a", "prop_000b", "prop_000c", "opp_000a", "opp_000b", "opp_000c"];
/** Awaiting rebuttals at exchange 1; openings scored prop +0.2, opp -0.2. */
const rebuttalState: DebateState = (() => {
  const s0 = freshState();
  const args = must(
    applyArguments(s0, 0, {
      proposition: ids0.slice(0, 3).map((id) => record(id)),
      opposition: ids0.slice(3).map((id) => record(id)),
    }),
  );
  const judgment: Judgment = {
    scores: ids0.map((id) => ({
      argument_id: id,
      score: id.startsWith("prop") ? 0.2 : -0.2,
      reasoning: "r",
    })),
  };
  return must(applyJudgment(args, 0, judgment, NOW));
})();
/** Awaiting the judgment of exchange 1 (prop_001, opp_001). */
const judgeState: DebateState = must(
  applyArguments(rebuttalState, 1, { proposition: [record("prop_001")], opposition: [record("opp_001")] }),
);

const rebuttal = (extra: Partial<ArgumentDraft>) => answer([draft("Rebuttal", extra)]);
const attack = (target_id: string) => ({
  target_id,
  attack_type: "claim_attack" as const,
  content: "It fails.",
});
const defend = (target_id: string) => ({
  target_id,
  defense_type: "reinforce" as const,
  content: "It holds.",
});

interface SideCase {
  name: string;
  state: DebateState;
  role: DebaterRole;
  text: string;
  error: RuleError;
}

const sideCases: SideCase[] = [
  {
    name: "2 openings",
    state: freshState(),
    role: "proposition",
    text: answer([draft("A"), draft("B")]),
    error: {
      code: "ARGUMENT_COUNT",
      path: "arguments",
      message: "expected exactly 3 independent opening arguments for exchange 0, found 2",
    },
  },
  {
    name: "4 openings",
    state: freshState(),
    role: "proposition",
    text: answer([draft("A"), draft("B"), draft("C"), draft("D")]),
    error: {
      code: "ARGUMENT_COUNT",
      path: "arguments",
      message: "expected exactly 3 independent opening arguments for exchange 0, found 4",
    },
  },
  {
    name: "2 rebuttal arguments",
    state: rebuttalState,
    role: "opposition",
    text: answer([draft("A"), draft("B")]),
    error: {
      code: "ARGUMENT_COUNT",
      path: "arguments",
      message: "expected exactly 1 rebuttal argument for exchange 1, found 2",
    },
  },
  {
    name: "an attack in an opening",
    state: freshState(),
    role: "proposition",
    text: answer([draft("A"), draft("B", { attacks: [attack("opp_000a")] }), draft("C")]),
    error: {
      code: "ARGUMENT_ATTACK_IN_OPENING",
      path: "arguments[1].attacks",
      message: "expected no attacks in an opening (nothing earlier exists to attack), found 1",
    },
  },
  {
    name: "a defense in an opening",
    state: freshState(),
    role: "opposition",
    text: answer([draft("A"), draft("B"), draft("C", { defends: [defend("opp_000a")] })]),
    error: {
      code: "ARGUMENT_DEFENSE_IN_OPENING",
      path: "arguments[2].defends",
      message: "expected no defends in an opening (nothing earlier exists to defend), found 1",
    },
  },
  {
    name: "an attack on the own side",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ attacks: [attack("prop_000a")] }),
    error: {
      code: "ARGUMENT_ATTACK_OWN_SIDE",
      path: "arguments[0].attacks[0].target_id",
      message:
        "an attack must target the opposition's argument, found \"prop_000a\", which is the proposition's own",
    },
  },
  {
    name: "a defense of the other side",
    state: rebuttalState,
    role: "opposition",
    text: rebuttal({ defends: [defend("prop_000b")] }),
    error: {
      code: "ARGUMENT_DEFENSE_OTHER_SIDE",
      path: "arguments[0].defends[0].target_id",
      message:
        "a defense must target the opposition's own argument, found \"prop_000b\", which is the proposition's",
    },
  },
  {
    name: "an attack on an argument that does not exist",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ attacks: [attack("opp_007")] }),
    error: {
      code: "ARGUMENT_TARGET_UNKNOWN",
      path: "arguments[0].attacks[0].target_id",
      message:
        'expected one of the opposition\'s earlier arguments (opp_000a, opp_000b, opp_000c), found "opp_007", which does not exist',
    },
  },
  ...[
    "../opp_000a",
    "opp_000a/../../etc/passwd",
    "opp_000a.md",
    "/etc/passwd",
    "opp_000a\u0000",
    "OPP_000A",
    "..\\opp_000a",
  ].map(
    (target): SideCase => ({
      name: `a path trick in a target id: ${JSON.stringify(target)}`,
      state: rebuttalState,
      role: "proposition",
      text: rebuttal({ attacks: [attack(target)] }),
      error: {
        code: "ARGUMENT_TARGET_INVALID",
        path: "arguments[0].attacks[0].target_id",
        message: `expected an argument id like opp_000a or opp_001, found ${JSON.stringify(target)}`,
      },
    }),
  ),
  {
    name: "a path trick in a defended id",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ defends: [defend("../../prop_000a")] }),
    error: {
      code: "ARGUMENT_TARGET_INVALID",
      path: "arguments[0].defends[0].target_id",
      message: 'expected an argument id like prop_000a or prop_001, found "../../prop_000a"',
    },
  },
  {
    name: "the same attack twice",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ attacks: [attack("opp_000a"), attack("opp_000a")] }),
    error: {
      code: "ARGUMENT_DUPLICATE_ATTACK",
      path: "arguments[0].attacks[1]",
      message: 'expected each (target_id, attack_type) once, found "opp_000a" with "claim_attack" again',
    },
  },
  {
    name: "an unknown attack type",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({
      attacks: [{ target_id: "opp_000a", attack_type: "ad_hominem" as never, content: "x" }],
    }),
    error: {
      code: "ANSWER_SCHEMA",
      path: "arguments[0].attacks[0].attack_type",
      message:
        'the answer does not match the expected shape: `arguments[0].attacks[0].attack_type` must be one of "claim_attack", "grounds_attack", "warrant_attack", "backing_attack" (got "ad_hominem")',
    },
  },
  {
    name: "4 attacks",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ attacks: ["opp_000a", "opp_000b", "opp_000c", "opp_000a"].map(attack) }),
    error: {
      code: "ANSWER_SCHEMA",
      path: "arguments[0].attacks",
      message:
        "the answer does not match the expected shape: `arguments[0].attacks` must NOT have more than 3 items",
    },
  },
  {
    name: "no grounds",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ grounds: [] }),
    error: {
      code: "ANSWER_SCHEMA",
      path: "arguments[0].grounds",
      message:
        "the answer does not match the expected shape: `arguments[0].grounds` must NOT have fewer than 1 items",
    },
  },
  {
    name: "a ground without relevance",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ grounds: [{ source: "s", content: "c" } as never] }),
    error: {
      code: "ANSWER_SCHEMA",
      path: "arguments[0].grounds[0].relevance",
      message:
        "the answer does not match the expected shape: `arguments[0].grounds[0].relevance` is required",
    },
  },
  {
    name: "a ground whose relevance is only blanks",
    state: rebuttalState,
    role: "proposition",
    text: rebuttal({ grounds: [{ source: "s", content: "c", relevance: "   " }] }),
    error: {
      code: "ARGUMENT_GROUND_INCOMPLETE",
      path: "arguments[0].grounds[0].relevance",
      message: 'expected every ground to have non-empty source, content and relevance; `relevance` is "   "',
    },
  },
  {
    name: "no `arguments` key",
    state: freshState(),
    role: "proposition",
    text: '{"argument": []}',
    error: {
      code: "ANSWER_SCHEMA",
      path: "arguments",
      message: "the answer does not match the expected shape: `arguments` is required",
    },
  },
  {
    name: "an answer for a step that is not awaited",
    state: judgeState,
    role: "proposition",
    text: rebuttal({}),
    error: {
      code: "DEBATE_PHASE_MISMATCH",
      path: "current_phase",
      message:
        "expected awaiting_arguments at exchange 1, found awaiting_judgment at exchange 1 (was this step already applied?)",
    },
  },
  {
    name: "an empty answer",
    state: freshState(),
    role: "proposition",
    text: " \n\t ",
    error: { code: "MODEL_OUTPUT_EMPTY", path: "", message: "expected a JSON object, found an empty answer" },
  },
  {
    name: "prose without JSON",
    state: freshState(),
    role: "proposition",
    text: "I cannot help with that {request}.",
    error: {
      code: "MODEL_OUTPUT_NO_JSON",
      path: "",
      message: `expected a JSON object (bare, in a \`\`\`json fence, or inside prose), found none that parses (${parseErrorOf("{request}")}); the answer starts with "I cannot help with that {request}."`,
    },
  },
  {
    name: "a JSON array",
    state: freshState(),
    role: "proposition",
    text: "[1, 2, 3]",
    error: {
      code: "MODEL_OUTPUT_NO_JSON",
      path: "",
      message:
        'expected a JSON object (bare, in a ```json fence, or inside prose), found none; the answer starts with "[1, 2, 3]"',
    },
  },
  {
    name: "binary output",
    state: freshState(),
    role: "proposition",
    text: `\u0000\u0001\u0002PK\u0003\u0004${"\u0000".repeat(20)}`,
    error: {
      code: "MODEL_OUTPUT_BINARY",
      path: "",
      message: `expected text containing a JSON object, found binary data (NUL or control characters); it starts with "\\u0000\\u0001\\u0002PK\\u0003\\u0004${"\\u0000".repeat(20)}"`,
    },
  },
];

describe("bad debater answers", () => {
  it.each(sideCases)("rejects $name", ({ state, role, text, error }) => {
    const before = structuredClone(state);
    const result = parseSideAnswer(state, role, text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toContainEqual(error);
    expect(state).toEqual(before);
  });

  it("rejects huge output before parsing it", () => {
    const huge = `{"arguments": [${'"x",'.repeat(300_000)}]}`;
    const result = parseSideAnswer(freshState(), "proposition", huge);
    expect(!result.ok && result.errors[0]!.code).toBe("MODEL_OUTPUT_TOO_LARGE");
    expect(!result.ok && result.errors[0]!.message).toMatch(
      /^expected at most 1000000 characters of answer, found 1200017; it starts with "\{\\"arguments/,
    );
  }, 30_000);

  it("ignores ids in model output: the engine assigns them", () => {
    const drafts = ["../../etc/passwd", "opp_000a", "prop_999"].map((id, i) => ({
      ...draft(`T${i}`),
      id,
      argument_id: id,
    }));
    const result = must(parseSideAnswer(freshState(), "proposition", answer(drafts)));
    expect(result.map((r) => r.frontmatter.id)).toEqual(["prop_000a", "prop_000b", "prop_000c"]);
    expect(JSON.stringify(result)).not.toContain("passwd");
  });

  it("accepts JSON inside prose and in a fence, and collects every error of one answer", () => {
    const text = `Sure! Here it is:\n\n\`\`\`json\n${rebuttal({ attacks: [attack("opp_000a")], defends: [defend("prop_000c")] })}\n\`\`\`\nHope that helps.`;
    expect(must(parseSideAnswer(rebuttalState, "proposition", text))[0]!.frontmatter).toMatchObject({
      id: "prop_001",
      attacks: [{ target_id: "opp_000a", type: "claim_attack" }],
      defends: [{ target_id: "prop_000c", type: "reinforce" }],
    });
    const many = parseSideAnswer(
      rebuttalState,
      "proposition",
      rebuttal({ attacks: [attack("prop_000a")], defends: [defend("opp_000a")] }),
    );
    expect(!many.ok && many.errors.map((e) => e.code)).toEqual([
      "ARGUMENT_ATTACK_OWN_SIDE",
      "ARGUMENT_DEFENSE_OTHER_SIDE",
    ]);
  });
});

interface JudgeCase {
  name: string;
  judgment: unknown;
  error: RuleError;
}

const score = (argument_id: string, value: number) => ({ argument_id, score: value, reasoning: "because" });
const rescore = (argument_id: string, old_score: number, new_score: number) => ({
  argument_id,
  old_score,
  new_score,
  reasoning: "later evidence",
});

const judgeCases: JudgeCase[] = [
  {
    name: "scores that do not sum to zero",
    judgment: { scores: [score("prop_001", 0.5), score("opp_001", -0.3)] },
    error: {
      code: "JUDGMENT_NOT_ZERO_SUM",
      path: "scores",
      message:
        "expected the scores of one exchange to sum to 0 (within 0.01), found 0.2 (prop_001 0.5, opp_001 -0.3)",
    },
  },
  {
    name: "a score out of range",
    judgment: { scores: [score("prop_001", 1.5), score("opp_001", -1.5)] },
    error: {
      code: "JUDGMENT_SCHEMA",
      path: "scores[0].score",
      message: "the judgment does not match the expected shape: `scores[0].score` must be <= 1 (got 1.5)",
    },
  },
  {
    name: "a missing score",
    judgment: { scores: [score("prop_001", 0)] },
    error: {
      code: "JUDGMENT_SCORE_MISSING",
      path: "scores",
      message: "expected a score for every argument of exchange 1 (opp_001, prop_001), missing opp_001",
    },
  },
  {
    name: "an earlier argument among the scores",
    judgment: { scores: [score("prop_001", 0.2), score("opp_001", -0.2), score("opp_000a", 0)] },
    error: {
      code: "JUDGMENT_SCORE_NOT_CURRENT",
      path: "scores[2].argument_id",
      message:
        'expected only exchange 1\'s arguments (opp_001, prop_001) in scores, found "opp_000a" from exchange 0; change an earlier score through `rescores`',
    },
  },
  {
    name: "a duplicate score",
    judgment: { scores: [score("prop_001", 0.2), score("prop_001", -0.2), score("opp_001", 0)] },
    error: {
      code: "JUDGMENT_SCORE_DUPLICATE",
      path: "scores[1].argument_id",
      message: 'expected each argument scored once, found "prop_001" again',
    },
  },
  {
    name: "a score of an unknown id",
    judgment: { scores: [score("prop_001", 0.2), score("opp_001", -0.2), score("prop_009", 0)] },
    error: {
      code: "JUDGMENT_SCORE_UNKNOWN_ID",
      path: "scores[2].argument_id",
      message:
        'expected one of this exchange\'s arguments (opp_001, prop_001), found "prop_009", which does not exist',
    },
  },
  {
    name: "a path trick in a scored id",
    judgment: { scores: [score("prop_001", 0.2), score("../opp_001", -0.2)] },
    error: {
      code: "JUDGMENT_ID_INVALID",
      path: "scores[1].argument_id",
      message: 'expected one of opp_001, prop_001, found "../opp_001"',
    },
  },
  {
    name: "a rescore of an unknown id",
    judgment: { scores: [score("prop_001", 0), score("opp_001", 0)], rescores: [rescore("opp_005", 0, 0.1)] },
    error: {
      code: "JUDGMENT_RESCORE_UNKNOWN_ID",
      path: "rescores[0].argument_id",
      message: 'expected an earlier argument\'s id, found "opp_005", which does not exist',
    },
  },
  {
    name: "a rescore of a current argument",
    judgment: {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("prop_001", 0, 0.1)],
    },
    error: {
      code: "JUDGMENT_RESCORE_CURRENT",
      path: "rescores[0].argument_id",
      message:
        'expected an argument from an exchange before 1, found "prop_001" from exchange 1; score it in `scores`',
    },
  },
  {
    name: "a rescore with the wrong old_score",
    judgment: {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("opp_000a", 0.2, 0.1)],
    },
    error: {
      code: "JUDGMENT_RESCORE_OLD_SCORE",
      path: "rescores[0].old_score",
      message: "expected the recorded current score of opp_000a, -0.2, found 0.2",
    },
  },
  {
    name: "a rescore that moves more than 0.5",
    judgment: {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("prop_000a", 0.2, -0.4)],
    },
    error: {
      code: "JUDGMENT_RESCORE_DELTA",
      path: "rescores[0].new_score",
      message: "expected a change of at most 0.5 from 0.2, found -0.4 (a change of -0.6)",
    },
  },
  {
    name: "a rescore out of range",
    judgment: {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("prop_000a", 0.2, 1.1)],
    },
    error: {
      code: "JUDGMENT_SCHEMA",
      path: "rescores[0].new_score",
      message:
        "the judgment does not match the expected shape: `rescores[0].new_score` must be <= 1 (got 1.1)",
    },
  },
  {
    name: "the same argument rescored twice",
    judgment: {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("prop_000a", 0.2, 0.3), rescore("prop_000a", 0.3, 0.4)],
    },
    error: {
      code: "JUDGMENT_RESCORE_DUPLICATE",
      path: "rescores[1].argument_id",
      message: 'expected each argument rescored at most once, found "prop_000a" again',
    },
  },
  {
    name: "a judgment with no scores",
    judgment: { scores: [] },
    error: {
      code: "JUDGMENT_SCHEMA",
      path: "scores",
      message: "the judgment does not match the expected shape: `scores` must NOT have fewer than 1 items",
    },
  },
];

describe("bad judgments", () => {
  it.each(judgeCases)("rejects $name", ({ judgment, error }) => {
    const before = structuredClone(judgeState);
    const result = parseJudgeAnswer(judgeState, `Verdict:\n${JSON.stringify(judgment)}`);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toContainEqual(error);
    expect(judgeState).toEqual(before);
    // applyJudgment re-checks: a judgment that skipped parseJudgeAnswer is refused too.
    if (error.code !== "JUDGMENT_SCHEMA")
      expect(applyJudgment(judgeState, 1, judgment as Judgment, NOW).ok).toBe(false);
  });

  it("refuses a rescore out of range even without the schema, and one of an argument never scored", () => {
    const outOfRange: Judgment = {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("prop_000a", 0.2, 1.1)],
    };
    expect(checkJudgment(outOfRange, 1, judgeState.arguments, judgeState.scores)).toEqual([
      {
        code: "JUDGMENT_RESCORE_RANGE",
        path: "rescores[0].new_score",
        message: "expected a number in [-1, 1], found 1.1",
      },
    ]);
    const { opp_000b: _, ...withoutOne } = judgeState.scores;
    const unscored: Judgment = {
      scores: [score("prop_001", 0), score("opp_001", 0)],
      rescores: [rescore("opp_000b", -0.2, 0)],
    };
    expect(checkJudgment(unscored, 1, judgeState.arguments, withoutOne)).toEqual([
      {
        code: "JUDGMENT_RESCORE_UNSCORED",
        path: "rescores[0].argument_id",
        message: 'expected an argument that has a score, found "opp_000b", which was never scored',
      },
    ]);
  });

  it("accepts a fenced judgment, tolerates float noise in old_score, and drops stray keys", () => {
    const text = `\`\`\`json\n${JSON.stringify({
      verdict: "ignored",
      scores: [{ ...score("prop_001", 0.305), extra: 1 }, score("opp_001", -0.3)],
      rescores: [rescore("prop_000a", 0.2000000001, 0.45)],
    })}\n\`\`\``;
    const judgment = must(parseJudgeAnswer(judgeState, text));
    expect(judgment).toEqual({
      scores: [score("prop_001", 0.305), score("opp_001", -0.3)],
      rescores: [rescore("prop_000a", 0.2000000001, 0.45)],
    });
    const next = must(applyJudgment(judgeState, 1, judgment, NOW));
    expect(next.scores.prop_000a!.history[1]).toEqual({
      score: 0.45,
      reasoning: "later evidence",
      scored_at: NOW,
      triggered_by: "exchange_1",
      previous_score: 0.2,
      diff: 0.25,
    });
    expect(next.frontmatter.cumulative_scores).toEqual({
      proposition: { total: 1.155, count: 4 }, // 3 * 0.2 + 0.305, then prop_000a 0.2 -> 0.45
      opposition: { total: -0.9, count: 4 },
    });
  });
});
