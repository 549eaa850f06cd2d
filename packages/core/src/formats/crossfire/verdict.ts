import { type CrossfireVerdict, validateCrossfireVerdict } from "@debatekit/schema";
import { fail, ok, quote, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { answerProblems, schemaRuleErrors } from "../../schema-errors.js";
import type { Result, RuleError } from "../../types.js";
import { verdictTurns } from "./prompt.js";
import { POINT_ID_IN_TEXT } from "./rules.js";
import type { CrossfireState, Turn } from "./state.js";

/** A recommendation shorter than this says nothing a reader can act on. */
export const MIN_RECOMMENDATION_CHARS = 20;

/**
 * The verdict's rules: every cited point id (in `cited_points`, in the reasoning's prose, in the
 * agreements) exists among the turns the verdict rests on; an agreement rests on points with
 * evidence; the recommendation says what to do. (A winner is required by the schema: no tie.)
 */
export function checkVerdict(verdict: CrossfireVerdict, turns: readonly Turn[]): RuleError[] {
  const errors: RuleError[] = [];
  const points = new Map(turns.flatMap((t) => t.data.points.map((p) => [p.id ?? "", p] as const)));
  const known = () => [...points.keys()].join(", ") || "none";
  verdict.cited_points.forEach((id, i) => {
    if (!points.has(id))
      errors.push(
        ruleError(
          "VERDICT_POINT_UNKNOWN",
          `cited_points[${i}]`,
          `expected a point id of the debate (${known()}), found ${quote(id)}`,
        ),
      );
  });
  const inProse = new Set(verdict.reasoning.match(POINT_ID_IN_TEXT) ?? []);
  for (const id of inProse) {
    if (!points.has(id))
      errors.push(
        ruleError(
          "VERDICT_POINT_UNKNOWN",
          "reasoning",
          `the reasoning cites ${id}, which is not a point of the debate (${known()})`,
        ),
      );
  }
  verdict.agreements.forEach((agreement, i) => {
    agreement.points.forEach((id, j) => {
      const point = points.get(id);
      if (!point) {
        errors.push(
          ruleError(
            "VERDICT_POINT_UNKNOWN",
            `agreements[${i}].points[${j}]`,
            `expected a point id of the debate (${known()}), found ${quote(id)}`,
          ),
        );
      } else if ((point.evidence ?? []).length === 0) {
        errors.push(
          ruleError(
            "VERDICT_AGREEMENT_UNSUPPORTED",
            `agreements[${i}].points[${j}]`,
            `an agreement must rest on evidence; ${id} has none (it is marked unsupported)`,
          ),
        );
      }
    });
  });
  if (verdict.recommendation.trim().length < MIN_RECOMMENDATION_CHARS) {
    errors.push(
      ruleError(
        "VERDICT_RECOMMENDATION_VAGUE",
        "recommendation",
        `expected an actionable recommendation (what to do, at least ${MIN_RECOMMENDATION_CHARS} characters), found ${quote(verdict.recommendation)}`,
      ),
    );
  }
  return errors;
}

/**
 * One judge's verdict from its answer: a tie or a missing winner is named as such (not as a generic
 * schema error), the schema and the rules checked, and the rounds it rests on set by the engine.
 */
export function parseVerdict(state: CrossfireState, text: string): Result<CrossfireVerdict> {
  const fm = state.frontmatter;
  const json = extractJson(text);
  if (!json.ok) return json;
  const winner = (json.value as { winner?: unknown } | null)?.winner;
  // A tie is the most basic problem of a verdict: it says so in its own words, not the schema's.
  const noWinner =
    winner === "proposer" || winner === "challenger"
      ? undefined
      : ruleError(
          "VERDICT_NO_WINNER",
          "winner",
          `expected the winner to be "proposer" or "challenger" (a tie is not a verdict), found ${quote(winner)}`,
        );
  const checked = validateCrossfireVerdict(json.value);
  const shape = checked.ok ? [] : checked.errors.filter((e) => !(noWinner && e.path === "winner"));
  const errors = answerProblems(
    [
      ...(noWinner ? [noWinner] : []),
      ...schemaRuleErrors("ANSWER_SCHEMA", "the verdict does not match the expected shape", shape),
    ],
    () => checkVerdict((checked.ok ? checked.value : json.value) as CrossfireVerdict, verdictTurns(state)),
  );
  if (!checked.ok || errors.length > 0) return fail(...errors);
  const { rounds_considered: _rc, outcome: _o, ...rest } = checked.value;
  const considered = fm.outcome ? (fm.completed_rounds ?? 0) : fm.current_exchange;
  return ok({
    ...rest,
    rounds_considered: considered,
    ...(fm.outcome === "uncontested" || fm.outcome === "partial" ? { outcome: fm.outcome } : {}),
  } satisfies CrossfireVerdict);
}
