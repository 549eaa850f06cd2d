import type {
  Degradation,
  JudgeFigures,
  Judgment,
  PanelBallot,
  PanelResult,
  Reliability,
} from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { combineRescores, combineScores, judgeVote, type Vote } from "../../judging/combine.js";
import {
  type Ballot,
  ballotOf,
  ballotsOf,
  FALLBACK_ROLE,
  firstSide,
  type JudgingConfig,
  judgingOf,
  labelsFor,
} from "../../judging/panel.js";
import { flipRate, krippendorffAlpha, meanDeviation, roundFigure } from "../../judging/reliability.js";
import { roundScore } from "../../judging/round.js";
import {
  panelDegradations as degradationsOf,
  judgeOfRole,
  panelRecord,
  panelResultOf,
} from "../../judging/votes.js";
import type { BuildPromptOptions } from "../../prompt/options.js";
import type { DebateState, Result, RuleError } from "../../types.js";
import type { FormatRecord, SeatFailure } from "../format.js";
import { parseJudgeAnswer } from "./answers.js";
import { blindFormalText, unblindJudgment } from "./blind.js";
import { buildPrompt } from "./prompt.js";

const SIDES = ["proposition", "opposition"] as const;
type Side = (typeof SIDES)[number];

/** The judges/ record of exchange `n`: `judges/x0001.md`. */
export const PANEL_NAME = /^x\d{4}\.md$/;
export function panelFile(exchange: number): string {
  return `judges/x${String(exchange).padStart(4, "0")}.md`;
}
/** The exchange a judges/ record belongs to, or undefined. */
export function panelExchange(file: string): number | undefined {
  const m = /^judges\/x(\d{4})\.md$/.exec(file);
  return m ? Number(m[1]) : undefined;
}

function ballotFor(state: DebateState, role: string): { config: JudgingConfig; ballot: Ballot } | undefined {
  const config = judgingOf(state.frontmatter);
  if (!config?.blind) return undefined;
  const ballot = ballotOf(config, role);
  return ballot ? { config, ballot } : undefined;
}

function labelsOf(state: DebateState, ballot: Ballot) {
  return labelsFor(state.frontmatter.debate_id, ballot, SIDES);
}

/**
 * A panel judge's prompt: the judge's template, with the sides behind this judge's labels and the
 * side it reads first first. A bare `seats.judge` gets the plain prompt.
 */
export function judgePrompt(state: DebateState, role: string, options: BuildPromptOptions = {}): string {
  const found = ballotFor(state, role);
  if (!found) return buildPrompt(state, "judge", options);
  const { ballot } = found;
  const labels = labelsOf(state, ballot);
  const first = firstSide(ballot, SIDES);
  const code = first === "proposition" ? "prop" : "opp";
  // Within an exchange, the side read first comes first; exchanges stay in order.
  const view: DebateState = {
    ...state,
    arguments: [...state.arguments].sort(
      (a, b) =>
        a.frontmatter.exchange - b.frontmatter.exchange ||
        Number(b.frontmatter.side === code) - Number(a.frontmatter.side === code) ||
        (a.frontmatter.id < b.frontmatter.id ? -1 : 1),
    ),
  };
  const motion = state.motion;
  const text = buildPrompt(view, "judge", options);
  const who = `The debaters are anonymous: Debater ${labels.proposition} argues for the motion, Debater ${labels.opposition} against it. Refer to them and to their arguments only by these labels and ids.\n\n`;
  return blindFormalText(who + text, labels, [motion.text, motion.definitions ?? "", motion.scope ?? ""]);
}

/**
 * Parses a judge's answer; a panel judge's labels are mapped back to the sides by code before any
 * check, and its problems are told back behind the same labels: every message about the answer
 * names the ids the judge was given (`A_000a`), never the sides' real ones.
 */
export function parseJudge(state: DebateState, role: string, text: string): Result<Judgment> {
  const found = ballotFor(state, role);
  if (!found) return parseJudgeAnswer(state, text);
  const json = extractJson(text);
  if (!json.ok) return json;
  const labels = labelsOf(state, found.ballot);
  const parsed = parseJudgeAnswer(state, JSON.stringify(unblindJudgment(json.value, labels)));
  if (parsed.ok) return parsed;
  return fail(
    ...parsed.errors.map((e) => ({ ...e, message: sortedIds(blindFormalText(e.message, labels)) })),
  );
}

/** Lists of labelled ids in label order (`A_000a, A_000b, B_000a`): the real ids' order would tell the sides apart. */
function sortedIds(message: string): string {
  return message.replace(/\b[AB]_\d{3}[a-c]?(?:, [AB]_\d{3}[a-c]?)+\b/g, (list) =>
    list.split(", ").sort().join(", "),
  );
}

function exchangeWinner(scores: Readonly<Record<string, number>>): Vote<Side> {
  const prop = Object.entries(scores)
    .filter(([id]) => id.startsWith("prop_"))
    .reduce((sum, [, s]) => sum + s, 0);
  return prop > 1e-9 ? "proposition" : prop < -1e-9 ? "opposition" : "tie";
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function scoresOf(judgment: Judgment): Record<string, number> {
  return Object.fromEntries(judgment.scores.map((s) => [s.argument_id, s.score]));
}

/** Figures of one or more panel results (the debate's: every judged exchange pooled). */
export function panelFigures(results: readonly PanelResult[]): JudgeFigures {
  const judges = [...new Set(results.flatMap((r) => r.judges.map((b) => judgeOfRole(b.role))))];
  // Units: every argument of every exchange; coders: the judges (a judge's value: the mean of its ballots).
  const units: Array<{ values: Map<string, number>; combined: number }> = [];
  const pairs: Array<[string, string]> = [];
  for (const result of results) {
    const byJudge = new Map<string, PanelBallot[]>();
    for (const b of result.judges)
      if (b.status === "answered")
        byJudge.set(judgeOfRole(b.role), [...(byJudge.get(judgeOfRole(b.role)) ?? []), b]);
    for (const [id, combined] of Object.entries(result.combined ?? {})) {
      const values = new Map<string, number>();
      for (const [judge, ballots] of byJudge) {
        const own = ballots.map((b) => b.scores?.[id]).filter((v): v is number => v !== undefined);
        if (own.length > 0) values.set(judge, mean(own));
      }
      units.push({ values, combined });
    }
    for (const ballots of byJudge.values()) {
      const a = ballots.find((b) => !b.role.endsWith("_swapped"));
      const b = ballots.find((x) => x.role.endsWith("_swapped"));
      if (a?.winner && b?.winner) pairs.push([a.winner, b.winner]);
    }
  }
  const figures: JudgeFigures = {};
  const alpha = krippendorffAlpha(judges.map((j) => units.map((u) => u.values.get(j))));
  if (alpha !== undefined) {
    figures.agreement = roundFigure(alpha);
    figures.agreement_metric = "krippendorff_alpha_interval";
  }
  const flips = flipRate(pairs);
  if (flips !== undefined) {
    figures.flip_rate = roundFigure(flips);
    figures.flips = pairs.filter(([a, b]) => a !== b).length;
    figures.swapped_judges = pairs.length;
  }
  const deviation: Record<string, number> = {};
  for (const judge of judges) {
    const own: Record<string, number> = {};
    const combined: Record<string, number> = {};
    units.forEach((u, i) => {
      const v = u.values.get(judge);
      if (v !== undefined) {
        own[i] = v;
        combined[i] = u.combined;
      }
    });
    const d = meanDeviation(own, combined);
    if (d !== undefined) deviation[judge] = roundFigure(d);
  }
  if (judges.length > 1 && Object.keys(deviation).length > 0) figures.deviation = deviation;
  return figures;
}

/** The debate's reliability, from its panel results (debate.md's `reliability:` mirror). */
export function reliabilityFrom(config: JudgingConfig, results: readonly PanelResult[]): Reliability {
  return {
    judges: config.panel.length,
    judged_steps: results.length,
    degraded_steps: results.filter((r) => r.degraded).length,
    figures: panelFigures(results),
  };
}

/** The panel results committed in a formal debate's judges/ records, in exchange order. */
export function formalPanels(state: DebateState): PanelResult[] {
  return (state.records ?? []).filter((r) => panelExchange(r.file) !== undefined).map(panelResultOf);
}

/**
 * Combines a panel's checked judgments (by role; failed roles in `failures`) into one judgment
 * (per-argument median, re-centred to the zero sum; rescores likewise) and the panel's record.
 */
export function combinePanel(
  state: DebateState,
  answers: Readonly<Record<string, unknown>>,
  failures: Readonly<Record<string, SeatFailure>>,
): Result<{ judgment: Judgment; record: FormatRecord; result: PanelResult; config: JudgingConfig }> {
  const config = judgingOf(state.frontmatter);
  if (!config?.blind) return fail(ruleError("JUDGES_MISSING", "judges", "expected a `judges:` panel"));
  const exchange = state.frontmatter.current_exchange;
  const roles = [...ballotsOf(config).map((b) => b.role), ...(config.fallback ? [FALLBACK_ROLE] : [])];
  const ballots: PanelBallot[] = [];
  const judgments = new Map<string, Judgment[]>();
  for (const role of roles) {
    const ballot = ballotOf(config, role)!;
    const answer = answers[role] as Judgment | undefined;
    const failure = failures[role];
    if (!answer && !failure) continue; // the fallback, when it was not needed
    const labels = labelsOf(state, ballot);
    const entry: PanelBallot = {
      role,
      adapter: ballot.seat.adapter,
      ...(ballot.seat.model ? { model: ballot.seat.model } : {}),
      labels,
      first: firstSide(ballot, SIDES),
      status: answer ? "answered" : "failed",
    };
    if (answer) {
      const scores = scoresOf(answer);
      entry.scores = scores;
      entry.winner = exchangeWinner(scores);
      judgments.set(ballot.judge, [...(judgments.get(ballot.judge) ?? []), answer]);
    } else if (failure) {
      entry.error = { code: clipText(failure.code, 100), message: clipText(failure.message, 300) };
    }
    ballots.push(entry);
  }
  const errors: RuleError[] = [];
  if (judgments.size === 0)
    errors.push(
      ruleError("PANEL_NO_ANSWER", "judges", `expected at least one judge's answer for exchange ${exchange}`),
    );
  if (errors.length > 0) return fail(...errors);
  // A judge asked in both orders counts once: the mean of its two ballots (balanced position).
  const perJudge = [...judgments.values()].map((list) => {
    const ids = Object.keys(scoresOf(list[0]!));
    return Object.fromEntries(ids.map((id) => [id, mean(list.map((j) => scoresOf(j)[id] ?? 0))]));
  });
  const combined = combineScores(perJudge);
  const recorded = Object.fromEntries(Object.entries(state.scores).map(([id, r]) => [id, r.current_score]));
  const rescoreBallots = [...judgments.values()].map((list) => {
    const ids = [...new Set(list.flatMap((j) => (j.rescores ?? []).map((r) => r.argument_id)))];
    return Object.fromEntries(
      ids.map((id) => [
        id,
        mean(list.map((j) => j.rescores?.find((r) => r.argument_id === id)?.new_score ?? recorded[id] ?? 0)),
      ]),
    );
  });
  const rescored = combineRescores(rescoreBallots, recorded);
  const reasonOf = (id: string, kind: "scores" | "rescores") => {
    const texts = [...judgments.entries()].flatMap(([judge, list]) =>
      list.flatMap((j) =>
        kind === "scores"
          ? j.scores.filter((s) => s.argument_id === id).map((s) => `${judge}: ${s.reasoning}`)
          : (j.rescores ?? []).filter((s) => s.argument_id === id).map((s) => `${judge}: ${s.reasoning}`),
      ),
    );
    return clipText(`Panel median of ${judgments.size} judge(s). ${texts.join(" | ")}`, 4000);
  };
  const judgment: Judgment = {
    scores: Object.entries(combined).map(([argument_id, score]) => ({
      argument_id,
      score,
      reasoning: reasonOf(argument_id, "scores"),
    })),
  };
  const rescores = Object.entries(rescored).map(([argument_id, new_score]) => ({
    argument_id,
    old_score: recorded[argument_id]!,
    new_score,
    reasoning: reasonOf(argument_id, "rescores"),
  }));
  if (rescores.length > 0) judgment.rescores = rescores;
  const votes = Object.fromEntries(
    [...judgments.entries()].map(([judge, list]) => [
      judge,
      judgeVote(list.map((j) => exchangeWinner(scoresOf(j)))),
    ]),
  );
  const answered = judgments.size;
  const fallbackUsed = judgments.has(FALLBACK_ROLE);
  const base: Omit<PanelResult, "figures"> = {
    step: `x${String(exchange).padStart(4, "0")}`,
    configured: config.panel.length,
    answered,
    quorum: config.quorum,
    degraded: fallbackUsed || answered < config.panel.length,
    ...(fallbackUsed ? { fallback_used: true } : {}),
    judges: ballots,
    winner: exchangeWinner(combined),
    votes,
    combined: Object.fromEntries(Object.entries(combined).map(([id, s]) => [id, roundScore(s)])),
  };
  const made = panelRecord(panelFile(exchange), base, panelFigures);
  if (!made.ok) return made;
  return ok({ judgment, record: made.value.record, result: made.value.result, config });
}

/** What a debate's judged exchanges rest on less than configured (docs/architecture.md#honest-degradation): failed judges, the fallback. */
export function panelDegradations(state: DebateState): Degradation[] {
  return degradationsOf(formalPanels(state), (r) => {
    const exchange = Number(r.step.slice(1));
    return { text: `exchange ${exchange}`, round: exchange };
  });
}
