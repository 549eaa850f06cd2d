import {
  type AgentsysLastDebate,
  type CrossfireFrontmatter,
  type SeatConfig,
  validateAgentsysLastDebate,
} from "@debatekit/schema";
import { fail, ok, quote, ruleError } from "../../errors.js";
import { escapeBlock, singleLine } from "../../render/markdown.js";
import { schemaRuleErrors } from "../../schema-errors.js";
import { removeSecrets } from "../../secrets.js";
import type { Result } from "../../types.js";
import type { ImportedDebate, ImportInit, NewDebateInit } from "../format.js";

/** agentsys tools that are a debatekit adapter of the same name. */
const ADAPTERS = new Set(["claude", "gemini", "codex", "opencode", "copilot"]);
const EFFORTS = new Set(["low", "medium", "high", "max"]);

const clean = (text: string) => removeSecrets(text);

/**
 * A crossfire debate from agentsys's `last-debate.json`: the topic, the two seats (tool and model),
 * effort and rounds, ready to run under debatekit's checks. agentsys turns are prose without the
 * evidence structure the rules need, so they are not turned into turn records (which would fail
 * the rules they never had to pass): the transcript and agentsys's verdict are kept, secrets
 * removed, in debate.md's body under "# Imported from agentsys", for reference.
 */
export function importAgentsysDebate(
  data: unknown,
  init: ImportInit,
  newDebate: (init: NewDebateInit) => Result<{ frontmatter: CrossfireFrontmatter; warnings: string[] }>,
): Result<ImportedDebate<CrossfireFrontmatter>> {
  const checked = validateAgentsysLastDebate(data);
  if (!checked.ok)
    return fail(...schemaRuleErrors("IMPORT_FIELD_INVALID", "last-debate.json", checked.errors));
  const state: AgentsysLastDebate = checked.value;
  const errors = (["proposer", "challenger"] as const)
    .filter((side) => !ADAPTERS.has(state[side].tool))
    .map((side) =>
      ruleError(
        "IMPORT_TOOL_UNSUPPORTED",
        `${side}.tool`,
        `expected one of ${[...ADAPTERS].join(", ")} (a kiro seat runs over ACP: add it by hand as \`adapter: acp\`), found ${quote(state[side].tool)}`,
      ),
    );
  if (errors.length > 0) return fail(...errors);
  const warnings: string[] = [];
  const rounds = Math.min(5, Math.max(1, state.max_rounds ?? state.rounds_completed ?? 2));
  if ((state.max_rounds ?? 0) > 5)
    warnings.push(`agentsys ran ${state.max_rounds} rounds; crossfire runs at most 5`);
  const effort =
    state.effort && EFFORTS.has(state.effort) ? (state.effort as SeatConfig["effort"]) : undefined;
  if (state.effort && !effort)
    warnings.push(`effort ${quote(state.effort)} is not low, medium, high or max: left out`);
  // A motion is one paragraph of text without headings.
  const motion = clean(state.topic)
    .split("\n")
    .map((line) => line.replace(/^(\s*)#/, "$1\\#"))
    .join("\n")
    .trim();
  const made = newDebate({
    slug: init.slugFor(motion),
    seats: { proposer: state.proposer.tool, challenger: state.challenger.tool },
    length: rounds,
    ...(effort ? { seatDefaults: { effort } } : {}),
    now: init.now,
  });
  if (!made.ok) return made;
  const seats = made.value.frontmatter.seats;
  for (const side of ["proposer", "challenger"] as const) {
    const model = state[side].model;
    if (model && seats) seats[side] = { ...seats[side], model: singleLine(clean(model)).slice(0, 200) };
  }
  const roleOfTool = (tool?: string) =>
    tool === state.proposer.tool ? "proposer" : tool === state.challenger.tool ? "challenger" : undefined;
  const lines = [
    "# Imported from agentsys",
    "",
    `From agentsys's last-debate.json${state.id ? ` (${singleLine(clean(state.id))})` : ""}: status ${singleLine(clean(state.status ?? "unknown"))}, ${state.rounds_completed ?? "?"} of ${state.max_rounds ?? "?"} round(s). Its turns are prose without the evidence structure debatekit checks, so they are kept here for reference only; \`debate run\` argues the topic again under the checked rules.`,
  ];
  for (const exchange of state.exchanges ?? []) {
    lines.push(
      "",
      `## Round ${exchange.round}: ${exchange.role}${exchange.tool ? ` (${singleLine(clean(exchange.tool))})` : ""}`,
      "",
      escapeBlock(clean(exchange.response)),
    );
  }
  if (state.verdict) {
    const v = state.verdict;
    const role = roleOfTool(v.winner);
    lines.push(
      "",
      "## agentsys's verdict",
      "",
      `Winner: ${v.winner ? singleLine(clean(v.winner)) : "(none)"}${role ? ` (the ${role})` : ""}`,
    );
    if (v.reasoning) lines.push("", escapeBlock(clean(v.reasoning)));
    for (const [title, list] of [
      ["Agreements", v.agreements],
      ["Disagreements", v.disagreements],
    ] as const) {
      if (list?.length)
        lines.push("", `### ${title}`, "", ...list.map((item) => `- ${singleLine(clean(item))}`));
    }
    if (v.recommendation) lines.push("", "### Recommendation", "", escapeBlock(clean(v.recommendation)));
  }
  return ok({
    frontmatter: made.value.frontmatter,
    motion,
    notes: `${lines.join("\n")}\n`,
    warnings: [...made.value.warnings, ...warnings],
  });
}
