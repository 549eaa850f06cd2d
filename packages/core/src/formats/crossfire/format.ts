import {
  type CrossfireFrontmatter,
  type CrossfireSummary,
  type CrossfireTurn,
  type CrossfireVerdict,
  type DebateFrontmatter,
  type Degradation,
  type SeatConfig,
  validateCrossfireFrontmatter,
  validateCrossfireSummary,
  validateCrossfireTurn,
  validateCrossfireVerdict,
  validatePanelResult,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { ballotOf, callsPerJudgedStep, FALLBACK_ROLE, isJudgeRole, judgingOf } from "../../judging/panel.js";
import { panelDegradations } from "../../judging/votes.js";
import { schemaRuleErrors } from "../../schema-errors.js";
import type { DebateState, Result, RuleError } from "../../types.js";
import { judgeAsks, selfJudgingProblem } from "../formal/judges.js";
import {
  defineFormat,
  type FormatRecord,
  type FormatStep,
  type NewDebateInit,
  type Standing,
} from "../format.js";
import { checkCommittedCrossfire } from "./committed.js";
import { importAgentsysDebate } from "./import.js";
import {
  combineVerdicts,
  crossfireJudgePrompt,
  crossfirePanels,
  PANEL_VERDICT_FILE,
  PANEL_VERDICT_NAME,
  parseJudgeVerdict,
  verdictReliability,
} from "./judges.js";
import { buildCrossfirePrompt, summaryInput } from "./prompt.js";
import { renderSummary, renderTurn, renderVerdict } from "./render.js";
import { crossfireReport } from "./report.js";
import { crossfireReset } from "./reset.js";
import { assignIds, checkTurn, turnKind } from "./rules.js";
import {
  asDebateFrontmatter,
  type CrossfireSide,
  crossfireFrontmatter,
  isCommitted,
  SUMMARY_NAME,
  summaryFile,
  TURN_NAME,
  turnFile,
  turnsOf,
  VERDICT_FILE,
  VERDICT_NAME,
  verdictOf,
  withRecords,
} from "./state.js";
import { checkSummary } from "./summary.js";

type Phase = CrossfireFrontmatter["current_phase"];

/** The seat that answers in each phase that asks one. */
const ROLE_OF_PHASE: Partial<Record<Phase, string>> = {
  awaiting_summary: "summarizer",
  awaiting_proposer: "proposer",
  awaiting_challenger: "challenger",
  awaiting_verdict: "judge",
};

const SEATS_EXAMPLE =
  "seats:\n  proposer: { adapter: codex }\n  challenger: { adapter: gemini }\n  judge: { adapter: claude }";

function phaseError(state: DebateState, role: string): RuleError | undefined {
  const fm = crossfireFrontmatter(state);
  const wanted = ROLE_OF_PHASE[fm.current_phase];
  if (wanted === role || (wanted === "judge" && isJudgeRole(role))) return undefined;
  return ruleError(
    "DEBATE_PHASE_MISMATCH",
    "current_phase",
    `expected the ${wanted ?? "nobody"} to answer in ${fm.current_phase} at round ${fm.current_exchange}, not the ${role} (was this step already applied?)`,
  );
}

function parseJson<T>(
  text: string,
  validate: (
    data: unknown,
  ) => { ok: true; value: T } | { ok: false; errors: { path: string; message: string; keyword: string }[] },
  what: string,
): Result<T> {
  const json = extractJson(text);
  if (!json.ok) return json;
  const checked = validate(json.value);
  if (!checked.ok) return fail(...schemaRuleErrors("ANSWER_SCHEMA", what, checked.errors));
  return ok(checked.value);
}

/** The frontmatter after a step: marker moved, other keys kept. */
function moved(
  fm: CrossfireFrontmatter,
  round: number,
  phase: Phase,
  extra: Partial<CrossfireFrontmatter> = {},
): CrossfireFrontmatter {
  return { ...fm, ...extra, current_exchange: round, current_phase: phase };
}

/** The step after the challenger's turn of `round`: the next round (its summary first from round 3), or the verdict. */
function afterChallenger(fm: CrossfireFrontmatter, round: number): { round: number; phase: Phase } {
  if (round >= fm.rounds) return { round, phase: "awaiting_verdict" };
  return { round: round + 1, phase: round + 1 >= 3 ? "awaiting_summary" : "awaiting_proposer" };
}

function record(file: string, frontmatter: object, body: string): FormatRecord {
  return { file, frontmatter: frontmatter as Record<string, unknown>, body };
}

function outcomeLabel(fm: CrossfireFrontmatter): string | undefined {
  if (!fm.outcome) return undefined;
  if (fm.outcome === "partial") return `partial (rounds 1-${fm.completed_rounds ?? 0} of ${fm.rounds})`;
  return fm.outcome;
}

/** Why a crossfire result rests on less than configured: each failed seat with its error, and the rounds it lacks. */
function crossfireDegraded(fm: CrossfireFrontmatter): Degradation[] {
  const seats = fm.seats as Record<string, SeatConfig | undefined> | undefined;
  const failed: Degradation[] = (fm.failures ?? []).map((f) => ({
    cause: "seat_failed",
    message: `the ${f.role} failed in round ${f.round}`,
    role: f.role,
    ...(seats?.[f.role] ? { adapter: seats[f.role]!.adapter } : {}),
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
): Result<{ frontmatter: DebateFrontmatter; warnings: string[] }> {
  type Adapter = SeatConfig["adapter"];
  const seat = (adapter: string): SeatConfig => ({ adapter: adapter as Adapter, ...init.seatDefaults });
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
  const judgeSeats = init.judges ? init.judges.map(seat) : [seat(judge)];
  const seats: NonNullable<CrossfireFrontmatter["seats"]> = {
    proposer: seat(proposer),
    challenger: seat(challenger),
    ...(init.judges ? {} : { judge: judgeSeats[0]! }),
    ...(init.seats.summarizer ? { summarizer: seat(init.seats.summarizer) } : {}),
  };
  const warnings: string[] = [];
  for (const judgeSeat of judgeSeats)
    for (const side of ["proposer", "challenger"] as const) {
      const debater = seats[side];
      if (debater.adapter === judgeSeat.adapter && debater.model === judgeSeat.model) {
        warnings.push(
          `the judge (${judgeSeat.adapter}${judgeSeat.model ? ` ${judgeSeat.model}` : ""}) is the same adapter and model as the ${side}: it may favour its own side; pass --judge with another CLI`,
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
  return ok({ frontmatter: asDebateFrontmatter(frontmatter), warnings });
}

/** The crossfire format (docs/architecture.md#formats, agentsys /debate): proposer vs challenger in rounds, a verdict that picks a side. */
export const crossfireFormat = defineFormat<DebateFrontmatter>({
  name: "crossfire",
  roles: [
    { role: "proposer", kind: "debater", description: "proposes and defends" },
    { role: "challenger", kind: "debater", description: "challenges" },
    { role: "judge", kind: "judge", description: "gives the verdict (with a panel: judge_2 .. judge_5 too)" },
    {
      role: FALLBACK_ROLE,
      kind: "fallback",
      description: "gives the verdict when too few of the panel answered",
    },
    { role: "summarizer", kind: "summarizer", description: "summarizes rounds from round 3" },
    { role: "reporter", kind: "reporter", description: "writes the report's narrative (optional)" },
  ],
  unit: { one: "round", many: "rounds" },
  tournament: { first: "proposer", second: "challenger", judge: "judge" },
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
  isRecordCommitted: (frontmatter, file) => isCommitted(frontmatter as unknown as CrossfireFrontmatter, file),
  seat(state, role) {
    const fm = crossfireFrontmatter(state);
    const seats = fm.seats;
    if (!seats) return undefined;
    // The summarizer defaults to the judge's seat (docs/architecture.md#formats), else the panel's first judge.
    if (role === "summarizer") return seats.summarizer ?? seats.judge ?? fm.judges?.panel[0];
    if (isJudgeRole(role)) {
      const config = judgingOf(fm);
      if (!config) return undefined;
      return config.blind ? ballotOf(config, role)?.seat : role === "judge" ? config.panel[0] : undefined;
    }
    return (seats as unknown as Record<string, SeatConfig | undefined>)[role];
  },
  next(state): FormatStep {
    const fm = crossfireFrontmatter(state);
    const round = fm.current_exchange;
    if (fm.current_phase === "complete") {
      const verdict = verdictOf(state);
      const label = outcomeLabel(fm);
      const winner = verdict?.winner ?? fm.winner ?? "?";
      return {
        kind: "done",
        reason: "complete",
        message: `verdict: ${winner === "tie" ? "a tie (the judge panel is split)" : `the ${winner} wins`}${label ? `, ${label}` : ` after ${fm.rounds} round(s)`}`,
      };
    }
    if (fm.current_phase === "aborted") {
      const failure = fm.failures?.[0];
      return {
        kind: "done",
        reason: "aborted",
        message: `aborted: the proposer failed round 1${failure ? ` (${failure.code}: ${failure.message})` : ""}`,
      };
    }
    if (fm.paused)
      return {
        kind: "blocked",
        reason: "paused",
        message: "debate.md: `paused: true`; set it to false to continue",
      };
    if (!fm.seats) {
      return {
        kind: "blocked",
        reason: "no_seats",
        message: `debate.md has no \`seats\`, so nobody can argue; add them to the frontmatter, e.g.\n${SEATS_EXAMPLE}`,
      };
    }
    const role = ROLE_OF_PHASE[fm.current_phase]!;
    if (role === "judge") {
      if (fm.judges && fm.seats.judge)
        return {
          kind: "blocked",
          reason: "judges_twice",
          message:
            "debate.md has both `seats.judge` and `judges:`; keep one (a panel in `judges.panel`, or the one judge in `seats.judge`)",
        };
      const config = judgingOf(fm);
      if (!config)
        return {
          kind: "blocked",
          reason: "no_seats",
          message:
            "debate.md names no judge: add `seats.judge`, or a panel in `judges:` (e.g. judges: { panel: [{ adapter: codex }, { adapter: gemini }] })",
        };
      const self = config.blind ? selfJudgingProblem(state, config, ["proposer", "challenger"]) : undefined;
      if (self) return { kind: "blocked", reason: "self_judging", message: self };
      if (config.blind)
        return {
          kind: "ask",
          exchange: round,
          phase: fm.current_phase,
          mode: "parallel",
          ...judgeAsks(config, "verdict"),
          opens: false,
          completed: fm.outcome ? (fm.completed_rounds ?? 0) : round,
        };
    }
    const task =
      role === "summarizer"
        ? "summary"
        : role === "judge"
          ? "verdict"
          : turnKind(role as CrossfireSide, round);
    const done =
      fm.current_phase === "awaiting_verdict" ? (fm.outcome ? (fm.completed_rounds ?? 0) : round) : round - 1;
    return {
      kind: "ask",
      exchange: round,
      phase: fm.current_phase,
      mode: "sequential",
      asks: [{ role, task }],
      // A round opens with its summary (round 3+) or its proposer.
      opens:
        fm.current_phase === "awaiting_summary" || (fm.current_phase === "awaiting_proposer" && round < 3),
      completed: done,
    };
  },
  prompt: (state, role, options = {}) =>
    isJudgeRole(role)
      ? crossfireJudgePrompt(state, role, options)
      : buildCrossfirePrompt(state, role, options),
  skillTask(state, role) {
    const round = crossfireFrontmatter(state).current_exchange;
    if (role === "summarizer") return "summary";
    if (isJudgeRole(role)) return "verdict";
    return turnKind(role as CrossfireSide, round);
  },
  parseAnswer(state, role, text): Result<unknown> {
    const wrong = phaseError(state, role);
    if (wrong) return fail(wrong);
    const fm = crossfireFrontmatter(state);
    const round = fm.current_exchange;
    if (role === "proposer" || role === "challenger") {
      const turn = parseJson<CrossfireTurn>(
        text,
        validateCrossfireTurn,
        "the turn does not match the expected shape",
      );
      if (!turn.ok) return turn;
      const errors = checkTurn(turn.value, role, round, turnsOf(state));
      return errors.length > 0 ? fail(...errors) : ok(assignIds(turn.value, role, round));
    }
    if (role === "summarizer") {
      const summary = parseJson<CrossfireSummary>(
        text,
        validateCrossfireSummary,
        "the summary does not match the expected shape",
      );
      if (!summary.ok) return summary;
      const errors = checkSummary(summary.value, summaryInput(state, round).covered);
      if (errors.length > 0) return fail(...errors);
      const { round: _r, covers: _c, ...rest } = summary.value;
      return ok({ round, covers: round - 2, ...rest });
    }
    // The verdict: one judge's, or a panel judge's with its labels mapped back to the sides.
    return parseJudgeVerdict(state, role, text);
  },
  apply(state, answers, _now, meta = {}) {
    const fm = crossfireFrontmatter(state);
    const round = fm.current_exchange;
    const role = ROLE_OF_PHASE[fm.current_phase];
    if (role === "judge" && judgingOf(fm)?.blind) {
      // A verdict panel: the judges' votes combined; verdict.md and the panel's judges/verdict.md.
      const panel = combineVerdicts(state, answers, meta.failures ?? {});
      if (!panel.ok) return panel;
      const { verdict, record: panelRecord, result, config } = panel.value;
      const taken = [VERDICT_FILE, PANEL_VERDICT_FILE].find((f) =>
        (state.records ?? []).some((r) => r.file === f),
      );
      if (taken)
        return fail(
          ruleError(
            "RECORD_EXISTS",
            taken,
            `expected a new ${taken}, found it already committed (was this step already applied?)`,
          ),
        );
      const next = moved(fm, round, "complete", {
        winner: verdict.winner,
        reliability: verdictReliability(config, result),
      });
      return ok({
        ...state,
        frontmatter: asDebateFrontmatter(next),
        records: withRecords(state, [record(VERDICT_FILE, verdict, renderVerdict(verdict)), panelRecord]),
      });
    }
    if (!role || !(role in answers)) {
      return fail(
        ruleError(
          "DEBATE_PHASE_MISMATCH",
          "current_phase",
          `expected an answer of the ${role ?? "nobody"} for ${fm.current_phase} at round ${round}`,
        ),
      );
    }
    const answer = answers[role];
    let file: string;
    let body: string;
    let next: CrossfireFrontmatter;
    if (role === "proposer" || role === "challenger") {
      const turn = answer as CrossfireTurn;
      if (turn.round !== round || turn.role !== role) {
        return fail(
          ruleError(
            "DEBATE_PHASE_MISMATCH",
            "round",
            `expected the ${role}'s turn of round ${round}, found ${turn.role} of round ${turn.round}`,
          ),
        );
      }
      file = turnFile(round, role);
      body = renderTurn(turn);
      const after =
        role === "proposer" ? { round, phase: "awaiting_challenger" as Phase } : afterChallenger(fm, round);
      next = moved(fm, after.round, after.phase);
    } else if (role === "summarizer") {
      file = summaryFile(round);
      body = renderSummary(answer as CrossfireSummary);
      next = moved(fm, round, "awaiting_proposer");
    } else {
      const verdict = answer as CrossfireVerdict;
      file = VERDICT_FILE;
      body = renderVerdict(verdict);
      next = moved(fm, round, "complete", { winner: verdict.winner });
    }
    if ((state.records ?? []).some((r) => r.file === file)) {
      return fail(
        ruleError(
          "RECORD_EXISTS",
          file,
          `expected a new ${file}, found it already committed (was this step already applied?)`,
        ),
      );
    }
    return ok({
      ...state,
      frontmatter: asDebateFrontmatter(next),
      records: withRecords(state, [record(file, answer as object, body)]),
    });
  },
  onSeatFailure(state, role, failure, _now) {
    const fm = crossfireFrontmatter(state);
    const round = fm.current_exchange;
    if (role !== "proposer" && role !== "challenger" && role !== "summarizer") return undefined;
    const failures: NonNullable<CrossfireFrontmatter["failures"]> = [
      ...(fm.failures ?? []),
      {
        role: role as "proposer" | "challenger" | "summarizer",
        round,
        code: clipText(failure.code, 100),
        message: clipText(failure.message, 300),
      },
    ];
    let next: CrossfireFrontmatter;
    if (round === 1 && role === "proposer") {
      next = moved(fm, round, "aborted", { outcome: "aborted", completed_rounds: 0, failures });
    } else if (round === 1 && role === "challenger") {
      next = moved(fm, round, "awaiting_verdict", { outcome: "uncontested", completed_rounds: 0, failures });
    } else {
      // Round 2+: the rounds stop; the verdict uses the completed ones.
      next = moved(fm, round, "awaiting_verdict", {
        outcome: "partial",
        completed_rounds: round - 1,
        failures,
      });
    }
    return ok({ ...state, frontmatter: asDebateFrontmatter(next) });
  },
  checkCommitted: (state) => checkCommittedCrossfire(state),
  // Each round: the proposer, then the challenger; rounds 3+ open with a summary; one verdict (every ballot of a panel).
  plannedCalls(frontmatter) {
    const fm = crossfireFrontmatter({ frontmatter });
    const rounds = fm.rounds;
    return {
      proposer: rounds,
      challenger: rounds,
      summarizer: Math.max(0, rounds - 2),
      judge: callsPerJudgedStep(fm),
    };
  },
  standing(state): Standing {
    const fm = crossfireFrontmatter(state);
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
  newOptions: {
    seats: [
      { role: "proposer", description: "who proposes and defends (required)", required: true },
      { role: "challenger", description: "who challenges (required)", required: true },
      {
        role: "judge",
        description:
          "who gives the verdict (default: claude, codex or gemini, whichever debates in neither seat)",
      },
      { role: "summarizer", description: "who summarizes rounds from round 3 (default: the judge)" },
    ],
    length: { flag: "rounds", description: "how many rounds", default: 2, min: 1, max: 5 },
    panel: true,
  },
  importers: {
    agentsys: {
      description:
        "agentsys /debate's last-debate.json: topic, seats, effort and rounds; its transcript kept in debate.md",
      import: (data, init) => importAgentsysDebate(data, init, newCrossfireDebate),
    },
  },
  newDebate: (init) => newCrossfireDebate(init),
});
