import type { CrossfireSummary, CrossfireTurn } from "@debatekit/schema";
import { DebatekitError } from "../../errors.js";
import { defaultAgentTemplates } from "../../generated/agents.js";
import type { BuildPromptOptions } from "../../prompt/options.js";
import { contextWindow, feedbackBlock, fillTemplate } from "../../prompt/template.js";
import { renderSummary, renderTurn } from "./render.js";
import { sideLetter, standingConcessions, turnKind } from "./rules.js";
import { type CrossfireSide, type CrossfireState, summaryOf, type Turn, turnsOf } from "./state.js";

/** Our headings pushed down two levels, so a turn sits inside the prompt's own sections. */
const nested = (markdown: string) => markdown.trim().replace(/^#/gm, "###");

const inFull = (turns: readonly Turn[]) =>
  turns.length > 0
    ? turns.map((t) => nested(renderTurn(t.data as CrossfireTurn))).join("\n\n")
    : "(nothing yet)";

/**
 * What a debater sees in round `round`: every turn so far in full while the earlier rounds fit in
 * debate.md's `context.window` (default 4: always, since a debate has at most 5 rounds), so the
 * context only grows and consecutive prompts share their prefix. Past the window, the summary
 * that covers the rounds before it (the crossfire summary of docs/architecture.md#formats, read in round `covers + 2`) and the
 * rounds after it in full; `context.window: 1` is the crossfire summary of rounds 1..round-2.
 */
export function debaterContext(state: CrossfireState, round: number): string {
  const turns = turnsOf(state);
  const covers = round - 1 - contextWindow(state);
  const summary = covers >= 1 ? summaryOf(state, covers + 2) : undefined;
  if (!summary) return inFull(turns);
  return `${nested(renderSummary(summary))}\n\n${inFull(turns.filter((t) => t.round > (summary.covers ?? 0)))}`;
}

/** The turns the verdict rests on: all of them, or only the completed rounds when a seat failed. */
export function verdictTurns(state: CrossfireState): Turn[] {
  const fm = state.frontmatter;
  const turns = turnsOf(state);
  if (fm.outcome === "uncontested") return turns.filter((t) => t.round === 1 && t.role === "proposer");
  if (fm.outcome === "partial") return turns.filter((t) => t.round <= (fm.completed_rounds ?? 0));
  return turns;
}

/** The turns a summary read in `round` replaces (rounds 1..round-2), and what it may start from. */
export function summaryInput(
  state: CrossfireState,
  round: number,
): { covered: Turn[]; previous?: CrossfireSummary; fresh: Turn[] } {
  const covered = turnsOf(state).filter((t) => t.round <= round - 2);
  const previous = round > 3 ? summaryOf(state, round - 1) : undefined;
  const fresh = covered.filter((t) => t.round > (previous?.covers ?? 0));
  return previous ? { covered, previous, fresh } : { covered, fresh };
}

function pick(options: BuildPromptOptions, role: string, task: string) {
  const template = (options.templates ?? defaultAgentTemplates).find(
    (t) => t.definition.task === task && t.definition.role === role,
  );
  if (!template) {
    throw new DebatekitError(
      "PROMPT_TEMPLATE_MISSING",
      `no agent template for role ${role} and task ${task}; expected an agents/*.md with \`role: ${role}\` and \`task: ${task}\``,
      { field: "task" },
    );
  }
  return template;
}

/** The placeholders every crossfire prompt fills. */
function commonFields(state: CrossfireState, options: BuildPromptOptions) {
  const fm = state.frontmatter;
  return {
    topic: state.motion.text.trim(),
    round: String(fm.current_exchange),
    rounds: String(fm.rounds),
    skills: options.skills?.trim() || "(no extra guidance for this debate)",
    feedback: feedbackBlock(options.feedback),
  };
}

/** The prompt of one crossfire seat at the current step, from its agent template. */
export function buildCrossfirePrompt(
  state: CrossfireState,
  role: string,
  options: BuildPromptOptions = {},
): string {
  const fm = state.frontmatter;
  const round = fm.current_exchange;
  const common = commonFields(state, options);
  if (role === "proposer" || role === "challenger") {
    const side = role as CrossfireSide;
    const other: CrossfireSide = side === "proposer" ? "challenger" : "proposer";
    const turns = turnsOf(state);
    const targets = turns.filter((t) => t.role === other).flatMap((t) => t.data.points.map((p) => p.id));
    const mine = [...standingConcessions(turns)].filter(([, c]) => c.role === side);
    return fillTemplate(pick(options, role, turnKind(side, round)), {
      ...common,
      side,
      opponent: other,
      id_prefix: `${sideLetter(side)}${round}`,
      context: debaterContext(state, round),
      targets: targets.join(", ") || "(none yet)",
      own_concessions: mine.length ? mine.map(([id, c]) => `- ${id}: ${c.text}`).join("\n") : "(none)",
    });
  }
  if (role === "summarizer") {
    const { covered, previous, fresh } = summaryInput(state, round);
    const keep = [...standingConcessions(covered)];
    return fillTemplate(pick(options, "summarizer", "summary"), {
      ...common,
      covers: String(round - 2),
      context: `${previous ? `${nested(renderSummary(previous))}\n\n` : ""}${inFull(fresh)}`,
      concessions_to_keep: keep.length
        ? keep.map(([id, c]) => `- ${id}: ${JSON.stringify(c.text)}`).join("\n")
        : "(none)",
    });
  }
  return verdictPrompt(state, options);
}

/**
 * The verdict's prompt; `first` is the side whose turn comes first within each round (a panel's judge
 * reading the other order sees the challenger's turn of a round before the proposer's).
 */
export function verdictPrompt(
  state: CrossfireState,
  options: BuildPromptOptions = {},
  first: CrossfireSide = "proposer",
): string {
  const fm = state.frontmatter;
  const common = commonFields(state, options);
  const considered = verdictTurns(state).sort(
    (a, b) => a.round - b.round || Number(b.role === first) - Number(a.role === first),
  );
  const outcome =
    fm.outcome === "uncontested"
      ? "The challenger failed in round 1: the proposer's position is uncontested. Judge it on its own merits and evidence."
      : fm.outcome === "partial"
        ? `A seat failed in round ${(fm.completed_rounds ?? 0) + 1}: judge rounds 1-${fm.completed_rounds} only.`
        : "All rounds were completed.";
  return fillTemplate(pick(options, "judge", "verdict"), {
    ...common,
    context: inFull(considered),
    outcome_note: outcome,
    point_ids: considered.flatMap((t) => t.data.points.map((p) => p.id)).join(", ") || "(none)",
  });
}
