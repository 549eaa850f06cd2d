import type { CrossfireVerdict, PanelResult, Reliability } from "@debatekit/schema";
import { clipText } from "../../clip.js";
import { fail, ok, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import {
  type Ballot,
  ballotOf,
  FALLBACK_ROLE,
  firstSide,
  type JudgingConfig,
  judgingOf,
  labelsFor,
} from "../../judging/panel.js";
import { panelBallots, panelRecord, panelResultOf, panelVerdict, voteFigures } from "../../judging/votes.js";
import type { BuildPromptOptions } from "../../prompt/options.js";
import type { Result } from "../../types.js";
import type { FormatRecord, SeatFailure } from "../format.js";
import { blindCrossfireText, unblindVerdict } from "./blind.js";
import { verdictPrompt } from "./prompt.js";
import type { CrossfireSide, CrossfireState } from "./state.js";
import { parseVerdict } from "./verdict.js";

const SIDES = ["proposer", "challenger"] as const;

/** The verdict panel's record (judges:): every judge's labels, order, verdict or error, the figures. */
export const PANEL_VERDICT_FILE = "judges/verdict.md";
export const PANEL_VERDICT_NAME = /^verdict\.md$/;

function ballotFor(state: CrossfireState, role: string): Ballot | undefined {
  const config = judgingOf(state.frontmatter);
  return config?.blind ? ballotOf(config, role) : undefined;
}

const labelsOf = (state: CrossfireState, ballot: Pick<Ballot, "judge">) =>
  labelsFor(state.frontmatter.debate_id, ballot, SIDES);

/**
 * A verdict judge's prompt. A panel judge (judges:) sees the debaters behind its own labels
 * (`Debater A` / `Debater B`, point ids `A1.2`), and half of the panel (or the swapped twin) reads
 * each round with the challenger's turn first. A bare `seats.judge` gets the plain prompt.
 */
export function crossfireJudgePrompt(
  state: CrossfireState,
  role: string,
  options: BuildPromptOptions = {},
): string {
  const ballot = ballotFor(state, role);
  if (!ballot) return verdictPrompt(state, options);
  const who =
    'The debaters are anonymous: you know them only as Debater A and Debater B (the labels say nothing about who spoke first or who is right). Refer to them and to their points only by these labels and ids; answer `winner` with "Debater A" or "Debater B".\n\n';
  return blindCrossfireText(
    who + verdictPrompt(state, options, firstSide(ballot, SIDES)),
    labelsOf(state, ballot),
    [state.motion.text],
  );
}

/** Parses a verdict; a panel judge's labels (winner, point ids, prose) are mapped back to the sides by code first. */
export function parseJudgeVerdict(
  state: CrossfireState,
  role: string,
  text: string,
): Result<CrossfireVerdict> {
  const ballot = ballotFor(state, role);
  if (!ballot) return parseVerdict(state, text);
  const json = extractJson(text);
  if (!json.ok) return json;
  return parseVerdict(state, JSON.stringify(unblindVerdict(json.value, labelsOf(state, ballot))));
}

/** The verdict panel's result committed in judges/verdict.md, if any. */
export function crossfirePanels(state: CrossfireState): PanelResult[] {
  const record = (state.records ?? []).find((r) => r.file === PANEL_VERDICT_FILE);
  return record ? [panelResultOf(record)] : [];
}

/** The debate's reliability: the verdict panel's figures (one judged step). */
export function verdictReliability(config: JudgingConfig, result: PanelResult): Reliability {
  return {
    judges: config.panel.length,
    judged_steps: 1,
    degraded_steps: result.degraded ? 1 : 0,
    figures: result.figures,
  };
}

/**
 * Combines a panel's checked verdicts (by role; failed roles in `failures`): each judge votes (a judge
 * whose verdict flipped with the order votes `tie`), the side with more votes wins, equal counts are a
 * tie. verdict.md keeps the text of a judge of the majority (of the first judge that answered, for a
 * tie) under the panel's winner and tally; judges/verdict.md records every ballot and the figures.
 */
export function combineVerdicts(
  state: CrossfireState,
  answers: Readonly<Record<string, unknown>>,
  failures: Readonly<Record<string, SeatFailure>>,
): Result<{ verdict: CrossfireVerdict; record: FormatRecord; result: PanelResult; config: JudgingConfig }> {
  const config = judgingOf(state.frontmatter);
  if (!config?.blind) return fail(ruleError("JUDGES_MISSING", "judges", "expected a `judges:` panel"));
  const { ballots, byJudge, winners } = panelBallots<CrossfireSide, CrossfireVerdict>(
    config,
    answers,
    failures,
    (v) => (v.winner === "tie" ? "tie" : v.winner),
    { sides: SIDES, labels: (b) => labelsOf(state, b) },
  );
  if (byJudge.size === 0)
    return fail(ruleError("PANEL_NO_ANSWER", "judges", "expected at least one judge's verdict"));
  const { votes, winner } = panelVerdict(winners, SIDES);
  const judges = [...byJudge.keys()];
  const speaker = judges.find((j) => votes[j] === winner) ?? judges[0]!;
  const own = byJudge.get(speaker)!;
  const text = own.find((v) => v.winner === winner) ?? own[0]!;
  const tally = judges.map((j) => `${j}: ${votes[j]}`).join(", ");
  const head =
    winner === "tie"
      ? `The judge panel is split (${tally}): a tie. The reasoning below is ${speaker}'s (for the ${text.winner}).`
      : `The judge panel's majority: the ${winner} (${tally}). The reasoning below is ${speaker}'s.`;
  const verdict: CrossfireVerdict = {
    ...text,
    winner,
    reasoning: clipText(`${head}\n\n${text.reasoning}`, 6000),
  };
  const fallbackUsed = byJudge.has(FALLBACK_ROLE);
  const base: Omit<PanelResult, "figures"> = {
    step: "verdict",
    configured: config.panel.length,
    answered: byJudge.size,
    quorum: config.quorum,
    degraded: fallbackUsed || byJudge.size < config.panel.length,
    ...(fallbackUsed ? { fallback_used: true } : {}),
    judges: ballots,
    winner,
    votes,
  };
  const made = panelRecord(PANEL_VERDICT_FILE, base, voteFigures);
  if (!made.ok) return made;
  return ok({ verdict, record: made.value.record, result: made.value.result, config });
}
