import { DebatekitError } from "./errors.js";
import { defaultAgentTemplates } from "./generated/agents.js";
import { otherRole, roleOfSide, sideCode } from "./sides.js";
import type { AgentTemplate, ArgumentRecord, DebaterRole, DebateState, SeatRole } from "./types.js";

/** Options of buildPrompt. */
export interface BuildPromptOptions {
  /** Role templates (default: defaultAgentTemplates from agents/). */
  templates?: AgentTemplate[];
  /** Text block chosen by @debatekit/skills (already within budget). */
  skills?: string;
  /** Validation errors of the previous attempt, for a retry. */
  feedback?: string[];
}

type Task = "opening" | "rebuttal" | "judgment";
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

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

/** Fills {{placeholders}} in one pass (values are never re-scanned); a placeholder without a value throws. */
export function fillTemplate(template: AgentTemplate, values: Record<string, string>): string {
  const missing = new Set<string>();
  for (const name of template.definition.placeholders ?? []) if (!(name in values)) missing.add(name);
  const text = template.body.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(name in values)) {
      missing.add(name);
      return whole;
    }
    return values[name]!;
  });
  if (missing.size > 0) {
    throw new DebatekitError(
      "PROMPT_PLACEHOLDER_MISSING",
      `agents/${template.definition.name}.md uses ${[...missing].map((m) => `{{${m}}}`).join(", ")}, which the engine does not supply for this step`,
      { file: `agents/${template.definition.name}.md`, field: "placeholders" },
    );
  }
  // Empty optional blocks (no feedback) must not leave holes of blank lines.
  return `${text.replace(/\n{3,}/g, "\n\n").trim()}\n`;
}

/** Exchanges (formal) or rounds (crossfire) kept in full before earlier turns are compacted (debate.md `context.window`). */
export const DEFAULT_CONTEXT_WINDOW = 4;

/** The context window of a debate: debate.md's `context.window`, else DEFAULT_CONTEXT_WINDOW. */
export function contextWindow(state: DebateState): number {
  const window = state.frontmatter.context?.window;
  return window !== undefined && window >= 1 ? window : DEFAULT_CONTEXT_WINDOW;
}

/**
 * The first exchange a history ending at `last` shows in full. Full text is kept in blocks of
 * `window` exchanges that only grow (append-only, so consecutive prompts share their prefix) and
 * are compacted together when a block is full: the latest exchange is always in full, and at most
 * `window` exchanges are.
 */
export function fullFrom(last: number, window: number): number {
  return last < 0 ? 0 : last - (last % window);
}

/** An argument's prompt texts, remembered per argument object (committed arguments never change). */
const entryTexts = new WeakMap<ArgumentRecord, { from: unknown[]; compact?: string; full?: string }>();

function remembered(a: ArgumentRecord, kind: "compact" | "full", make: () => string): string {
  const fm = a.frontmatter;
  const from = [fm.id, fm.side, fm.title, fm.claim, fm.exchange, a.body];
  let texts = entryTexts.get(a);
  if (!texts || texts.from.some((v, i) => v !== from[i])) {
    texts = { from };
    entryTexts.set(a, texts);
  }
  let text = texts[kind];
  if (text === undefined) {
    text = make();
    texts[kind] = text;
  }
  return text;
}

/** A compact entry (id, side, title, claim): never changes once written, so it never breaks a cached prefix. */
function compactEntry(a: ArgumentRecord): string {
  return remembered(a, "compact", () => {
    const fm = a.frontmatter;
    return `- **${fm.id}** (${roleOfSide(fm.side)}): ${fm.title}\n  Claim: ${fm.claim}`;
  });
}

/** One argument in full, its section headings pushed two levels down so they nest under the prompt's own. */
function fullEntry(a: ArgumentRecord): string {
  return remembered(a, "full", () => {
    const fm = a.frontmatter;
    const body = a.body.trim().replace(/^(#{1,4}) /gm, "##$1 ");
    return `## ${fm.id} (${roleOfSide(fm.side)}, exchange ${fm.exchange}): ${fm.title}\n\n${body}`;
  });
}

/** Full arguments, one after another. */
function inFull(list: ArgumentRecord[]): string {
  return list.length > 0 ? list.map(fullEntry).join("\n\n") : "(none)";
}

/**
 * The debate's history up to exchange `last`, in order: exchanges before the current block as
 * compact entries, the block's exchanges in full. Nothing in it depends on scores, which change.
 */
export function formalHistory(state: DebateState, last: number, window: number): string {
  const from = fullFrom(last, window);
  const parts: string[] = [];
  const compact = state.arguments.filter((a) => a.frontmatter.exchange < from);
  if (compact.length > 0) {
    parts.push(
      `Exchanges 0-${from - 1}, one compact entry per argument (id, side, title, claim; scores are listed below):\n\n${compact.map(compactEntry).join("\n")}`,
    );
  }
  const recent = byExchange(state.arguments.filter((a) => a.frontmatter.exchange >= from));
  for (let e = from; e <= last; e++) {
    const list = recent.get(e);
    if (list) parts.push(`### Exchange ${e}, in full\n\n${inFull(list)}`);
  }
  return parts.length > 0 ? parts.join("\n\n") : "(nothing yet)";
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

/** Every scored argument's current score, by exchange: the values that change, kept out of the history. */
function currentScores(state: DebateState, last: number): string {
  const groups = byExchange(
    state.arguments.filter((a) => a.frontmatter.exchange <= last && state.scores[a.frontmatter.id]),
  );
  const lines = [...groups.keys()]
    .sort((a, b) => a - b)
    .map(
      (e) =>
        `- exchange ${e}: ${groups
          .get(e)!
          .map((a) => `${a.frontmatter.id} ${state.scores[a.frontmatter.id]!.current_score}`)
          .join(", ")}`,
    );
  return lines.length > 0 ? lines.join("\n") : "(nothing scored yet)";
}

function standing(state: DebateState): string {
  const c = state.frontmatter.cumulative_scores;
  if (!c) return "proposition 0 (0 scored), opposition 0 (0 scored)";
  return `proposition ${c.proposition.total} (${c.proposition.count} scored), opposition ${c.opposition.total} (${c.opposition.count} scored)`;
}

/** The retry block of a prompt: the errors of the previous answer, or nothing. */
export function feedbackBlock(feedback: string[] | undefined): string {
  if (!feedback || feedback.length === 0) return "";
  return [
    "# Your previous answer was rejected",
    "",
    "The engine could not accept your previous answer, for these reasons:",
    "",
    ...feedback.map((line) => `- ${line}`),
    "",
    "Answer again, in full, fixing every point above. Keep what was valid.",
  ].join("\n");
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

function debaterValues(state: DebateState, role: DebaterRole): Record<string, string> {
  const exchange = state.frontmatter.current_exchange;
  const opponent = otherRole(role);
  const earlier = state.arguments.filter((a) => a.frontmatter.exchange < exchange);
  const theirs = earlier.filter((a) => a.frontmatter.side === sideCode(opponent));
  const ours = earlier.filter((a) => a.frontmatter.side === sideCode(role));
  const latest = Math.max(-1, ...theirs.map((a) => a.frontmatter.exchange));
  return {
    side: role,
    opponent,
    side_code: sideCode(role),
    opponent_code: sideCode(opponent),
    history: formalHistory(state, exchange - 1, contextWindow(state)),
    current_scores: currentScores(state, exchange - 1),
    latest_ids: idList(theirs.filter((a) => a.frontmatter.exchange === latest)),
    // The layout before the history/scores split, for agents/*.md written against it.
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
  const from = fullFrom(exchange, contextWindow(state));
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
    history: formalHistory(state, exchange, contextWindow(state)),
    current_scores: currentScores(state, exchange - 1),
    referenced:
      referenced.length > 0
        ? inFull(referenced)
        : "(none: everything they attack or defend is in full in the history above)",
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
