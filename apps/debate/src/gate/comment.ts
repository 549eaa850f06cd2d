import { escapeHtml, escapeMarkdownBlock, markdownCode, escapeMarkdown as md } from "@debatekit/report";
import type { GateFinding, GateResult } from "@debatekit/schema";
import { revealHidden } from "./hidden-unicode.js";

/** Marks our comment on a pull request, so the action updates it instead of adding another. */
export const COMMENT_MARKER = "<!-- debatekit-gate -->";

const HEAD = {
  pass: "✅ debatekit gate: **pass**",
  blocked: "❌ debatekit gate: **blocked**",
  undecided: "⚠️ debatekit gate: **undecided**",
} as const;

// A code span as CommonMark reads one on a single line: a run of backticks, then text, then a run
// of the same length with no backtick either side. GitHub renders its text as written (no markup and
// no @mention inside), so an install command such as `npm install -g @openai/codex` stays copyable.
const CODE_SPAN = /(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)/g;

/**
 * Text of one line as markdown prose: its code spans kept as written, everything between them
 * escaped like {@link md} (no markup of its own, @-mentions broken).
 */
export function mdProse(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  // md() trims, so the single space either side of a piece is put back around it.
  const prose = (t: string) =>
    t.trim() ? `${t.startsWith(" ") ? " " : ""}${md(t)}${t.endsWith(" ") ? " " : ""}` : t;
  let out = "";
  let last = 0;
  for (const m of line.matchAll(CODE_SPAN)) {
    out += `${prose(line.slice(last, m.index))}${m[0]}`;
    last = m.index + m[0].length;
  }
  return out + prose(line.slice(last));
}

// Model text is untrusted: every piece of it goes through the markdown escaper (no HTML, heading,
// link, image, live @mention or table cell of its own), a multi-line text through the block form.
function row(f: GateFinding): string {
  const where = f.file
    ? `${markdownCode(`${f.file}${f.line ? `:${f.line}` : ""}`)}${f.side === "old" ? " (before the change)" : ""}`
    : "—";
  return `| ${f.blocking ? "**blocks**" : ""} | ${f.severity} | ${md(f.title)} | ${where} | ${f.verdict} | ${f.evidence_status} |`;
}

/** Where the review's settings came from: the base revision, never the change it reviews. */
function settingsLine(settings: GateResult["settings"]): string | undefined {
  if (!settings) return undefined;
  const files = settings.files.map((f) => markdownCode(f)).join(", ");
  return `Policy, config and role prompts: base ${markdownCode(settings.base.slice(0, 12))} (${files || "none in the repository"})`;
}

/** How many places with hidden Unicode the comment names; the JSON result has them all. */
const HIDDEN_SHOWN = 20;

/**
 * A caution when the reviewed change carries hidden Unicode: where (file and line, or the commit
 * message or pull request text) and which characters, the names written out so nothing stays hidden.
 */
export function hiddenUnicodeNote(found: GateResult["hidden_unicode"]): string | undefined {
  if (!found || found.length === 0) return undefined;
  const where = (h: NonNullable<GateResult["hidden_unicode"]>[number]) =>
    h.file ? markdownCode(`${revealHidden(h.file)}${h.line ? `:${h.line}` : ""}`) : h.in;
  const lines = found.slice(0, HIDDEN_SHOWN).map((h) => `> - ${where(h)}: ${h.chars.join(", ")}`);
  if (found.length > HIDDEN_SHOWN) lines.push(`> - and ${found.length - HIDDEN_SHOWN} more (in --json)`);
  return `> [!CAUTION]\n> **Hidden Unicode** in the reviewed change: invisible or bidirectional-control characters, a known carrier of prompt injection (the reviewers read text a person does not see). Check these before trusting the result:\n${lines.join("\n")}`;
}

/**
 * The pull request comment (and the step summary) of a gate: the degraded state first when there is
 * one, then the outcome and its reason, then the findings with the blocking ones first.
 */
export function renderGateComment(result: GateResult): string {
  const parts: string[] = [COMMENT_MARKER];
  if (result.degraded.length > 0) {
    parts.push(
      `> [!WARNING]\n> **Degraded:** this result rests on less than was configured.\n${result.degraded
        .map((d) => `> - **${md(d.cause)}**: ${mdProse(d.message)}${d.error ? ` — ${mdProse(d.error)}` : ""}`)
        .join("\n")}`,
    );
  }
  const hidden = hiddenUnicodeNote(result.hidden_unicode);
  if (hidden) parts.push(hidden);
  parts.push(`## ${HEAD[result.outcome]} (exit ${result.exit_code})\n\n${mdProse(result.reason)}`);
  const facts = [
    result.scope ? `scope ${markdownCode(result.scope)}` : undefined,
    result.revision ? `revision \`${result.revision.slice(0, 12)}\`` : undefined,
    result.decision ? `decision **${result.decision}**` : undefined,
    result.stop_reason ? `stopped: ${result.stop_reason}` : undefined,
    `${result.rounds ?? 0} round(s)`,
  ].filter(Boolean);
  parts.push(facts.join(" · "));
  const settings = settingsLine(result.settings);
  if (settings) parts.push(settings);
  const shown = result.findings.filter((f) => f.verdict !== "invalid");
  if (shown.length > 0) {
    parts.push(
      `### Findings\n\n|  | severity | finding | where | judge | evidence |\n|---|---|---|---|---|---|\n${shown.map(row).join("\n")}`,
    );
    const blocking = shown.filter((f) => f.blocking);
    if (blocking.length > 0)
      parts.push(
        blocking
          .map(
            (f) =>
              // The summary is raw HTML (markdown is not read there), so it names the finding by its id only.
              `<details><summary>${escapeHtml(f.id)}: why it blocks</summary>\n\n**${md(f.title)}**\n\n${escapeMarkdownBlock(f.detail)}${f.suggestion ? `\n\n**Suggestion:** ${escapeMarkdownBlock(f.suggestion)}` : ""}\n\n</details>`,
          )
          .join("\n"),
      );
  } else parts.push("No finding stands.");
  const invalid = result.findings.length - shown.length;
  if (invalid > 0) parts.push(`_${invalid} finding(s) judged invalid are not shown._`);
  return `${parts.join("\n\n")}\n`;
}
