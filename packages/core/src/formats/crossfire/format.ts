import {
  type CrossfireFrontmatter,
  type Degradation,
  type SeatConfig,
  validateCrossfireFrontmatter,
  validateCrossfireSummary,
  validateCrossfireTurn,
  validateCrossfireVerdict,
  validatePanelResult,
} from "@debatekit/schema";
import { fail, ok, ruleError } from "../../errors.js";
import {
  ballotOf,
  callsPerJudgedStep,
  isJudgeRole,
  isSelfJudging,
  judgingOf,
  seatWords,
} from "../../judging/panel.js";
import { panelDegradations } from "../../judging/votes.js";
import { seatConfigs } from "../../seats.js";
import type { Result } from "../../types.js";
import { defineFormat, type NewDebateInit, type Standing } from "../format.js";
import { checkCommittedCrossfire } from "./committed.js";
import { crossfireDeclaration } from "./declaration.js";
import { importAgentsysDebate } from "./import.js";
import { crossfireJudgePrompt, crossfirePanels, PANEL_VERDICT_NAME } from "./judges.js";
import {
  applyCrossfireStep,
  failCrossfireSeat,
  nextCrossfireStep,
  outcomeLabel,
  parseCrossfireAnswer,
} from "./machine.js";
import { buildCrossfirePrompt } from "./prompt.js";
import { crossfireReport } from "./report.js";
import { crossfireReset } from "./reset.js";
import { turnKind } from "./rules.js";
import {
  type CrossfireSide,
  isCommitted,
  SUMMARY_NAME,
  TURN_NAME,
  VERDICT_NAME,
  verdictOf,
} from "./state.js";

/** Why a crossfire result rests on less than configured: each failed seat with its error, and the rounds it lacks. */
function crossfireDegraded(fm: CrossfireFrontmatter): Degradation[] {
  const seats = seatConfigs(fm);
  const failed: Degradation[] = (fm.failures ?? []).map((f) => ({
    cause: "seat_failed",
    message: `the ${f.role} failed in round ${f.round}`,
    role: f.role,
    ...(seats[f.role] ? { adapter: seats[f.role]!.adapter } : {}),
    round: f.round,
    code: f.code,
    error: f.message,
  }));
  const used = fm.completed_rounds ?? 0;
  return [
    ...failed,
    {
      cause: "rounds_missing",
      message: `${fm.outcome}: the verdict rests on ${used} of ${fm.rounds} round(s)`,
      configured: fm.rounds,
      used,
    },
  ];
}

/** debate.md of a new crossfire debate, and a warning when the judge is a debater's adapter and model. */
function newCrossfireDebate(
  init: NewDebateInit,
): Result<{ frontmatter: CrossfireFrontmatter; warnings: string[] }> {
  type Adapter = SeatConfig["adapter"];
  const seat = (adapter: string, role = ""): SeatConfig => ({
    adapter: adapter as Adapter,
    ...init.seatDefaults,
    ...init.seatSettings?.[role],
  });
  const proposer = init.seats.proposer;
  const challenger = init.seats.challenger;
  if (!proposer || !challenger) {
    return fail(
      ruleError(
        "SEAT_MISSING",
        proposer ? "challenger" : "proposer",
        "crossfire needs --proposer <adapter> and --challenger <adapter>",
      ),
    );
  }
  if (init.judges && init.judges.length > 5)
    return fail(ruleError("JUDGES_TOO_MANY", "judges", `expected 1-5 judges, found ${init.judges.length}`));
  // Default judge: a CLI that debates in neither seat. `--judges`: a blind panel in `judges:`.
  const judge =
    init.seats.judge ?? ["claude", "codex", "gemini"].find((a) => a !== proposer && a !== challenger)!;
  const judgeSeats = init.judges ? init.judges.map((j) => seat(j)) : [seat(judge, "judge")];
  const seats: NonNullable<CrossfireFrontmatter["seats"]> = {
    proposer: seat(proposer, "proposer"),
    challenger: seat(challenger, "challenger"),
    ...(init.judges ? {} : { judge: judgeSeats[0]! }),
    ...(init.seats.summarizer ? { summarizer: seat(init.seats.summarizer, "summarizer") } : {}),
  };
  const warnings: string[] = [];
  for (const judgeSeat of judgeSeats)
    for (const side of ["proposer", "challenger"] as const) {
      if (isSelfJudging(judgeSeat, seats[side])) {
        warnings.push(
          `the judge (${seatWords(judgeSeat)}) is the ${side}'s own adapter, model and endpoint: it may favour its own side; pass --judge with another CLI or model`,
        );
      }
    }
  const frontmatter: CrossfireFrontmatter = {
    debate_id: init.slug,
    format: "crossfire",
    rounds: init.length ?? 2,
    current_exchange: 1,
    current_phase: "awaiting_proposer",
    seats,
    ...(init.judges
      ? {
          judges: {
            panel: judgeSeats,
            ...(init.swap ? { swap: true } : {}),
            ...(init.allowSelfJudging ? { allow_self_judging: true } : {}),
          },
        }
      : {}),
    created_at: init.now,
  };
  return ok({ frontmatter, warnings });
}

/** The crossfire format (docs/architecture.md#formats, agentsys /debate): proposer vs challenger in rounds, a verdict that picks a side. */
export const crossfireFormat = defineFormat<CrossfireFrontmatter>({
  ...crossfireDeclaration,
  reset: crossfireReset,
  report: crossfireReport,
  seats: ["proposer", "challenger", "judge", "summarizer"],
  phases: {
    awaiting_summary: "0-summary",
    awaiting_proposer: "1-proposer",
    awaiting_challenger: "2-challenger",
    awaiting_verdict: "3-verdict",
  },
  folders: ["turns"],
  records: [
    { dir: "turns", name: TURN_NAME, validate: (data: unknown) => validateCrossfireTurn(data) as never },
    {
      dir: "turns",
      name: SUMMARY_NAME,
      validate: (data: unknown) => validateCrossfireSummary(data) as never,
    },
    { dir: "", name: VERDICT_NAME, validate: (data: unknown) => validateCrossfireVerdict(data) as never },
    // The verdict panel's record (judges:): labels, orders, every judge's verdict or error, figures.
    {
      dir: "judges",
      name: PANEL_VERDICT_NAME,
      validate: (data: unknown) => validatePanelResult(data) as never,
    },
  ],
  validateFrontmatter: (data: unknown) => validateCrossfireFrontmatter(data) as never,
  isRecordCommitted: isCommitted,
  seat(state, role) {
    const fm = state.frontmatter;
    const seats = fm.seats;
    if (!seats) return undefined;
    // The summarizer defaults to the judge's seat (docs/architecture.md#formats), else the panel's first judge.
    if (role === "summarizer") return seats.summarizer ?? seats.judge ?? fm.judges?.panel[0];
    if (isJudgeRole(role)) {
      const config = judgingOf(fm);
      if (!config) return undefined;
      return config.blind ? ballotOf(config, role)?.seat : role === "judge" ? config.panel[0] : undefined;
    }
    return seatConfigs(fm)[role];
  },
  next: nextCrossfireStep,
  prompt: (state, role, options = {}) =>
    isJudgeRole(role)
      ? crossfireJudgePrompt(state, role, options)
      : buildCrossfirePrompt(state, role, options),
  skillTask(state, role) {
    const round = state.frontmatter.current_exchange;
    if (role === "summarizer") return "summary";
    if (isJudgeRole(role)) return "verdict";
    return turnKind(role as CrossfireSide, round);
  },
  parseAnswer: parseCrossfireAnswer,
  apply: applyCrossfireStep,
  onSeatFailure: failCrossfireSeat,
  checkCommitted: (state) => checkCommittedCrossfire(state),
  // Each round: the proposer, then the challenger; rounds 3+ open with a summary; one verdict (every ballot of a panel).
  plannedCalls(frontmatter) {
    const fm = frontmatter;
    const rounds = fm.rounds;
    return {
      proposer: rounds,
      challenger: rounds,
      summarizer: Math.max(0, rounds - 2),
      judge: callsPerJudgedStep(fm),
    };
  },
  standing(state): Standing {
    const fm = state.frontmatter;
    const verdict = verdictOf(state);
    const complete = fm.current_phase === "complete" || fm.current_phase === "aborted";
    const done =
      fm.outcome !== undefined
        ? (fm.completed_rounds ?? 0)
        : fm.current_phase === "awaiting_verdict" || fm.current_phase === "complete"
          ? fm.current_exchange
          : fm.current_exchange - 1;
    const label = outcomeLabel(fm);
    const winner = verdict?.winner ?? fm.winner;
    const degraded = [
      ...(fm.outcome ? crossfireDegraded(fm) : []),
      ...panelDegradations(crossfirePanels(state), () => ({ text: "the verdict" })),
    ];
    return {
      // Its turns, summaries and verdict are its records: none yet, nothing committed.
      started: (state.records ?? []).length > 0,
      phase: fm.current_phase,
      progress: { done, total: fm.rounds, unit: "round" },
      ...(winner
        ? {
            sides: {
              proposition: winner === "proposer" ? "winner" : "-",
              opposition: winner === "challenger" ? "winner" : "-",
            },
          }
        : {}),
      ...(winner
        ? { winner, headline: winner === "tie" ? "a tie: the judge panel is split" : `the ${winner} wins` }
        : {}),
      complete,
      ...(label ? { outcome: label } : {}),
      ...(degraded.length > 0 ? { degraded } : {}),
    };
  },
  importers: {
    agentsys: {
      ...crossfireDeclaration.importers.agentsys,
      import: (data, init) => importAgentsysDebate(data, init, newCrossfireDebate),
    },
  },
  newDebate: (init) => newCrossfireDebate(init),
});
