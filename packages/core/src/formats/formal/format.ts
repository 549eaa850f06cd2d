import {
  type DebateFrontmatter,
  type SeatConfig,
  validateDebateFrontmatter,
  validatePanelResult,
} from "@debatekit/schema";
import { fail, ok, ruleError } from "../../errors.js";
import {
  ballotOf,
  callsPerJudgedStep,
  isJudgeRole,
  isSelfJudging,
  judgeAsks,
  judgingOf,
  seatWords,
  selfJudgingProblem,
} from "../../judging/panel.js";
import type { ArgumentRecord, DebaterRole, DebateState, RuleError, SeatRole } from "../../types.js";
import { defineFormat } from "../format.js";
import { recordExists } from "../steps.js";
import { parseSideAnswer } from "./answers.js";
import { formalDeclaration } from "./declaration.js";
import { renderArgumentGraph } from "./graph.js";
import {
  combinePanel,
  formalPanels,
  judgePrompt,
  PANEL_NAME,
  panelExchange,
  parseJudge,
  reliabilityFrom,
} from "./judges.js";
import { applyArguments, applyJudgment, nextAction, reopenFormal } from "./machine.js";
import { buildPrompt } from "./prompt.js";
import { formalReport } from "./report.js";
import { formalReset } from "./reset.js";
import { checkCommittedState } from "./rules/committed.js";
import { formalStanding } from "./standing.js";

const isDebater = (role: string): role is DebaterRole => role === "proposition" || role === "opposition";

/** The formal format (docs/architecture.md#formats, the dialectic plugin): Toulmin arguments, a judge scoring every one. */
/** ANSWER_MISSING: a step applied without the answer its phase needs (never a crash, never a half step). */
function answerMissing(role: string, state: DebateState): RuleError {
  const { current_phase: phase, current_exchange: exchange } = state.frontmatter;
  return ruleError(
    "ANSWER_MISSING",
    role,
    `expected the ${role}'s answer for ${phase} at exchange ${exchange}, found none`,
  );
}

export const formalFormat = defineFormat<DebateFrontmatter>({
  ...formalDeclaration,
  reset: formalReset,
  report: formalReport,
  seats: ["proposition", "opposition", "judge"],
  // Journal step keys: the names journal files have always had (`x0001-1-arguments-...`).
  phases: { awaiting_arguments: "1-arguments", awaiting_judgment: "2-judgment" },
  folders: ["arguments"],
  // The panel's record of each judged exchange (judges:): labels, orders, every judge's scores, figures.
  records: [
    { dir: "judges", name: PANEL_NAME, validate: (data: unknown) => validatePanelResult(data) as never },
  ],
  derivedFiles: (state) => [{ file: "argument-graph.mmd", content: renderArgumentGraph(state) }],
  validateFrontmatter: (data: unknown) => validateDebateFrontmatter(data),
  isRecordCommitted: (frontmatter, file) => {
    const exchange = panelExchange(file);
    return exchange !== undefined && exchange < frontmatter.current_exchange;
  },
  seat(state, role) {
    if (isJudgeRole(role)) {
      const config = judgingOf(state.frontmatter);
      if (!config) return undefined;
      return config.blind ? ballotOf(config, role)?.seat : role === "judge" ? config.panel[0] : undefined;
    }
    return state.frontmatter.seats?.[role as SeatRole];
  },
  next(state) {
    const fm = state.frontmatter;
    if (fm.judges && fm.seats?.judge) {
      return {
        kind: "blocked",
        reason: "judges_twice",
        message:
          "debate.md has both `seats.judge` and `judges:`; keep one (a panel in `judges.panel`, or the one judge in `seats.judge`)",
      };
    }
    const action = nextAction(state);
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
      case "judgment": {
        const config = judgingOf(fm);
        if (!config) {
          return {
            kind: "blocked",
            reason: "no_seats",
            message:
              "debate.md names no judge: add `seats.judge`, or a panel in `judges:` (e.g. judges: { panel: [{ adapter: codex }, { adapter: gemini }] })",
          };
        }
        const self = selfJudgingProblem(state, config);
        if (self) return { kind: "blocked", reason: "self_judging", message: self };
        return {
          kind: "ask",
          exchange: action.exchange,
          phase: "awaiting_judgment",
          mode: "parallel",
          ...judgeAsks(config),
          opens: false,
          completed: action.exchange,
        };
      }
      case "reopen":
        return {
          kind: "advance",
          reason: "reopened",
          message: `exchanges raised to ${fm.exchanges}: exchange ${action.exchange} awaits arguments`,
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
  advance: reopenFormal,
  prompt: (state, role, options = {}) =>
    isJudgeRole(role) ? judgePrompt(state, role, options) : buildPrompt(state, role as SeatRole, options),
  skillTask: (state, role) =>
    isJudgeRole(role) ? "judgment" : state.frontmatter.current_exchange === 0 ? "opening" : "rebuttal",
  parseAnswer(state, role, text) {
    if (state.frontmatter.current_phase === "awaiting_judgment" && isJudgeRole(role))
      return parseJudge(state, role, text);
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
  apply(state, answers, now, meta = {}) {
    const exchange = state.frontmatter.current_exchange;
    if (state.frontmatter.current_phase === "awaiting_judgment") {
      if (!judgingOf(state.frontmatter)?.blind) {
        if (answers.judge === undefined) return fail(answerMissing("judge", state));
        return applyJudgment(state, exchange, answers.judge as Parameters<typeof applyJudgment>[2], now);
      }
      // A panel: the combined judgment goes through the same rules as one judge's, then its record.
      const panel = combinePanel(state, answers, meta.failures ?? {});
      if (!panel.ok) return panel;
      if ((state.records ?? []).some((r) => r.file === panel.value.record.file))
        return fail(recordExists(panel.value.record.file));
      const applied = applyJudgment(state, exchange, panel.value.judgment, now);
      if (!applied.ok) return applied;
      const results = [...formalPanels(state), panel.value.result];
      return ok({
        ...applied.value,
        frontmatter: {
          ...applied.value.frontmatter,
          reliability: reliabilityFrom(panel.value.config, results),
        },
        records: [...(state.records ?? []), panel.value.record].sort((a, b) => (a.file < b.file ? -1 : 1)),
      });
    }
    const missing = (["proposition", "opposition"] as const).filter((side) => answers[side] === undefined);
    if (missing.length > 0) return fail(...missing.map((side) => answerMissing(side, state)));
    return applyArguments(state, exchange, {
      proposition: (answers.proposition ?? []) as ArgumentRecord[],
      opposition: (answers.opposition ?? []) as ArgumentRecord[],
    });
  },
  checkCommitted: (state) => checkCommittedState(state),
  // Every exchange (the opening included) asks both sides, then the judge (every ballot of a panel).
  plannedCalls: (fm) => ({
    proposition: fm.exchanges ?? 0,
    opposition: fm.exchanges ?? 0,
    judge: (fm.exchanges ?? 0) * callsPerJudgedStep(fm),
  }),
  standing: (state) => formalStanding(state),
  newDebate(init) {
    type Adapter = SeatConfig["adapter"];
    const seat = (adapter: string, role = ""): SeatConfig => ({
      // Checked against the seat schema by createDebateFolder, which names the bad field.
      adapter: adapter as Adapter,
      ...init.seatDefaults,
      ...init.seatSettings?.[role],
    });
    const proposition = init.seats.proposition ?? "claude";
    const opposition = init.seats.opposition ?? "gemini";
    // Judges of other families than the debaters' when none is named (Verga et al. 2024).
    const named = init.judges ?? (init.seats.judge ? [init.seats.judge] : undefined);
    const judges = named ?? [
      ["codex", "gemini", "claude", "opencode"].find((a) => a !== proposition && a !== opposition)!,
    ];
    if (judges.length > 5)
      return fail(ruleError("JUDGES_TOO_MANY", "judges", `expected 1-5 judges, found ${judges.length}`));
    const debaters = {
      proposition: seat(proposition, "proposition"),
      opposition: seat(opposition, "opposition"),
    };
    const panel = judges.map((j) => seat(j, init.judges ? "" : "judge"));
    if (!init.allowSelfJudging) {
      for (const judge of panel)
        for (const [side, debater] of Object.entries(debaters))
          if (isSelfJudging(judge, debater))
            return fail(
              ruleError(
                "SELF_JUDGING",
                "judges",
                `the judge ${seatWords(judge)} is also the ${side} (the same adapter, model and endpoint); models favour their own text, so name another judge, or pass --allow-self-judging`,
              ),
            );
    }
    const frontmatter: DebateFrontmatter = {
      debate_id: init.slug,
      format: "formal",
      exchanges: init.length ?? 5,
      current_exchange: 0,
      current_phase: "awaiting_arguments",
      seats: debaters,
      judges: {
        panel,
        ...(init.swap ? { swap: true } : {}),
        ...(init.allowSelfJudging ? { allow_self_judging: true } : {}),
      },
      created_at: init.now,
      cumulative_scores: { proposition: { total: 0, count: 0 }, opposition: { total: 0, count: 0 } },
    };
    return ok({ frontmatter, warnings: [] });
  },
});
