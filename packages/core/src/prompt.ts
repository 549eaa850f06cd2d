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

function scoreOf(state: DebateState, id: string): string {
  const record = state.scores[id];
  return record ? `current score ${record.current_score}` : "not scored yet";
}

function links(arg: ArgumentRecord): string {
  const parts = [
    ...(arg.frontmatter.attacks ?? []).map((a) => `attacks ${a.target_id} (${a.type})`),
    ...(arg.frontmatter.defends ?? []).map((d) => `defends ${d.target_id} (${d.type})`),
  ];
  return parts.length > 0 ? `\n  ${parts.join("; ")}` : "";
}

/** One compact entry per argument: id, side, exchange, score, title, claim, links. */
function summarise(state: DebateState, list: ArgumentRecord[]): string {
  if (list.length === 0) return "(none)";
  return list
    .map((a) => {
      const fm = a.frontmatter;
      return `- **${fm.id}** (${roleOfSide(fm.side)}, exchange ${fm.exchange}, ${scoreOf(state, fm.id)}): ${fm.title}\n  Claim: ${fm.claim}${links(a)}`;
    })
    .join("\n");
}

/** Full arguments, their section headings pushed two levels down so they nest under the prompt's own. */
function inFull(list: ArgumentRecord[]): string {
  if (list.length === 0) return "(none)";
  return list
    .map((a) => {
      const fm = a.frontmatter;
      const body = a.body.trim().replace(/^(#{1,4}) /gm, "##$1 ");
      return `## ${fm.id} (${roleOfSide(fm.side)}, exchange ${fm.exchange}): ${fm.title}\n\n${body}`;
    })
    .join("\n\n");
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
    debate_so_far: summarise(state, earlier),
    opponent_latest: inFull(theirs.filter((a) => a.frontmatter.exchange === latest)),
    attack_targets: idList(theirs),
    defense_targets: idList(ours),
  };
}

function judgeValues(state: DebateState): Record<string, string> {
  const exchange = state.frontmatter.current_exchange;
  const current = state.arguments.filter((a) => a.frontmatter.exchange === exchange);
  return {
    current_arguments: inFull(current),
    earlier_arguments: summarise(
      state,
      state.arguments.filter((a) => a.frontmatter.exchange < exchange),
    ),
    expected_ids: idList(current),
  };
}

/**
 * The prompt for a seat at the state's current step, from its role template: the motion, the debate
 * so far (the judge sees every earlier argument with its current score), skills and retry feedback.
 * Throws DebatekitError when the step is not that seat's, or a template placeholder has no value.
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
