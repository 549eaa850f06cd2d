import { type DebateFrontmatter, validateDebateFrontmatter } from "@debatekit/schema";
import { parseJudgeAnswer, parseSideAnswer } from "../../answers.js";
import { fail, ok, ruleError } from "../../errors.js";
import { renderArgumentGraph } from "../../graph.js";
import { buildPrompt } from "../../prompt.js";
import { checkCommittedState } from "../../rules/committed.js";
import { cumulativeScores } from "../../scoring.js";
import type { ArgumentRecord, DebaterRole, SeatRole } from "../../types.js";
import { defineFormat } from "../format.js";
import { applyArguments, applyJudgment, nextAction } from "./machine.js";

const signed = (n: number) => {
  const v = Math.round(n * 100) / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(2)}`;
};

const isDebater = (role: string): role is DebaterRole => role === "proposition" || role === "opposition";

/** The formal format (DESIGN §3.2, the dialectic plugin): Toulmin arguments, a judge scoring every one. */
export const formalFormat = defineFormat({
  name: "formal",
  seats: ["proposition", "opposition", "judge"],
  // Journal step keys: the names journal files have always had (`x0001-1-arguments-...`).
  phases: { awaiting_arguments: "1-arguments", awaiting_judgment: "2-judgment" },
  folders: ["arguments"],
  records: [],
  derivedFiles: (state) => [{ file: "argument-graph.mmd", content: renderArgumentGraph(state) }],
  validateFrontmatter: (data: unknown) => validateDebateFrontmatter(data),
  isRecordCommitted: () => false,
  seat: (state, role) => state.frontmatter.seats?.[role as SeatRole],
  next(state) {
    const action = nextAction(state);
    const fm = state.frontmatter;
    switch (action.kind) {
      case "arguments": {
        const task = action.task;
        return {
          kind: "ask",
          exchange: action.exchange,
          phase: "awaiting_arguments",
          mode: "parallel",
          asks: [
            { role: "proposition", task },
            { role: "opposition", task },
          ],
          opens: true,
          completed: action.exchange,
        };
      }
      case "judgment":
        return {
          kind: "ask",
          exchange: action.exchange,
          phase: "awaiting_judgment",
          mode: "parallel",
          asks: [{ role: "judge", task: "judgment" }],
          opens: false,
          completed: action.exchange,
        };
      case "done":
        return {
          kind: "done",
          reason: action.reason,
          message:
            action.reason === "complete"
              ? `complete after ${fm.current_exchange} exchange(s)`
              : "debate.md has no `exchanges`: nothing to run (add `exchanges: N` to continue)",
        };
      default:
        return action;
    }
  },
  prompt: (state, role, options = {}) => buildPrompt(state, role as SeatRole, options),
  skillTask: (state, role) =>
    role === "judge" ? "judgment" : state.frontmatter.current_exchange === 0 ? "opening" : "rebuttal",
  parseAnswer(state, role, text) {
    if (state.frontmatter.current_phase === "awaiting_judgment" && role === "judge")
      return parseJudgeAnswer(state, text);
    if (state.frontmatter.current_phase === "awaiting_arguments" && isDebater(role))
      return parseSideAnswer(state, role, text);
    return fail(
      ruleError(
        "DEBATE_PHASE_MISMATCH",
        "current_phase",
        `the ${role} seat does not answer in ${state.frontmatter.current_phase}`,
      ),
    );
  },
  apply(state, answers, now) {
    const exchange = state.frontmatter.current_exchange;
    if (state.frontmatter.current_phase === "awaiting_judgment") {
      return applyJudgment(state, exchange, answers.judge as Parameters<typeof applyJudgment>[2], now);
    }
    return applyArguments(state, exchange, {
      proposition: (answers.proposition ?? []) as ArgumentRecord[],
      opposition: (answers.opposition ?? []) as ArgumentRecord[],
    });
  },
  checkCommitted: (state) => checkCommittedState(state),
  // Every exchange (the opening included) asks both sides, then the judge.
  plannedCalls: (fm) => ({
    proposition: fm.exchanges ?? 0,
    opposition: fm.exchanges ?? 0,
    judge: fm.exchanges ?? 0,
  }),
  standing(state) {
    const fm = state.frontmatter;
    const cumulative = cumulativeScores(state.scores);
    const complete =
      fm.exchanges === undefined ||
      (fm.current_phase === "awaiting_arguments" && fm.current_exchange >= fm.exchanges);
    return {
      phase: fm.exchanges !== undefined && complete ? "complete" : fm.current_phase,
      progress: {
        done: fm.current_exchange,
        ...(fm.exchanges !== undefined ? { total: fm.exchanges } : {}),
        unit: "exchange",
      },
      scores: { proposition: cumulative.proposition.total, opposition: cumulative.opposition.total },
      sides: {
        proposition: signed(cumulative.proposition.total),
        opposition: signed(cumulative.opposition.total),
      },
      complete,
    };
  },
  newOptions: {
    seats: [
      { role: "proposition", description: "who argues for the motion", default: "claude" },
      { role: "opposition", description: "who argues against it", default: "gemini" },
      { role: "judge", description: "who scores every argument", default: "codex" },
    ],
    length: {
      flag: "exchanges",
      description: "how many exchanges, the opening included",
      default: 5,
      min: 1,
      max: 1000,
    },
  },
  newDebate(init) {
    type Adapter = NonNullable<DebateFrontmatter["seats"]>["judge"]["adapter"];
    const seat = (role: string, fallback: string) => ({
      // Checked against the seat schema by createDebateFolder, which names the bad field.
      adapter: (init.seats[role] ?? fallback) as Adapter,
      ...init.seatDefaults,
    });
    const frontmatter: DebateFrontmatter = {
      debate_id: init.slug,
      format: "formal",
      exchanges: init.length ?? 5,
      current_exchange: 0,
      current_phase: "awaiting_arguments",
      seats: {
        proposition: seat("proposition", "claude"),
        opposition: seat("opposition", "gemini"),
        judge: seat("judge", "codex"),
      },
      created_at: init.now,
      cumulative_scores: { proposition: { total: 0, count: 0 }, opposition: { total: 0, count: 0 } },
    };
    return ok({ frontmatter, warnings: [] });
  },
});
