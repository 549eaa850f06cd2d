import type { Role } from "@debatekit/schema";
import { indexWords, isUnspacedScript, normalizeText, splitWords, type WordIndex } from "./normalize.js";
import type { LoadedSkill } from "./types.js";

/** Points for one matched trigger: 10 per word of the phrase, +1 per extra occurrence (at most +4). */
export const POINTS_PER_WORD = 10;
/** Extra occurrences of one trigger that still add a point (stops keyword stuffing). */
export const MAX_EXTRA_OCCURRENCES = 4;
/** Points a `*` trigger gives: the same as a one-word match. */
export const ALWAYS_POINTS = 10;

/** One trigger of a skill that matched the text. */
export interface TriggerHit {
  trigger: string;
  occurrences: number;
  points: number;
}

/** A skill whose triggers matched, with its score and what made it. */
export interface SkillMatch {
  skill: LoadedSkill;
  /** It has a `*` trigger: declared essential for its roles, so it is ranked before the others. */
  always: boolean;
  score: number;
  hits: TriggerHit[];
}

interface CompiledTrigger {
  trigger: string;
  always: boolean;
  words: string[];
  /** Matched as a substring (CJK and other unspaced scripts) instead of by words. */
  substring?: string;
}

const compiled = new WeakMap<LoadedSkill, CompiledTrigger[]>();

/** Normalizes a trigger once per loaded skill; triggers without letters or digits never match. */
function compileTriggers(skill: LoadedSkill): CompiledTrigger[] {
  let list = compiled.get(skill);
  if (list) return list;
  list = [];
  for (const trigger of skill.manifest.triggers) {
    if (trigger.trim() === "*") {
      list.push({ trigger, always: true, words: [] });
      continue;
    }
    const words = splitWords(normalizeText(trigger));
    if (words.length === 0) continue;
    if (words.every(isUnspacedScript))
      list.push({ trigger, always: false, words, substring: words.join("") });
    else list.push({ trigger, always: false, words });
  }
  compiled.set(skill, list);
  return list;
}

/** True when the skill may go into the prompt of a seat with this role. */
export function appliesToRole(skill: LoadedSkill, role: Role): boolean {
  const agents = skill.manifest.applicable_agents;
  if (agents.includes(role)) return true;
  if (role === "proposition" || role === "opposition") return agents.includes("debater");
  if (role === "debater") return agents.includes("proposition") || agents.includes("opposition");
  return false;
}

function countPhrase(index: WordIndex, words: string[]): number {
  const starts = index.positions.get(words[0]!);
  if (!starts) return 0;
  let count = 0;
  for (const start of starts) {
    let ok = start + words.length <= index.words.length;
    for (let k = 1; ok && k < words.length; k++) {
      ok = index.words[start + k] === words[k] && !index.breakBefore[start + k];
    }
    if (ok) count++;
  }
  return count;
}

function countSubstring(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Scores one skill against an indexed text; null when no trigger matches. */
export function scoreSkill(skill: LoadedSkill, index: WordIndex): SkillMatch | null {
  const hits: TriggerHit[] = [];
  for (const t of compileTriggers(skill)) {
    if (t.always) {
      hits.push({ trigger: t.trigger, occurrences: 0, points: ALWAYS_POINTS });
      continue;
    }
    const occurrences =
      t.substring !== undefined ? countSubstring(index.text, t.substring) : countPhrase(index, t.words);
    if (occurrences === 0) continue;
    const points = POINTS_PER_WORD * t.words.length + Math.min(occurrences - 1, MAX_EXTRA_OCCURRENCES);
    hits.push({ trigger: t.trigger, occurrences, points });
  }
  if (hits.length === 0) return null;
  hits.sort((a, b) => b.points - a.points || compareCodePoints(a.trigger, b.trigger));
  const always = hits.some((h) => h.occurrences === 0);
  return { skill, always, score: hits.reduce((sum, h) => sum + h.points, 0), hits };
}

/** Code-point order: the same on every machine and locale (localeCompare is not). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The skills that apply to the role and whose triggers match the text, best first: always-on
 * (`*`) skills before the others, then score descending, then name in code-point order.
 */
export function matchSkills(
  skills: readonly LoadedSkill[],
  query: { text: string; role: Role },
): SkillMatch[] {
  const index = indexWords(query.text);
  const matches: SkillMatch[] = [];
  for (const skill of skills) {
    if (!appliesToRole(skill, query.role)) continue;
    const match = scoreSkill(skill, index);
    if (match) matches.push(match);
  }
  return matches.sort(
    (a, b) =>
      Number(b.always) - Number(a.always) ||
      b.score - a.score ||
      compareCodePoints(a.skill.name, b.skill.name),
  );
}
