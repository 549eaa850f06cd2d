import {
  type Judgment,
  type SideOutput,
  type ValidationError,
  validateJudgment,
  validateSideOutput,
} from "@debatekit/schema";
import { fail, ok } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { answerProblems, pathWithin, schemaRuleErrors } from "../../schema-errors.js";
import type { ArgumentRecord, DebaterRole, DebateState, Result, RuleError } from "../../types.js";
import { argumentId } from "./ids.js";
import { checkPhase } from "./machine.js";
import { renderArgument } from "./render.js";
import { checkSideArguments, countError } from "./rules/argument.js";
import { checkJudgment } from "./rules/judgment.js";
import { sideCode } from "./sides.js";

/**
 * The schema's errors of a side's answer, without the argument count the schema caps at 1-3 for
 * every exchange: the engine knows the exact count, and its ARGUMENT_COUNT says that instead.
 */
function shapeErrors(errors: readonly ValidationError[], output: SideOutput, exchange: number): RuleError[] {
  const drafts: unknown = output.arguments;
  const counted = Array.isArray(drafts) && countError(drafts.length, exchange) !== undefined;
  const rest = errors.filter((e) => !(counted && e.path === "arguments"));
  return schemaRuleErrors("ANSWER_SCHEMA", "the answer does not match the expected shape", rest);
}

/** Codes of the rules that say an opening's attacks or defends must go, whatever they hold. */
const OPENING_LINKS = new Set(["ARGUMENT_ATTACK_IN_OPENING", "ARGUMENT_DEFENSE_IN_OPENING"]);

/**
 * Leaves out the shape errors inside an opening's attacks and defends: they must be removed, and
 * asking a person to fix their shape first sends them the wrong way.
 */
function withoutMootLinks(errors: RuleError[]): RuleError[] {
  const moot = errors.filter((e) => OPENING_LINKS.has(e.code)).map((e) => e.path);
  return errors.filter((e) => !(e.code === "ANSWER_SCHEMA" && moot.some((p) => pathWithin(e.path, p))));
}

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
  // The rules run on a refused answer too, so every problem is reported in one attempt.
  const output = (schema.ok ? schema.value : json.value) as SideOutput;
  const errors = withoutMootLinks(
    answerProblems(schema.ok ? [] : shapeErrors(schema.errors, output, exchange), () =>
      checkSideArguments(output, role, exchange, state.arguments),
    ),
  );
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
  const errors = answerProblems(
    schema.ok
      ? []
      : schemaRuleErrors("JUDGMENT_SCHEMA", "the judgment does not match the expected shape", schema.errors),
    () =>
      checkJudgment(
        (schema.ok ? schema.value : json.value) as Judgment,
        exchange,
        state.arguments,
        state.scores,
      ),
  );
  if (!schema.ok || errors.length > 0) return fail(...errors);
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
