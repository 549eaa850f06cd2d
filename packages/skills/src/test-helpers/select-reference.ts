// The selection algorithm as it was before selection became lazy (commit be11e4f), kept verbatim as
// the reference the property tests compare selectSkills against. It counts every token with the
// plain js-tiktoken encoder (no piece memo) and cuts with its own copy of cutToTokens, so a bug in
// the fast paths cannot hide in both. Do not "improve" this file: its only job is to stay the same.

import { compareCodePoints, matchSkills } from "../match.js";
import {
  BLOCK_JOINER,
  type ChosenSkill,
  type DroppedSkill,
  MIN_BUDGET_CUT_TOKENS,
  renderSkillBlock,
  type Selection,
  type SkillQuery,
} from "../select.js";
import { decodeTokens, encodeTokens, TOKEN_ENCODING } from "../tokens.js";
import type { LoadedSkill } from "../types.js";

/** Tokens as js-tiktoken counts them, with no memo in between. */
function countTokens(text: string): number {
  return text === "" ? 0 : encodeTokens(text).length;
}

interface CutText {
  text: string;
  tokens: number;
  truncated: boolean;
  fullTokens: number;
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

/**
 * The skill cut to its own max_context_tokens, with its token counts, memoized per loaded skill:
 * the loader hands back the same objects while files are unchanged, so a warm selection counts
 * only what the budget forces it to cut.
 */
function cutToOwnLimit(skill: LoadedSkill): OwnCut {
  const limit = skill.manifest.max_context_tokens;
  const memo = ownCuts.get(skill);
  if (memo && memo.limit === limit) return memo;
  const fullTokens = countTokens(skill.text);
  const cut = cutToTokens(skill.text, limit, cutMarker(skill.name, limit, fullTokens), fullTokens);
  const blockTokens = cut.text === "" ? 0 : countTokens(renderSkillBlock(skill.name, cut.text));
  const result = { limit, text: cut.text, fullTokens, truncated: cut.truncated, blockTokens };
  ownCuts.set(skill, result);
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
export function selectSkillsReference(skills: readonly LoadedSkill[], query: SkillQuery): Selection {
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
    const cutBlock = cut && cut.text !== "" ? renderSkillBlock(skill.name, cut.text) : "";
    const cutTokens = cutBlock === "" ? 0 : countTokens(cutBlock);
    if (cut && cutBlock !== "" && cutTokens <= left && cutTokens >= MIN_BUDGET_CUT_TOKENS) {
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

function fenceOpen(text: string): boolean {
  return ((text.match(/^\s*(```|~~~)/gm) ?? []).length & 1) === 1;
}

/**
 * Cuts text to at most `maxTokens` tokens, marker included. It keeps whole paragraphs (blank-line
 * separated) and never leaves a code fence open; when not even the first paragraph fits it keeps
 * whole lines, and as a last resort whole tokens. `marker` is appended (after a blank line) only
 * when something was cut. Returns empty text when not even the marker fits. `knownTokens` (the
 * text's count, when the caller has it) saves one pass of the tokenizer.
 */
function cutToTokens(text: string, maxTokens: number, marker: string, knownTokens?: number): CutText {
  const fullTokens = knownTokens ?? countTokens(text);
  if (fullTokens <= maxTokens) return { text, tokens: fullTokens, truncated: false, fullTokens };
  const tail = `\n\n${marker}`;
  let room = maxTokens - countTokens(tail);
  while (room > 0) {
    const kept =
      keepUnits(text.split(/\n[ \t]*\n/), "\n\n", room, (s) => !fenceOpen(s)) ??
      keepUnits(text.split("\n"), "\n", room, (s) => !fenceOpen(s)) ??
      keepTokens(text, room);
    if (!kept) break;
    const withMarker = kept + tail;
    const tokens = countTokens(withMarker);
    if (tokens <= maxTokens) return { text: withMarker, tokens, truncated: true, fullTokens };
    // Joining can merge tokens across the seam; shrink and try again (the count is exact).
    room = Math.min(room, countTokens(kept)) - 1;
  }
  return { text: "", tokens: 0, truncated: true, fullTokens };
}

/** The longest prefix of units that fits `room` tokens and passes `ok`; null when none does. */
function keepUnits(units: string[], joiner: string, room: number, ok: (s: string) => boolean): string | null {
  let budget = 0;
  let n = 0;
  while (n < units.length) {
    const next = budget + countTokens(units[n]!) + (n > 0 ? 1 : 0);
    if (next > room) break;
    budget = next;
    n++;
  }
  for (; n > 0; n--) {
    const prefix = units.slice(0, n).join(joiner).trimEnd();
    if (prefix !== "" && ok(prefix) && countTokens(prefix) <= room) return prefix;
  }
  return null;
}

function keepTokens(text: string, room: number): string | null {
  const tokens = encodeTokens(text);
  for (let n = Math.min(room, tokens.length); n > 0; n--) {
    const decoded = decodeTokens(tokens.slice(0, n));
    // A token can end inside a multi-byte character; never show a broken one.
    if (!decoded.endsWith("\uFFFD") && decoded.trim() !== "") return decoded.trimEnd();
  }
  return null;
}
