import { DebatekitError } from "../../errors.js";
import { defaultAgentTemplates } from "../../generated/agents.js";
import type { BuildPromptOptions } from "../../prompt/options.js";
import { contextWindow, feedbackBlock, fillTemplate, historyFrom } from "../../prompt/template.js";
import type { AgentTemplate, ArgumentRecord, DebaterRole, DebateState, SeatRole } from "../../types.js";
import { otherRole, roleOfSide, sideCode } from "./sides.js";

type Task = "opening" | "rebuttal" | "judgment";

function pickTemplate(templates: AgentTemplate[], role: SeatRole, task: Task): AgentTemplate {
  const forTask = templates.filter((t) => t.definition.task === task);
  const exact = forTask.find((t) => t.definition.role === role);
  const generic = role === "judge" ? undefined : forTask.find((t) => t.definition.role === "debater");
  const template = exact ?? generic;
  if (!template) {
    throw new DebatekitError(
      "PROMPT_TEMPLATE_MISSING",
      `no agent template for role ${role} and task ${task}; expected an agents/*.md with \`role: ${role === "judge" ? "judge" : "debater"}\` and \`task: ${task}\``,
      { field: "task" },
    );
  }
  return template;
}

/**
 * Formal's default window: the one with the least effective input cost (uncached tokens + the
 * cache-read price x cached tokens) in `pnpm bench prompts`, at Anthropic's (0.1) and OpenAI's
 * (0.5) cache prices alike; packages/core/README.md has the figures.
 */
export const DEFAULT_FORMAL_WINDOW = 1;

/**
 * The judge's window: two exchanges more than the debaters'. A rebuttal attacks or defends
 * arguments up to three exchanges back; with them in the judge's (append-only) history they are
 * not sent again after it, where they would be new to every judge prompt (`pnpm bench prompts`).
 */
function judgeWindow(window: number): number {
  return window + 2;
}

/**
 * A compact entry: id, title, claim (the id's prefix names the side; the score is in the judgment
 * log). Never changes once written, so it never breaks a cached prefix.
 */
function compactEntry(a: ArgumentRecord): string {
  const fm = a.frontmatter;
  return `- ${fm.id}: ${fm.title}. ${fm.claim}`;
}

/**
 * An argument file's body as a prompt shows it: each attack and defense one paragraph
 * (`Attacking id (type): content`, no section heading) instead of a heading and a type line (fewer
 * tokens, same facts; a body written otherwise is kept as it is), section headings pushed `levels`
 * down so they nest under the prompt's own.
 */
function promptBody(a: ArgumentRecord, levels: string): string {
  return a.body
    .trim()
    .replace(/^### (Attacking|Defending) (\S+)\n\n\*\*Type:\*\* (\S+)\n\n/gm, "$1 $2 ($3): ")
    .replace(/^## (?:Attacks|Defends)\n\n(?=(?:Attacking|Defending) )/gm, "")
    .replace(/^(#{1,4}) /gm, `${levels}$1 `);
}

/** One argument in full, its section headings pushed two levels down so they nest under the prompt's own. */
function fullEntry(a: ArgumentRecord): string {
  const fm = a.frontmatter;
  const body = promptBody(a, "##");
  return `## ${fm.id} (${roleOfSide(fm.side)}, exchange ${fm.exchange}): ${fm.title}\n\n${body}`;
}

/**
 * An argument in full after its compact entry: title, then the body without its `Claim` section
 * (the compact entry just above in the log gives it; a body without that section is kept whole).
 */
function detailEntry(a: ArgumentRecord): string {
  const fm = a.frontmatter;
  const body = promptBody(a, "#").replace(/^### Claim\n[\s\S]*?(?=^### )/m, "");
  return `## ${fm.id}: ${fm.title}\n\n${body}`;
}

/** Full arguments, one after another. */
function inFull(list: ArgumentRecord[]): string {
  return list.length > 0 ? list.map(fullEntry).join("\n\n") : "(none)";
}

const exchangeOf = (triggeredBy: string | undefined): number | undefined => {
  const m = /^exchange_(\d+)$/.exec(triggeredBy ?? "");
  return m ? Number(m[1]) : undefined;
};

/**
 * The judgment log: per judged exchange, one line with the scores it gave and the rescores it made
 * (`id old -> new`), in history order. It only grows (a rescore is a new line of the exchange whose
 * judgment made it), so it sits in the history without breaking the cached prefix; an argument's
 * current score is the last value the log gives it. A first score goes to its argument's exchange.
 */
function judgmentLog(state: DebateState): Map<number, string> {
  const exchangeOfId = new Map(state.arguments.map((a) => [a.frontmatter.id, a.frontmatter.exchange]));
  const scored = new Map<number, string[]>();
  const rescored = new Map<number, string[]>();
  const add = (to: Map<number, string[]>, e: number, text: string) => to.set(e, [...(to.get(e) ?? []), text]);
  for (const [id, record] of Object.entries(state.scores)) {
    for (const h of record.history) {
      const by = exchangeOf(h.triggered_by);
      if (by !== undefined && h.previous_score !== undefined)
        add(rescored, by, `${id} ${h.previous_score} -> ${h.score}`);
      else if (exchangeOfId.has(id)) add(scored, exchangeOfId.get(id)!, `${id} ${h.score}`);
    }
  }
  const log = new Map<number, string>();
  for (const e of new Set([...scored.keys(), ...rescored.keys()])) {
    // Sorted, so the order of the records does not matter.
    const parts = [];
    if (scored.has(e)) parts.push(`Judged: ${scored.get(e)!.sort().join(", ")}`);
    if (rescored.has(e)) parts.push(`rescored: ${rescored.get(e)!.sort().join(", ")}`);
    log.set(e, parts.join("; "));
  }
  return log;
}

/** One exchange's block of the history: compact entries or in full, then its judgment line. */
function exchangeBlock(
  kind: "compact" | "full",
  e: number,
  list: readonly ArgumentRecord[],
  judged: string | undefined,
): string {
  const entries = list.map(kind === "compact" ? compactEntry : fullEntry);
  return kind === "compact"
    ? `Exchange ${e}:\n${entries.join("\n")}${judged ? `\n${judged}` : ""}`
    : `### Exchange ${e}, in full\n\n${entries.join("\n\n")}${judged ? `\n\n${judged}` : ""}`;
}

/**
 * The blocks of the history up to exchange `last`, in order, each exchange's block compact before
 * exchange `fullFrom` and in full from it, each followed by its line of the judgment log.
 */
function historyBlocks(state: DebateState, last: number, fullFrom: number) {
  const log = judgmentLog(state);
  const groups = byExchange(state.arguments.filter((a) => a.frontmatter.exchange <= last));
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .map((e) => ({
      full: e >= fullFrom,
      text: exchangeBlock(e >= fullFrom ? "full" : "compact", e, groups.get(e)!, log.get(e)),
    }));
}

/**
 * The judge's history up to exchange `last`: exchanges before the full part as compact entries,
 * the full part's exchanges in full. Append-only between compactions; a compaction keeps the
 * compact entries before it as they were (the heading names no range), so even then the prompts
 * share a prefix.
 */
export function formalHistory(state: DebateState, last: number, window: number): string {
  const blocks = historyBlocks(state, last, historyFrom(last, window));
  const compact = blocks.filter((b) => !b.full).map((b) => b.text);
  const parts = blocks.filter((b) => b.full).map((b) => b.text);
  if (compact.length > 0)
    parts.unshift(
      `Earlier exchanges, compact: per argument its id (prop_ or opp_ names the side), title and claim; per exchange the judgment.\n\n${compact.join("\n\n")}`,
    );
  return parts.length > 0 ? parts.join("\n\n") : "(nothing yet)";
}

/**
 * A debater's history up to exchange `last`: every exchange compact. Only grows from one prompt of
 * the seat to the next (the exchange before is the one new block), so all of it is a cached
 * prefix; the other side's latest arguments follow it in full (detailEntry), after which nothing
 * is shared with the next prompt anyway.
 */
function compactLog(state: DebateState, last: number): string {
  const blocks = historyBlocks(state, last, Number.POSITIVE_INFINITY).map((b) => b.text);
  return blocks.length > 0 ? blocks.join("\n\n") : "(nothing yet)";
}

/** Arguments grouped by exchange, in their order (one pass: a prompt stays linear in the debate's size). */
function byExchange(list: readonly ArgumentRecord[]): Map<number, ArgumentRecord[]> {
  const groups = new Map<number, ArgumentRecord[]>();
  for (const a of list) {
    const group = groups.get(a.frontmatter.exchange);
    if (group) group.push(a);
    else groups.set(a.frontmatter.exchange, [a]);
  }
  return groups;
}

/** The current scores of some arguments, `id score, ...` (the short block after the history). */
function scoresOf(state: DebateState, list: readonly ArgumentRecord[]): string {
  const scored = list.filter((a) => state.scores[a.frontmatter.id]);
  return scored.length > 0
    ? scored.map((a) => `${a.frontmatter.id} ${state.scores[a.frontmatter.id]!.current_score}`).join(", ")
    : "(none)";
}

function standing(state: DebateState): string {
  const c = state.frontmatter.cumulative_scores;
  if (!c) return "proposition 0 (0 scored), opposition 0 (0 scored)";
  return `proposition ${c.proposition.total} (${c.proposition.count} scored), opposition ${c.opposition.total} (${c.opposition.count} scored)`;
}

function commonValues(state: DebateState, options: BuildPromptOptions): Record<string, string> {
  return {
    motion: state.motion.text.trim(),
    definitions:
      state.motion.definitions?.trim() || "(none given: use the ordinary meaning of the motion's words)",
    scope: state.motion.scope?.trim() || "(none given)",
    exchange: String(state.frontmatter.current_exchange),
    exchanges:
      state.frontmatter.exchanges === undefined ? "(open-ended)" : String(state.frontmatter.exchanges),
    standing: standing(state),
    skills: options.skills?.trim() || "(no extra guidance for this debate)",
    feedback: feedbackBlock(options.feedback),
  };
}

function idList(list: ArgumentRecord[]): string {
  return list.length > 0 ? list.map((a) => a.frontmatter.id).join(", ") : "(none)";
}

/** The earlier arguments that exchange `e`'s arguments attack or defend. */
function touched(state: DebateState, e: number): ArgumentRecord[] {
  const ids = new Set(
    state.arguments
      .filter((a) => a.frontmatter.exchange === e)
      .flatMap((a) =>
        [...(a.frontmatter.attacks ?? []), ...(a.frontmatter.defends ?? [])].map((t) => t.target_id),
      ),
  );
  return state.arguments.filter((a) => ids.has(a.frontmatter.id));
}

function debaterValues(state: DebateState, role: DebaterRole): Record<string, string> {
  const exchange = state.frontmatter.current_exchange;
  const opponent = otherRole(role);
  const earlier = state.arguments.filter((a) => a.frontmatter.exchange < exchange);
  const theirs = earlier.filter((a) => a.frontmatter.side === sideCode(opponent));
  const ours = earlier.filter((a) => a.frontmatter.side === sideCode(role));
  const latest = Math.max(-1, ...theirs.map((a) => a.frontmatter.exchange));
  // The other side's arguments of the latest `window` exchanges, in full after the log.
  const window = contextWindow(state, DEFAULT_FORMAL_WINDOW);
  const recent = theirs.filter((a) => a.frontmatter.exchange > latest - window);
  return {
    side: role,
    opponent,
    side_code: sideCode(role),
    opponent_code: sideCode(opponent),
    history: compactLog(state, exchange - 1),
    opponent_recent: recent.length > 0 ? recent.map(detailEntry).join("\n\n") : "(none)",
    // The arguments the latest exchange attacked or defended: the scores most likely just moved.
    current_scores: scoresOf(state, touched(state, exchange - 1)),
    latest_ids: idList(theirs.filter((a) => a.frontmatter.exchange === latest)),
    // The layout before the compact log, for agents/*.md written against it.
    debate_so_far: idList(earlier),
    opponent_latest: inFull(theirs.filter((a) => a.frontmatter.exchange === latest)),
    attack_targets: idList(theirs),
    defense_targets: idList(ours),
  };
}

function judgeValues(state: DebateState): Record<string, string> {
  const exchange = state.frontmatter.current_exchange;
  const current = state.arguments.filter((a) => a.frontmatter.exchange === exchange);
  // What the arguments to score attack or defend, in full when the history shows it compacted.
  const window = judgeWindow(contextWindow(state, DEFAULT_FORMAL_WINDOW));
  const from = historyFrom(exchange, window);
  const targets = new Set(
    current.flatMap((a) => [
      ...(a.frontmatter.attacks ?? []).map((t) => t.target_id),
      ...(a.frontmatter.defends ?? []).map((t) => t.target_id),
    ]),
  );
  const referenced = state.arguments.filter(
    (a) => targets.has(a.frontmatter.id) && a.frontmatter.exchange < from,
  );
  return {
    history: formalHistory(state, exchange, window),
    current_scores: scoresOf(
      state,
      state.arguments.filter((a) => targets.has(a.frontmatter.id)),
    ),
    // Only when the history shows one of them compact (never with the default window).
    referenced:
      referenced.length > 0
        ? `Earlier arguments it attacks or defends, compact in the debate above, in full:\n\n${inFull(referenced)}`
        : "",
    expected_ids: idList(current),
    // The layout before the history/scores split, for agents/*.md written against it.
    current_arguments: inFull(current),
    earlier_arguments: idList(state.arguments.filter((a) => a.frontmatter.exchange < exchange)),
  };
}

/**
 * The prompt for a seat at the state's current step, from its role template, laid out so that
 * consecutive prompts of a seat share a long prefix (providers cache it): stable instructions,
 * the motion, skills, the history in order (append-only), then what changes (scores), then the
 * request. Earlier exchanges are compact past the context window; the judge sees every id it may
 * rescore with its current score. Throws DebatekitError when the step is not that seat's, or a
 * template placeholder has no value.
 */
export function buildPrompt(state: DebateState, role: SeatRole, options: BuildPromptOptions = {}): string {
  const phase = state.frontmatter.current_phase;
  const wanted = role === "judge" ? "awaiting_judgment" : "awaiting_arguments";
  if (phase !== wanted) {
    throw new DebatekitError(
      "DEBATE_PHASE_MISMATCH",
      `cannot build the ${role}'s prompt: expected current_phase ${wanted}, found ${phase} at exchange ${state.frontmatter.current_exchange}`,
      { file: "debate.md", field: "current_phase" },
    );
  }
  const task: Task =
    role === "judge" ? "judgment" : state.frontmatter.current_exchange === 0 ? "opening" : "rebuttal";
  const template = pickTemplate(options.templates ?? defaultAgentTemplates, role, task);
  const values = {
    ...commonValues(state, options),
    ...(role === "judge" ? judgeValues(state) : debaterValues(state, role)),
  };
  return fillTemplate(template, values);
}
