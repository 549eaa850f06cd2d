import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as examples from "./generated/examples.js";
import * as schema from "./index.js";
import { formatValidationErrors, type ValidationResult } from "./index.js";

const shipped = new URL("../schemas/", import.meta.url);
const files = readdirSync(shipped).filter((f) => f.endsWith(".schema.json"));

type Validator = (data: unknown) => ValidationResult<unknown>;
function validatorFor(title: string): Validator {
  const fn = (schema as unknown as Record<string, Validator>)[`validate${title}`];
  if (!fn) throw new Error(`no validate${title}`);
  return fn;
}

function errorsOf(result: ValidationResult<unknown>) {
  if (result.ok) throw new Error("expected the document to be rejected");
  return result.errors;
}

describe("every schema", () => {
  it("ships 32 schema files, one validator and one $id each", () => {
    expect(files).toHaveLength(32);
    expect(Object.keys(schema.schemaIds).sort()).toEqual(Object.keys(schema.schemaFiles).sort());
  });

  for (const file of files) {
    const doc = JSON.parse(readFileSync(new URL(file, shipped), "utf8"));
    it(`${file}: is draft 2020-12 with $id, description and examples that validate`, () => {
      expect(doc.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(doc.$id).toBe(`https://debatekit.dev/schemas/${file}`);
      expect(doc.description.length).toBeGreaterThan(20);
      expect(doc.examples.length).toBeGreaterThan(0);
      const validate = validatorFor(doc.title);
      for (const example of doc.examples) {
        const result = validate(example);
        expect(result.ok ? [] : formatValidationErrors(result.errors)).toEqual([]);
      }
    });
  }

  it("the generated examples module holds the same examples the schemas do", () => {
    const total = Object.values(examples).reduce((n, list) => n + (list as unknown[]).length, 0);
    const expected = files.reduce(
      (n, f) => n + JSON.parse(readFileSync(new URL(f, shipped), "utf8")).examples.length,
      0,
    );
    expect(total).toBe(expected);
  });
});

const base = examples.debateFrontmatterExamples[0]!;

describe("invalid documents are rejected with readable errors", () => {
  const cases: Array<[string, () => ValidationResult<unknown>, string, RegExp]> = [
    [
      "a bad gate-eval case without its fixing commit",
      () =>
        schema.validateGateEvalCase({
          id: "bad-1",
          repo: "repo",
          base: "abcdef0",
          head: "abcdef1",
          label: "bad",
          reasons: ["r"],
        }),
      "fix",
      /is required/,
    ],
    [
      "unknown phase",
      () => schema.validateDebateFrontmatter({ ...base, current_phase: "judging" }),
      "current_phase",
      /must be one of "awaiting_arguments", "awaiting_judgment", "complete" \(got "judging"\)/,
    ],
    [
      "misspelled key",
      () => schema.validateDebateFrontmatter({ ...base, exchange: 5 }),
      "exchange",
      /is not a known field/,
    ],
    [
      "negative exchange",
      () => schema.validateDebateFrontmatter({ ...base, current_exchange: -1 }),
      "current_exchange",
      /must be >= 0/,
    ],
    [
      "exchanges as a string",
      () => schema.validateDebateFrontmatter({ ...base, exchanges: "5" }),
      "exchanges",
      /must be integer \(got string "5"\)/,
    ],
    [
      "slug with a path trick",
      () => schema.validateDebateFrontmatter({ ...base, debate_id: "../etc" }),
      "debate_id",
      /does not have the expected form/,
    ],
    [
      "unknown adapter",
      () =>
        schema.validateDebateFrontmatter({
          ...base,
          seats: { ...base.seats, judge: { adapter: "claud" } },
        }),
      "seats.judge.adapter",
      /must be one of "claude"/,
    ],
    [
      "a judge panel of more than 5",
      () =>
        schema.validateDebateFrontmatter({
          ...base,
          seats: { proposition: { adapter: "claude" }, opposition: { adapter: "gemini" } },
          judges: { panel: Array.from({ length: 6 }, () => ({ adapter: "codex" })) },
        }),
      "judges.panel",
      /more than 5/,
    ],
    [
      "an API key instead of its variable name",
      () => schema.validateSeatConfig({ adapter: "http", api_key_env: "sk-abc def" }),
      "api_key_env",
      /does not have the expected form/,
    ],
    [
      "four grounds",
      () =>
        schema.validateArgumentDraft({
          ...examples.argumentDraftExamples[0],
          grounds: Array(4).fill({ source: "s", content: "c", relevance: "r" }),
        }),
      "grounds",
      /must NOT have more than 3 items/,
    ],
    [
      "ground without relevance",
      () =>
        schema.validateArgumentDraft({
          ...examples.argumentDraftExamples[0],
          grounds: [{ source: "s", content: "c" }],
        }),
      "grounds[0].relevance",
      /is required/,
    ],
    [
      "unknown attack type",
      () =>
        schema.validateArgumentDraft({
          ...examples.argumentDraftExamples[1],
          attacks: [{ target_id: "prop_000a", attack_type: "ad_hominem", content: "x" }],
        }),
      "attacks[0].attack_type",
      /must be one of "claim_attack"/,
    ],
    [
      "score out of range",
      () => schema.validateJudgment({ scores: [{ argument_id: "prop_001", score: 1.5, reasoning: "r" }] }),
      "scores[0].score",
      /must be <= 1/,
    ],
    [
      "bad id key in scores.json",
      () =>
        schema.validateScoresFile({
          "../x": {
            current_score: 0,
            history: [{ score: 0, reasoning: "", scored_at: "2026-01-01T00:00:00Z" }],
          },
        }),
      "../x",
      /is not an allowed key here/,
    ],
    [
      "scored_at that is no date",
      () =>
        schema.validateScoresFile({
          prop_000a: { current_score: 0, history: [{ score: 0, reasoning: "", scored_at: "yesterday" }] },
        }),
      "prop_000a.history[0].scored_at",
      /must match format "date-time"/,
    ],
    [
      "skill manifest without triggers",
      () => {
        const { triggers: _, ...rest } = examples.skillManifestExamples[0]!;
        return schema.validateSkillManifest(rest);
      },
      "triggers",
      /is required/,
    ],
    [
      "agent for an unknown role",
      () => schema.validateAgentDefinition({ ...examples.agentDefinitionExamples[0], role: "moderator" }),
      "role",
      /must be one of "proposition"/,
    ],
    [
      "effort level that does not exist",
      () => schema.validateEffortMap({ adapters: { codex: { levels: { extreme: { model: "x" } } } } }),
      "adapters.codex.levels.extreme",
      /is not an allowed key here/,
    ],
    [
      "adapter result with an unknown status",
      () => schema.validateAdapterResult({ status: "failed", text: "", durationMs: 1, transport: "cli" }),
      "status",
      /must be one of "ok"/,
    ],
    [
      "adapter error over 200 characters",
      () =>
        schema.validateAdapterResult({
          status: "exit",
          text: "",
          durationMs: 1,
          transport: "cli",
          error: "x".repeat(201),
        }),
      "error",
      /must NOT have more than 200 characters/,
    ],
    [
      "journal entry with a short hash",
      () => schema.validateJournalEntry({ ...examples.journalEntryExamples[0], prompt_sha256: "abc" }),
      "prompt_sha256",
      /does not have the expected form/,
    ],
    [
      "replay entry for an unknown role",
      () => schema.validateReplayEntry({ exchange: 0, role: "Audience!", text: "" }),
      "role",
      /expected form/,
    ],
  ];

  for (const [name, run, path, message] of cases) {
    it(name, () => {
      const errors = errorsOf(run());
      const hit = errors.find((e) => e.path === path);
      expect(hit, formatValidationErrors(errors)).toBeDefined();
      expect(hit!.message).toMatch(message);
    });
  }

  it("reports every error at once, one line each", () => {
    const errors = errorsOf(schema.validateDebateFrontmatter({ debate_id: "UPPER", current_exchange: "x" }));
    const text = formatValidationErrors(errors);
    expect(text.split("\n")).toEqual([
      "`current_phase` is required",
      '`debate_id` does not have the expected form ^[a-z0-9][a-z0-9_-]{0,99}$ (got "UPPER")',
      '`current_exchange` must be integer (got string "x")',
    ]);
  });

  it("rejects non-objects at the root", () => {
    for (const data of [null, 42, "debate", []]) {
      const errors = errorsOf(schema.validateDebateFrontmatter(data));
      expect(errors[0]!.path).toBe("");
      expect(formatValidationErrors(errors)).toMatch(/^`\(root\)` must be object/);
    }
  });
});
