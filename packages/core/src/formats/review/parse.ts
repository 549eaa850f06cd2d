import {
  type ReviewChoice,
  type ReviewCritique,
  type ReviewFinding,
  validateReviewCritique,
} from "@debatekit/schema";
import { fail, ok, quote, ruleError } from "../../errors.js";
import { extractJson } from "../../extract-json.js";
import { schemaRuleErrors } from "../../schema-errors.js";
import type { Result } from "../../types.js";

/** Which of the three answer forms a critique came in. */
export type CritiqueForm = "json" | "markdown" | "bullets";

type Severity = ReviewFinding["severity"];
type Section = Severity | "missing" | "recommendation" | "other";

// Headings of fancive's code review (`Must Fix`) and proposal review (`Must Reconsider`) prompts.
const SECTION_WORDS: Array<[RegExp, Section]> = [
  [/^P1\b|must fix|must reconsider/i, "P1"],
  [/^P2\b|should fix|should improve/i, "P2"],
  [/^P3\b|nice to have|nice to strengthen/i, "P3"],
  [/^missing/i, "missing"],
  [/recommend/i, "recommendation"],
];
const HEADING = /^#{1,6}\s*(.+?)\s*#*\s*$/;
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
const NONE = /^(none|n\/a|no issues?|nothing|none identified)\b[^a-z]*$/i;
// `codex review`'s native form: `- [P1] Title — path/to/file.ts:12-14`, body indented below.
const NATIVE = /^\s*(?:[-*]\s*)?\[P([123])\]\s*(.+)$/;
const LOCATION = /\s+[—–-]+\s+(\S+?):(\d+)(?:-\d+)?\s*$/;
// `[src/a.ts:12] text`, `src/a.ts:12: text` or `(src/a.ts:12)` inside a markdown finding.
const INLINE_LOCATION = /\[?`?([\w./@-]+\.[\w]+):(\d+)(?:-\d+)?`?\]?/;
const AGREE = /^\s*(?:\*\*)?agree(?:ment)?(?:\*\*)?\s*:\s*(?:\*\*)?\s*(yes|no|true|false)\b/im;
const CHOICE = /\b([A-E])\b(?![a-z])/;
const CHOICE_WORDS: Array<[RegExp, ReviewChoice]> = [
  [/\bkeep\b/i, "A"],
  [/\baccept|\brevise\b|\breject\b/i, "B"],
  [/\bcompromise\b/i, "C"],
  [/\bcontinue|\brebut/i, "D"],
  [/\bstop\b/i, "E"],
];

function choiceOf(text: string): ReviewChoice | undefined {
  const letter = CHOICE.exec(text.replace(/\*|`/g, ""));
  if (letter) return letter[1] as ReviewChoice;
  return CHOICE_WORDS.find(([re]) => re.test(text))?.[1];
}

function agreeOf(text: string): boolean {
  const m = AGREE.exec(text);
  return m ? m[1]!.toLowerCase() === "yes" || m[1]!.toLowerCase() === "true" : false;
}

/** Splits `**Title**: detail` / `Title — detail` / `Title: detail` into title and detail. */
function titled(text: string): { title: string; detail: string } {
  const bold = /^\*\*(.+?)\*\*[:.\s—–-]*(.*)$/.exec(text);
  if (bold) return { title: bold[1]!.trim(), detail: bold[2]!.trim() };
  const split = /^(.{3,120}?)(?::\s+|\s+[—–]\s+|\.\s+)(.+)$/.exec(text);
  if (split) return { title: split[1]!.trim(), detail: split[2]!.trim() };
  return { title: text.trim().slice(0, 300), detail: "" };
}

function withLocation(finding: ReviewFinding, text: string): ReviewFinding {
  const loc = INLINE_LOCATION.exec(text);
  const code = /`([^`]{4,})`/.exec(text.replace(INLINE_LOCATION, ""));
  const evidence = {
    ...(loc ? { file: loc[1]!, line: Number(loc[2]) } : {}),
    ...(code ? { quote: code[1]! } : {}),
  };
  return Object.keys(evidence).length > 0 ? { ...finding, evidence } : finding;
}

function finish(findings: ReviewFinding[]): ReviewFinding[] {
  return findings.map((f) => ({
    ...f,
    title: f.title.slice(0, 300),
    detail: f.detail.trim().slice(0, 4000),
  }));
}

/** The markdown heading form (`## P1 - Must Fix`, `## P2 - Should Improve`, ...), or undefined when it has no such heading. */
export function parseMarkdownCritique(text: string): ReviewCritique | undefined {
  let section: Section | undefined;
  let seen = false;
  const findings: ReviewFinding[] = [];
  const missing: string[] = [];
  let recommendationText = "";
  let current: ReviewFinding | undefined;
  for (const line of text.split(/\r?\n/)) {
    const heading = HEADING.exec(line);
    if (heading) {
      const found = SECTION_WORDS.find(([re]) => re.test(heading[1]!));
      section = found?.[1] ?? "other";
      if (found && found[1] !== "other") seen = true;
      current = undefined;
      continue;
    }
    if (!section || section === "other") continue;
    if (section === "recommendation") {
      recommendationText += `${line}\n`;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const item = bullet[1]!.trim();
      if (!item || NONE.test(item)) {
        current = undefined;
        continue;
      }
      if (section === "missing") {
        missing.push(item.slice(0, 2000));
        continue;
      }
      const { title, detail } = titled(item.replace(/^\[[^\]]+:\d+(?:-\d+)?\]\s*/, ""));
      current = withLocation({ severity: section, title, detail }, item);
      findings.push(current);
    } else if (current && line.trim() && /^\s/.test(line)) {
      // Continuation lines belong to the finding above (the source drops them).
      current.detail = `${current.detail} ${line.trim()}`.trim();
      if (!current.evidence) Object.assign(current, withLocation(current, line));
    }
  }
  if (!seen) return undefined;
  const recommendation = choiceOf(recommendationText);
  return {
    findings: finish(findings),
    missing_alternatives: missing,
    ...(recommendation ? { recommendation } : {}),
    agree: agreeOf(text),
  };
}

/** `codex review`'s native `[P1]` bullets, or undefined when there are none. */
export function parseNativeCritique(text: string): ReviewCritique | undefined {
  const findings: ReviewFinding[] = [];
  let current: ReviewFinding | undefined;
  let indent = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = NATIVE.exec(line);
    if (m) {
      let head = m[2]!.trim();
      const loc = LOCATION.exec(head);
      if (loc) head = head.slice(0, loc.index).trim();
      current = {
        severity: `P${m[1]}` as Severity,
        title: head,
        detail: "",
        ...(loc ? { evidence: { file: loc[1]!, line: Number(loc[2]) } } : {}),
      };
      indent = line.length - line.trimStart().length;
      findings.push(current);
      continue;
    }
    if (current && line.trim() && line.length - line.trimStart().length > indent) {
      current.detail = `${current.detail} ${line.trim()}`.trim();
    } else if (!line.trim()) {
      // blank lines inside a comment's body are kept going
    } else current = undefined;
  }
  if (findings.length === 0) return undefined;
  return { findings: finish(findings), missing_alternatives: [], agree: false };
}

/**
 * Parses a critic's answer in any of its three forms to the same findings: JSON (review-critique
 * schema), the markdown heading form, or `codex review`'s native `[P1]` bullets. An answer with none
 * of them is REVIEW_CRITIQUE_UNREADABLE (never read as "no concerns").
 */
export function parseCritique(text: string): Result<{ critique: ReviewCritique; form: CritiqueForm }> {
  const json = extractJson(text);
  if (json.ok && ("findings" in json.value || "agree" in json.value)) {
    const checked = validateReviewCritique(json.value);
    if (!checked.ok)
      return fail(
        ...schemaRuleErrors(
          "ANSWER_SCHEMA",
          "the critique does not match the expected shape",
          checked.errors,
        ),
      );
    return ok({ critique: checked.value, form: "json" });
  }
  const markdown = parseMarkdownCritique(text);
  if (markdown) return ok({ critique: markdown, form: "markdown" });
  const native = parseNativeCritique(text);
  if (native) return ok({ critique: native, form: "bullets" });
  return fail(
    ruleError(
      "REVIEW_CRITIQUE_UNREADABLE",
      "(answer)",
      `expected JSON findings, \`## P1 - Must Fix\` sections or \`[P1]\` bullets, found ${quote(text)}`,
    ),
  );
}
