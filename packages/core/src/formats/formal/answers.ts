import { type Judgment, type SideOutput, validateJudgment, validateSideOutput } from "@debatekit/schema";
import { fail, ok } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { schemaRuleErrors } from "../../schema-errors.js";
import type { ArgumentRecord, DebaterRole, DebateState, Result } from "../../types.js";
import { argumentId } from "./ids.js";
import { checkPhase } from "./machine.js";
import { renderArgument } from "./render.js";
import { checkSideArguments, countError } from "./rules/argument.js";
import { checkJudgment } from "./rules/judgment.js";
import { sideCode } from "./sides.js";

/**
 * Reads a debater's answer for the state's current exchange: extracts the JSON, validates it against
 * the SideOutput schema and every formal rule, then renders argument records with engine-assigned ids.
 */
export function parseSideAnswer(
  state: DebateState,
  role: DebaterRole,
  text: string,
): Result<ArgumentRecord[]> {
  const exchange = state.frontmatter.current_exchange;
  const phaseErrors = checkPhase(state, "awaiting_arguments", exchange);
  if (phaseErrors.length > 0) return fail(...phaseErrors);
  const json = extractJson(text);
  if (!json.ok) return json;
  const schema = validateSideOutput(json.value);
  if (!schema.ok) {
    // The schema caps the count at 1-3 for every exchange; the engine knows the exact count, so it says that instead.
    const drafts = (json.value as { arguments?: unknown }).arguments;
    const count = Array.isArray(drafts) ? countError(drafts.length, exchange) : undefined;
    const rest = schema.errors.filter((e) => !(count && e.path === "arguments"));
    return fail(
      ...(count ? [count] : []),
      ...schemaRuleErrors("ANSWER_SCHEMA", "the answer does not match the expected shape", rest),
    );
  }
  const output: SideOutput = schema.value;
  const errors = checkSideArguments(output, role, exchange, state.arguments);
  if (errors.length > 0) return fail(...errors);
  const side = sideCode(role);
  return ok(
    output.arguments.map((draft, i) =>
      renderArgument(draft, {
        id: argumentId(side, exchange, exchange === 0 ? i : undefined),
        side,
        exchange,
      }),
    ),
  );
}

/** Reads the judge's answer for the state's current exchange: extract, Judgment schema, then the scoring rules. */
export function parseJudgeAnswer(state: DebateState, text: string): Result<Judgment> {
  const exchange = state.frontmatter.current_exchange;
  const phaseErrors = checkPhase(state, "awaiting_judgment", exchange);
  if (phaseErrors.length > 0) return fail(...phaseErrors);
  const json = extractJson(text);
  if (!json.ok) return json;
  const schema = validateJudgment(json.value);
  if (!schema.ok)
    return fail(
      ...schemaRuleErrors("JUDGMENT_SCHEMA", "the judgment does not match the expected shape", schema.errors),
    );
  const errors = checkJudgment(schema.value, exchange, state.arguments, state.scores);
  if (errors.length > 0) return fail(...errors);
  // Keep only the schema's fields: stray keys in model output never reach the scores file.
  const judgment: Judgment = {
    scores: schema.value.scores.map(({ argument_id, score, reasoning }) => ({
      argument_id,
      score,
      reasoning,
    })),
  };
  if (schema.value.rescores?.length) {
    judgment.rescores = schema.value.rescores.map(({ argument_id, old_score, new_score, reasoning }) => ({
      argument_id,
      old_score,
      new_score,
      reasoning,
    }));
  }
  return ok(judgment);
}
