import { annotateCodeReferences } from "./code-refs.js";
import { indexWords, isUnspacedScript, normalizeText, splitWords, type WordIndex } from "./normalize.js";
import {
  corpusOf,
  isStopWord,
  NO_RANKED_MATCH,
  queryOf,
  type RankedMatch,
  rankQuery,
  stemWord,
} from "./rank.js";
import { rewriteSenses } from "./senses.js";
import type { LoadedSkill } from "./types.js";

/** Points for one matched trigger: 10 per word of the phrase, +1 per extra occurrence (at most +4). */
export const POINTS_PER_WORD = 10;
/** Extra occurrences of one trigger that still add a point (stops keyword stuffing). */
export const MAX_EXTRA_OCCURRENCES = 4;
/** Points a `*` trigger gives: the same as a one-word match. */
export const ALWAYS_POINTS = 10;
/** The ranked score (BM25 sum × distinct stems) at which the ranked match alone selects a skill. */
export const RANK_THRESHOLD = 40;
/**
 * The ranked score a trigger matched only by stem needs to select its skill: a stem alone is weak
 * evidence (`hires` is not `hiring`, `renderer` is not `render`), so the ranked match must agree.
 */
export const STEM_SUPPORT = 15;

/**
 * Points one matched concept gives, however many of its phrases match: the same as a one-word
 * trigger, so a skill that names the subject outright still ranks above one found by its meaning.
 */
export const CONCEPT_POINTS = 10;

/** One concept of a skill (its manifest's `concepts`) that the text means. */
export interface ConceptHit {
  /** The concept's name. */
  concept: string;
  /** Its phrases that matched, as the manifest writes them, in manifest order. */
  phrases: string[];
  /** The text's words that matched them, normalized, in code-point order. */
  words: string[];
  points: number;
}

/** One trigger of a skill that matched the text. */
export interface TriggerHit {
  trigger: string;
  occurrences: number;
  points: number;
  /**
   * Set when the trigger matched only through Porter stems (`migrate` in "migrating"): the text's
   * words that matched, normalized. Absent for an exact match and for `*`.
   */
  stemmed?: string[];
}

/** A skill that matched the text, with its score and what made it. */
export interface SkillMatch {
  skill: LoadedSkill;
  /** It has a `*` trigger: declared essential for its roles, so it is ranked before the others. */
  always: boolean;
  /**
   * Points of the triggers that matched (exactly or by stem) and of the concepts the text means (0
   * when only the ranked match found it). An always-on skill counts ALWAYS_POINTS for its `*`.
   */
  score: number;
  hits: TriggerHit[];
  /** The skill's concepts whose phrases the text holds, in manifest order. */
  concepts: ConceptHit[];
  /** BM25 of the text's stems over the skill's triggers, description and headings. */
  ranked: RankedMatch;
  /** True when `ranked.score` reaches RANK_THRESHOLD: the ranked match alone would select the skill. */
  rankedOk: boolean;
  /**
   * Whether the text selects it: `*`, a trigger matched exactly, a concept, a trigger matched only
   * by stem with the ranked match at STEM_SUPPORT or more, or the ranked match at RANK_THRESHOLD.
   */
  selected: boolean;
}

interface CompiledTrigger {
  trigger: string;
  always: boolean;
  words: string[];
  /** The words' Porter stems. */
  stems: string[];
  /** The stems joined: triggers with the same key count once. */
  key: string;
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
      list.push({ trigger, always: true, words: [], stems: [], key: "*" });
      continue;
    }
    const words = splitWords(normalizeText(trigger));
    if (words.length === 0) continue;
    if (words.every(isUnspacedScript))
      list.push({
        trigger,
        always: false,
        words,
        stems: words,
        key: words.join(""),
        substring: words.join(""),
      });
    else {
      const stems = words.map(stemWord);
      list.push({ trigger, always: false, words, stems, key: stems.join(" ") });
    }
  }
  compiled.set(skill, list);
  return list;
}

interface CompiledPhrase {
  phrase: string;
  words: string[];
  stems: string[];
  /** Matched as a substring (CJK and other unspaced scripts) instead of by words. */
  substring?: string;
}

interface CompiledConcept {
  concept: string;
  phrases: CompiledPhrase[];
}

const compiledConcepts = new WeakMap<LoadedSkill, CompiledConcept[]>();

/** Normalizes a skill's concept phrases once per loaded skill; phrases without letters or digits never match. */
function compileConcepts(skill: LoadedSkill): CompiledConcept[] {
  let list = compiledConcepts.get(skill);
  if (list) return list;
  list = [];
  // A phrase with the stems of a trigger, or of an earlier phrase, adds nothing: it is left out,
  // so a word counts once (as the trigger) and the explanation names one phrase per stem.
  const seen = new Set(compileTriggers(skill).map((t) => t.key));
  for (const { name, phrases } of skill.manifest.concepts ?? []) {
    const out: CompiledPhrase[] = [];
    for (const phrase of phrases) {
      const words = splitWords(normalizeText(phrase));
      if (words.length === 0) continue;
      const unspaced = words.every(isUnspacedScript);
      const stems = unspaced ? words : words.map(stemWord);
      const key = unspaced ? words.join("") : stems.join(" ");
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(unspaced ? { phrase, words, stems, substring: key } : { phrase, words, stems });
    }
    if (out.length > 0) list.push({ concept: name, phrases: out });
  }
  compiledConcepts.set(skill, list);
  return list;
}

/** Stop words of the text a concept phrase may skip between two of its words ("rotate the keys"). */
export const MAX_SKIPPED_STOP_WORDS = 2;

/**
 * Where a phrase's stems appear in the text's stems in order, each next word right after the
 * previous one or after at most MAX_SKIPPED_STOP_WORDS stop words of the text, never across a
 * sentence end: `[start, end)` word spans. The phrase's own stop words must be there.
 */
function findLoosePhrase(
  index: WordIndex,
  stems: StemIndex,
  phrase: readonly string[],
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const start of stems.positions.get(phrase[0]!) ?? []) {
    let at = start + 1;
    let ok = true;
    for (let k = 1; ok && k < phrase.length; k++) {
      let skipped = 0;
      while (
        at < stems.stems.length &&
        stems.stems[at] !== phrase[k] &&
        skipped < MAX_SKIPPED_STOP_WORDS &&
        !index.breakBefore[at] &&
        isStopWord(index.words[at]!)
      ) {
        at++;
        skipped++;
      }
      ok = at < stems.stems.length && stems.stems[at] === phrase[k] && !index.breakBefore[at];
      at++;
    }
    if (ok) spans.push([start, at]);
  }
  return spans;
}

/** One concept phrase of one skill, filed under its first stem (or as a substring to look for). */
interface PhrasePosting {
  skill: LoadedSkill;
  /** Index of the concept in the skill's compiled concepts, and of the phrase in it. */
  concept: number;
  order: number;
  phrase: CompiledPhrase;
}

/** Every concept phrase of a skill list, by first stem, computed once per list. */
interface ConceptIndex {
  skills: readonly LoadedSkill[];
  byFirstStem: Map<string, PhrasePosting[]>;
  substrings: PhrasePosting[];
}

const conceptIndexes = new WeakMap<readonly LoadedSkill[], ConceptIndex>();

function conceptIndexOf(skills: readonly LoadedSkill[]): ConceptIndex {
  const memo = conceptIndexes.get(skills);
  if (memo && memo.skills.length === skills.length && memo.skills.every((s, i) => s === skills[i]))
    return memo;
  const byFirstStem = new Map<string, PhrasePosting[]>();
  const substrings: PhrasePosting[] = [];
  for (const skill of skills) {
    compileConcepts(skill).forEach(({ phrases }, concept) => {
      phrases.forEach((phrase, order) => {
        const posting = { skill, concept, order, phrase };
        if (phrase.substring !== undefined) substrings.push(posting);
        else {
          const list = byFirstStem.get(phrase.stems[0]!);
          if (list) list.push(posting);
          else byFirstStem.set(phrase.stems[0]!, [posting]);
        }
      });
    });
  }
  const index = { skills: [...skills], byFirstStem, substrings };
  conceptIndexes.set(skills, index);
  return index;
}

/**
 * The concepts each skill of the list means in the text (skills with none are absent). A concept
 * matches when one of its phrases appears as words of the text in order, compared by Porter stem
 * (up to MAX_SKIPPED_STOP_WORDS stop words of the text may come between two of them), never across
 * a sentence end (a phrase in an unspaced script, as a substring). Each matched concept gives
 * CONCEPT_POINTS once. Only the phrases whose first stem is in the text are tried, so a large
 * library costs what its matching phrases cost.
 */
export function conceptHits(
  skills: readonly LoadedSkill[],
  index: WordIndex,
): Map<LoadedSkill, ConceptHit[]> {
  const concepts = conceptIndexOf(skills);
  const stems = stemIndexOf(index);
  const found: Array<{ posting: PhrasePosting; words: string[] }> = [];
  for (const stem of stems.positions.keys()) {
    for (const posting of concepts.byFirstStem.get(stem) ?? []) {
      const spans = findLoosePhrase(index, stems, posting.phrase.stems);
      if (spans.length > 0)
        found.push({ posting, words: spans.map(([from, to]) => index.words.slice(from, to).join(" ")) });
    }
  }
  for (const posting of concepts.substrings)
    if (index.text.includes(posting.phrase.substring!))
      found.push({ posting, words: [posting.phrase.substring!] });
  const bySkill = new Map<LoadedSkill, ConceptHit[]>();
  if (found.length === 0) return bySkill;
  // Concepts in manifest order, their phrases in manifest order.
  found.sort((a, b) => a.posting.concept - b.posting.concept || a.posting.order - b.posting.order);
  const byConcept = new Map<LoadedSkill, Map<number, { phrases: string[]; words: Set<string> }>>();
  for (const { posting, words } of found) {
    let perSkill = byConcept.get(posting.skill);
    if (!perSkill) {
      perSkill = new Map();
      byConcept.set(posting.skill, perSkill);
    }
    let entry = perSkill.get(posting.concept);
    if (!entry) {
      entry = { phrases: [], words: new Set() };
      perSkill.set(posting.concept, entry);
    }
    entry.phrases.push(posting.phrase.phrase);
    for (const w of words) entry.words.add(w);
  }
  for (const [skill, perSkill] of byConcept) {
    const compiledList = compileConcepts(skill);
    bySkill.set(
      skill,
      [...perSkill].map(([concept, { phrases, words }]) => ({
        concept: compiledList[concept]!.concept,
        phrases,
        words: [...words].sort(compareCodePoints),
        points: CONCEPT_POINTS,
      })),
    );
  }
  return bySkill;
}

/** True when the skill has a `*` trigger: it applies to its roles whatever the text. */
export function isAlwaysOn(skill: LoadedSkill): boolean {
  return skill.manifest.triggers.some((t) => t.trim() === "*");
}

/**
 * True when the skill may go into the prompt of a seat with this role: its `applicable_agents`
 * name the role itself or one of the seat's kinds (`debater`, `judge`, ...), which the format
 * gives each of its seats.
 */
export function appliesToRole(skill: LoadedSkill, role: string, kinds: readonly string[] = []): boolean {
  const agents: readonly string[] = skill.manifest.applicable_agents;
  return agents.includes(role) || kinds.some((kind) => agents.includes(kind));
}

/**
 * True when the skill may go into a prompt of this format: its `formats` name it, or it names
 * none. Two formats may both have a `judge`; a rubric written for one format's judge names that
 * format, so the other's judge never gets it. A query without a format is not narrowed.
 */
function appliesToFormat(skill: LoadedSkill, format: string | undefined): boolean {
  const formats = skill.manifest.formats;
  return formats === undefined || format === undefined || formats.includes(format);
}

/** Who a skill is matched for: the seat's role and its kinds, which skills may name instead. */
export interface SeatQuery {
  /** Motion, definitions, scope and the role's task, in any order. */
  text: string;
  role: string;
  /** The seat's kinds (`debater` for a format's arguing seats): a skill naming one applies. */
  kinds?: readonly string[];
  /** The debate's format: a skill whose `formats` leave it out does not apply. */
  format?: string;
}

/** Start positions where `phrase` appears as consecutive words of `words`, never across a sentence end. */
function findPhrase(
  words: readonly string[],
  positions: ReadonlyMap<string, number[]>,
  breakBefore: readonly boolean[],
  phrase: readonly string[],
): number[] {
  const starts = positions.get(phrase[0]!);
  if (!starts) return [];
  const found: number[] = [];
  for (const start of starts) {
    let ok = start + phrase.length <= words.length;
    for (let k = 1; ok && k < phrase.length; k++) {
      ok = words[start + k] === phrase[k] && !breakBefore[start + k];
    }
    if (ok) found.push(start);
  }
  return found;
}

/** The text's words as Porter stems, with their positions, computed once per indexed text. */
interface StemIndex {
  stems: string[];
  positions: Map<string, number[]>;
}

const stemIndexes = new WeakMap<WordIndex, StemIndex>();

function stemIndexOf(index: WordIndex): StemIndex {
  let found = stemIndexes.get(index);
  if (found) return found;
  const stems = index.words.map(stemWord);
  const positions = new Map<string, number[]>();
  stems.forEach((stem, i) => {
    const list = positions.get(stem);
    if (list) list.push(i);
    else positions.set(stem, [i]);
  });
  found = { stems, positions };
  stemIndexes.set(index, found);
  return found;
}

function countSubstring(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/**
 * The trigger hits of one skill against an indexed text, best first. A trigger matches exactly
 * (its words as words of the text) or else by Porter stems; triggers with the same stems
 * (`benchmark`, `benchmarks`) count once, an exact match first, then the first in manifest order.
 */
export function triggerHits(skill: LoadedSkill, index: WordIndex): TriggerHit[] {
  const hits: TriggerHit[] = [];
  const stemKeys = new Set<string>();
  const rest: CompiledTrigger[] = [];
  const points = (t: CompiledTrigger, occurrences: number) =>
    POINTS_PER_WORD * t.words.length + Math.min(occurrences - 1, MAX_EXTRA_OCCURRENCES);
  for (const t of compileTriggers(skill)) {
    if (t.always) {
      hits.push({ trigger: t.trigger, occurrences: 0, points: ALWAYS_POINTS });
      continue;
    }
    const occurrences =
      t.substring !== undefined
        ? countSubstring(index.text, t.substring)
        : findPhrase(index.words, index.positions, index.breakBefore, t.words).length;
    if (occurrences > 0) {
      hits.push({ trigger: t.trigger, occurrences, points: points(t, occurrences) });
      stemKeys.add(t.key);
    } else if (t.substring === undefined) rest.push(t);
  }
  for (const t of rest) {
    if (stemKeys.has(t.key)) continue;
    const stems = stemIndexOf(index);
    const starts = findPhrase(stems.stems, stems.positions, index.breakBefore, t.stems);
    if (starts.length === 0) continue;
    stemKeys.add(t.key);
    const spelled = new Set(starts.map((at) => index.words.slice(at, at + t.words.length).join(" ")));
    hits.push({
      trigger: t.trigger,
      occurrences: starts.length,
      points: points(t, starts.length),
      stemmed: [...spelled].sort(compareCodePoints),
    });
  }
  hits.sort((a, b) => b.points - a.points || compareCodePoints(a.trigger, b.trigger));
  return hits;
}

/** Code-point order: the same on every machine and locale (localeCompare is not). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every skill that applies to the role, scored against the text (trigger hits and the ranked
 * match), whether or not it is selected; in matchSkills' order. For explaining a selection.
 */
export function scoreSkills(skills: readonly LoadedSkill[], query: SeatQuery): SkillMatch[] {
  // A file path, a pull request number or a commit hash counts as the words "code reference";
  // "A/B test" is read as an experiment, "penetration test" as a pentest.
  const text = annotateCodeReferences(rewriteSenses(query.text));
  const index = indexWords(text);
  const corpus = corpusOf(skills);
  const rankedBySkill = rankQuery(queryOf(text), corpus);
  const conceptsBySkill = conceptHits(skills, index);
  const scored: SkillMatch[] = [];
  for (const skill of skills) {
    if (!appliesToRole(skill, query.role, query.kinds) || !appliesToFormat(skill, query.format)) continue;
    const hits = triggerHits(skill, index);
    const concepts = conceptsBySkill.get(skill) ?? [];
    const ranked = rankedBySkill.get(skill) ?? { ...NO_RANKED_MATCH, hits: [] };
    const always = hits.some((h) => h.occurrences === 0);
    const rankedOk = ranked.score >= RANK_THRESHOLD;
    const exact = hits.some((h) => h.stemmed === undefined);
    const stemmed = hits.some((h) => h.stemmed !== undefined);
    scored.push({
      skill,
      always,
      score: hits.reduce((sum, h) => sum + h.points, 0) + concepts.reduce((sum, c) => sum + c.points, 0),
      hits,
      concepts,
      ranked,
      rankedOk,
      selected: exact || concepts.length > 0 || rankedOk || (stemmed && ranked.score >= STEM_SUPPORT),
    });
  }
  return scored.sort(
    (a, b) =>
      Number(b.always) - Number(a.always) ||
      b.score - a.score ||
      b.ranked.score - a.ranked.score ||
      compareCodePoints(a.skill.name, b.skill.name),
  );
}

/**
 * The skills that apply to the role and that the text selects: by a trigger (exactly or by stem),
 * by `*`, by a concept, or by the ranked match reaching RANK_THRESHOLD. Best first: always-on (`*`) skills, then
 * trigger points descending, then ranked score descending, then name in code-point order. The
 * ranked match's document frequencies are taken over all of `skills`, whatever the role.
 */
export function matchSkills(skills: readonly LoadedSkill[], query: SeatQuery): SkillMatch[] {
  return scoreSkills(skills, query).filter((m) => m.selected);
}
