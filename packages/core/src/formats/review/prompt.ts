import type { ReviewFinding } from "@debatekit/schema";
import { DebatekitError } from "../../errors.js";
import { defaultAgentTemplates } from "../../generated/agents.js";
import type { BuildPromptOptions } from "../../prompt/options.js";
import { contextWindow, feedbackBlock, fillTemplate } from "../../prompt/template.js";
import { critiqueContext } from "./round.js";
import { currentArtifact, type ReviewState, roundsOf } from "./state.js";
import { splitMixed } from "./target.js";

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

/** The artifact as a seat reads it: a mixed one split into its code part and its proposal part. */
export function artifactForPrompt(state: ReviewState): string {
  const { version, text } = currentArtifact(state);
  const head = `(artifact/v${version}.md)\n\n`;
  if (state.frontmatter.target !== "mixed") return `${head}${text.trim()}`;
  const split = splitMixed(text);
  return `${head}## Code part\n\n${split.code || "(none)"}\n\n## Proposal part\n\n${split.proposal || "(none)"}`;
}

/** One finding as the judge and the author read it. */
export function renderFinding(f: ReviewFinding & { verdict?: string }): string {
  const where = f.evidence
    ? [
        f.evidence.file && `${f.evidence.file}${f.evidence.line ? `:${f.evidence.line}` : ""}`,
        f.evidence.quote && JSON.stringify(f.evidence.quote),
        f.evidence.side === "old" && "(before the change)",
      ]
        .filter(Boolean)
        .join(" ")
    : "";
  return `- ${f.id} [${f.severity}] ${f.title}${f.verdict ? ` — judge: ${f.verdict}` : ""} (evidence ${f.evidence_status ?? "unchecked"}${where ? `: ${where}` : ""})\n  ${f.detail}${f.suggestion ? `\n  Suggestion: ${f.suggestion}` : ""}`;
}

/** The task the seat `role` has at the current step. */
export function reviewTask(state: ReviewState, role: string): string {
  if (role === "critic") return "critique";
  if (role === "judge") return "classify";
  return state.frontmatter.pending?.task ?? "rebuttal";
}

/** The prompt of one review seat at the current step, from its agent template. */
export function buildReviewPrompt(
  state: ReviewState,
  role: string,
  options: BuildPromptOptions = {},
): string {
  const fm = state.frontmatter;
  const rounds = roundsOf(state);
  const common = {
    artifact: artifactForPrompt(state),
    skills: options.skills?.trim() || "(no extra guidance for this review)",
    feedback: feedbackBlock(options.feedback),
  };
  if (role === "critic") {
    return fillTemplate(pick(options, "critic", "critique"), {
      ...common,
      target: fm.target,
      round: String(fm.current_exchange),
      max_rounds: String(fm.max_rounds),
      previous: critiqueContext(
        rounds.filter((r) => r.round < fm.current_exchange),
        contextWindow(state),
      ),
    });
  }
  const current = rounds.find((r) => r.round === fm.current_exchange);
  if (role === "judge") {
    const findings = current?.critique.findings ?? [];
    return fillTemplate(pick(options, "judge", "classify"), {
      ...common,
      target: fm.target,
      round: String(fm.current_exchange),
      findings: findings.map(renderFinding).join("\n") || "(no findings)",
      finding_ids: findings.map((f) => f.id).join(", ") || "(none)",
    });
  }
  const task = reviewTask(state, role);
  const classified = current?.classified ?? [];
  const shown = task === "rebuttal" ? classified : classified.filter((f) => f.verdict === "valid");
  return fillTemplate(pick(options, "author", task), {
    ...common,
    findings: shown.map(renderFinding).join("\n") || "(none)",
    reasons: current?.judgment?.reasons.join("\n") ?? "(none)",
  });
}
