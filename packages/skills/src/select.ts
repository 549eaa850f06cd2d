import { createHash } from "node:crypto";
import { type ConceptHit, compareCodePoints, matchSkills, type SeatQuery, type TriggerHit } from "./match.js";
import { countTokens, cutToTokens, TOKEN_ENCODING } from "./tokens.js";
import type { LoadedSkill } from "./types.js";

/** What a seat asks for: the text to match, its role and kinds, and how many tokens all skills may take. */
export interface SkillQuery extends SeatQuery {
  budgetTokens: number;
  /** Skill names never to use. */
  exclude?: readonly string[];
}

/** A skill that goes into the prompt. */
export interface ChosenSkill {
  name: string;
  /** It has a `*` trigger: ranked before every other skill, whatever the scores. */
  always: boolean;
  /** Trigger and concept points (an always-on skill's `*` counts ALWAYS_POINTS). */
  score: number;
  /** The triggers that matched, best first ("*" for an always-on skill). */
  matched: string[];
  hits: TriggerHit[];
  /** The concepts of its manifest that the text means. */
  concepts: ConceptHit[];
  /** Tokens of its block in the prompt (heading + text). */
  tokens: number;
  /** Tokens of the whole entry text before any cut. */
  fullTokens: number;
  truncated: boolean;
  /** Why it was cut: its own max_context_tokens, or what was left of the seat's budget. */
  cutBy?: "max_context_tokens" | "budget";
  /** The skill's text as sent (cut, with its marker, when truncated). */
  text: string;
}

/** A matching skill that was left out, and why. */
export interface DroppedSkill {
  name: string;
  /** It has a `*` trigger. */
  always: boolean;
  score: number;
  code: "excluded" | "over_budget";
  reason: string;
}

/** The outcome of selectSkills: deterministic for the same skills, query and tokenizer. */
export interface Selection {
  chosen: ChosenSkill[];
  dropped: DroppedSkill[];
  /** Exact tokens of `text`. */
  totalTokens: number;
  budgetTokens: number;
  encoding: typeof TOKEN_ENCODING;
  /** The chosen skills' blocks joined, ready for the prompt; "" when none. */
  text: string;
}

export { DEFAULT_SKILL_BUDGET_TOKENS } from "./budget.js";

/** The heading each skill's block starts with in the prompt. */
export function renderSkillBlock(name: string, text: string): string {
  return `## Skill: ${name}\n\n${text}`;
}

/** What separates two skills' blocks in the prompt. */
export const BLOCK_JOINER = "\n\n";

/** A skill cut to fit what is left of the budget must keep at least this many tokens, else it is dropped. */
export const MIN_BUDGET_CUT_TOKENS = 100;

/**
 * Tokens of a skill's block (heading + text), given the text's own count. The heading ends in a
 * newline run, and cl100k_base's pre-tokenizer never joins a newline run with a non-space character
 * after it (no piece ends in a newline and goes on; the pattern has no lookbehind), so when the text
 * starts with a non-space character the block splits into exactly the heading's pieces and the
 * text's: the counts add up. Any other text is counted whole. Saves one pass per skill.
 */
export function countBlockTokens(name: string, text: string, textTokens: number): number {
  if (/^\S/u.test(text)) return countTokens(renderSkillBlock(name, "")) + textTokens;
  return countTokens(renderSkillBlock(name, text));
}

function cutMarker(name: string, limit: number, fullTokens: number): string {
  return `[skill "${name}" cut to ${limit} tokens of ${fullTokens}]`;
}

interface OwnCut {
  limit: number;
  text: string;
  fullTokens: number;
  truncated: boolean;
  /** Tokens of the skill's block (heading + text) as it goes into a prompt when it fits. */
  blockTokens: number;
}

const ownCuts = new WeakMap<LoadedSkill, OwnCut>();
// The same cut by content (name, limit, text): a skill reloaded into a new object (its file was
// touched, the loader's cache was cleared, two roots hold the same pack) is not counted again.
const ownCutsByContent = new Map<string, OwnCut>();
/** Cuts remembered by content before that memo starts over (bounds memory in a long-lived process). */
const MAX_CUTS_BY_CONTENT = 10_000;
/** Characters of cut text that memo may hold (16 Mi: 32 MiB of strings) before it starts over. */
const MAX_CUT_CHARS_BY_CONTENT = 16 * 1024 * 1024;
let cutCharsByContent = 0;

function contentKey(skill: LoadedSkill, limit: number): string {
  return createHash("sha256").update(`${limit}\0${skill.name}\0`).update(skill.text).digest("base64");
}

/**
 * The skill cut to its own max_context_tokens, with its token counts, memoized per loaded skill
 * and by content: the loader hands back the same objects while files are unchanged, so a warm
 * selection counts only what the budget forces it to cut.
 */
function cutToOwnLimit(skill: LoadedSkill): OwnCut {
  const limit = skill.manifest.max_context_tokens;
  const memo = ownCuts.get(skill);
  if (memo && memo.limit === limit) return memo;
  const key = contentKey(skill, limit);
  const known = ownCutsByContent.get(key);
  if (known) {
    ownCuts.set(skill, known);
    return known;
  }
  const fullTokens = countTokens(skill.text);
  const cut = cutToTokens(skill.text, limit, cutMarker(skill.name, limit, fullTokens), fullTokens);
  const blockTokens = cut.text === "" ? 0 : countBlockTokens(skill.name, cut.text, cut.tokens);
  const result = { limit, text: cut.text, fullTokens, truncated: cut.truncated, blockTokens };
  ownCuts.set(skill, result);
  if (
    ownCutsByContent.size >= MAX_CUTS_BY_CONTENT ||
    cutCharsByContent + result.text.length > MAX_CUT_CHARS_BY_CONTENT
  ) {
    ownCutsByContent.clear();
    cutCharsByContent = 0;
  }
  ownCutsByContent.set(key, result);
  cutCharsByContent += result.text.length;
  return result;
}

/**
 * Chooses the skills for one seat. Matching skills (role filter, triggers) are taken best first
 * (always-on first, then score, then name); each is cut to its own max_context_tokens and goes in
 * whole if it fits what is left of the budget. The first one that does not fit is cut further, at a
 * paragraph boundary, to fill what is left (if at least MIN_BUDGET_CUT_TOKENS remain); after that,
 * later skills go in only whole. Everything left out is reported with the reason. The total is
 * counted on the final joined text, so it never exceeds `budgetTokens`.
 */
export function selectSkills(skills: readonly LoadedSkill[], query: SkillQuery): Selection {
  const budget = Math.max(0, Math.floor(query.budgetTokens));
  const excluded = new Set(query.exclude ?? []);
  const chosen: ChosenSkill[] = [];
  const dropped: DroppedSkill[] = [];
  const joinerTokens = countTokens(BLOCK_JOINER);
  let used = 0;
  let budgetCut: string | undefined;
  for (const match of matchSkills(skills, query)) {
    const { skill, score, hits, always, concepts } = match;
    if (excluded.has(skill.name)) {
      dropped.push({
        name: skill.name,
        always,
        score,
        code: "excluded",
        reason: "excluded by skills.exclude",
      });
      continue;
    }
    const own = cutToOwnLimit(skill);
    const seam = chosen.length > 0 ? joinerTokens : 0;
    const left = budget - used - seam;
    const blockTokens = own.blockTokens;
    const base = {
      name: skill.name,
      always,
      score,
      matched: hits.map((h) => h.trigger),
      hits,
      concepts,
      fullTokens: own.fullTokens,
    };
    if (own.text !== "" && blockTokens <= left) {
      chosen.push({
        ...base,
        tokens: blockTokens,
        truncated: own.truncated,
        ...(own.truncated ? { cutBy: "max_context_tokens" as const } : {}),
        text: own.text,
      });
      used += seam + blockTokens;
      continue;
    }
    const headingTokens = countTokens(renderSkillBlock(skill.name, ""));
    const roomForText = left - headingTokens;
    const cut =
      budgetCut === undefined && left >= MIN_BUDGET_CUT_TOKENS && roomForText > 0
        ? cutToTokens(
            skill.text,
            roomForText,
            cutMarker(skill.name, roomForText, own.fullTokens),
            own.fullTokens,
          )
        : null;
    const cutTokens = cut && cut.text !== "" ? countBlockTokens(skill.name, cut.text, cut.tokens) : 0;
    if (cut && cut.text !== "" && cutTokens <= left && cutTokens >= MIN_BUDGET_CUT_TOKENS) {
      chosen.push({ ...base, tokens: cutTokens, truncated: true, cutBy: "budget", text: cut.text });
      used += seam + cutTokens;
      budgetCut = skill.name;
      continue;
    }
    dropped.push({
      name: skill.name,
      always: match.always,
      score,
      code: "over_budget",
      reason: `needs ${blockTokens} tokens, ${Math.max(0, left)} of ${budget} left${
        budgetCut !== undefined
          ? ` (only one skill is cut to fill the budget: ${budgetCut})`
          : left < MIN_BUDGET_CUT_TOKENS
            ? ` (a cut below ${MIN_BUDGET_CUT_TOKENS} tokens is not sent)`
            : `, and no paragraph cut of at least ${MIN_BUDGET_CUT_TOKENS} tokens fits`
      }`,
    });
  }
  // Per-block counts are exact, but tokens can merge across the seams: check the joined text.
  let text = chosen.map((c) => renderSkillBlock(c.name, c.text)).join(BLOCK_JOINER);
  let totalTokens = countTokens(text);
  while (totalTokens > budget && chosen.length > 0) {
    const last = chosen.pop()!;
    dropped.push({
      name: last.name,
      always: last.always,
      score: last.score,
      code: "over_budget",
      reason: `joining the blocks came to ${totalTokens} tokens, over the budget of ${budget}`,
    });
    text = chosen.map((c) => renderSkillBlock(c.name, c.text)).join(BLOCK_JOINER);
    totalTokens = countTokens(text);
  }
  dropped.sort(
    (a, b) => Number(b.always) - Number(a.always) || b.score - a.score || compareCodePoints(a.name, b.name),
  );
  return { chosen, dropped, totalTokens, budgetTokens: budget, encoding: TOKEN_ENCODING, text };
}
