import { stemmer } from "stemmer";
import { eng } from "stopword";
import { normalizeText, splitWords } from "./normalize.js";
import type { LoadedSkill } from "./types.js";

/**
 * The ranked match: BM25 (the BM25+ variant minisearch uses) over three fields of each skill, on
 * Porter stems, so a motion that never uses a trigger word can still find the skill whose
 * description and headings are about its subject. Pure and deterministic for the same skills.
 */

/** The fields of a skill that the ranked match reads, and how much a term found in each counts. */
export const FIELD_BOOSTS = { triggers: 2, description: 1.5, headings: 1 } as const;
export type RankField = keyof typeof FIELD_BOOSTS;
const FIELDS = Object.keys(FIELD_BOOSTS) as RankField[];

/** BM25 parameters: term-frequency saturation k, length normalization b, BM25+ floor d (minisearch's defaults). */
export const BM25_PARAMS = { k: 1.2, b: 0.7, d: 0.5 } as const;

/**
 * Words of a motion that say nothing about its subject: the English stop words of the `stopword`
 * package (108 words), the function words its short list lacks ("when", "against", "not", "its",
 * "will", ...), and the words of a motion's formula ("this house would", "the motion").
 */
const STOP_WORDS: ReadonlySet<string> = new Set([
  ...eng,
  "when",
  "why",
  "whom",
  "whose",
  "against",
  "again",
  "either",
  "neither",
  "nor",
  "yet",
  "per",
  "via",
  "else",
  "ever",
  "house",
  "believes",
  "motion",
  "debate",
  "rather",
  "instead",
  "whether",
  "every",
  "whole",
  "its",
  "not",
  "no",
  "does",
  "doesn",
  "will",
  "just",
  "off",
  "on",
  "one",
  "two",
  "new",
  "need",
  "needs",
]);

const stems = new Map<string, string>();
/** Remembered stems before that memo starts over (motions and triggers reuse few words). */
const MAX_STEMS = 50_000;

/** The Porter stem of a normalized word (wooorm's `stemmer`), memoized; unspaced scripts are kept as they are. */
export function stemWord(word: string): string {
  let stem = stems.get(word);
  if (stem !== undefined) return stem;
  stem = /^[a-z0-9]+$/.test(word) ? stemmer(word) : word;
  if (stems.size >= MAX_STEMS) stems.clear();
  stems.set(word, stem);
  return stem;
}

/** One word of a text reduced to the form both sides are compared in. */
export interface Term {
  /** The Porter stem of the normalized word. */
  stem: string;
  /** The normalized word as written. */
  word: string;
}

/** True for a word that says nothing about a text's subject: a stop word or a single Latin letter. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || /^[a-z]$/.test(word);
}

/**
 * The terms of a text: normalized words (as for triggers), less stop words and single Latin
 * letters (the `s` of `company's`), each with its Porter stem.
 */
export function termsOf(text: string): Term[] {
  const terms: Term[] = [];
  for (const word of splitWords(normalizeText(text))) {
    if (isStopWord(word)) continue;
    terms.push({ stem: stemWord(word), word });
  }
  return terms;
}

/**
 * The headings of a Markdown text: ATX headings (`## Title`) and lines that open with a bold run
 * (`**Title**`, how this repository's skills head their sections), outside code fences.
 */
export function headingsOf(markdown: string): string[] {
  const headings: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener) {
      if (fence === null) fence = opener[0]!;
      else if (opener[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1] ?? /^\*\*([^*]+)\*\*/.exec(line)?.[1];
    if (heading !== undefined && heading.trim() !== "") headings.push(heading.trim());
  }
  return headings;
}

/** A skill's fields as stem counts, computed once per loaded skill. */
interface SkillDoc {
  /** Stem -> occurrences, per field. */
  counts: Record<RankField, Map<string, number>>;
  /** Distinct stems per field (the field's length for BM25). */
  lengths: Record<RankField, number>;
}

const docs = new WeakMap<LoadedSkill, SkillDoc>();

/** The text of each field: triggers (not `*`), the manifest's and the entry frontmatter's description, headings. */
export function fieldTexts(skill: LoadedSkill): Record<RankField, string> {
  const fmDescription = skill.frontmatter.description;
  return {
    triggers: skill.manifest.triggers.filter((t) => t.trim() !== "*").join("\n"),
    description: [
      skill.manifest.description,
      ...(typeof fmDescription === "string" && fmDescription !== skill.manifest.description
        ? [fmDescription]
        : []),
    ].join("\n"),
    headings: headingsOf(skill.text).join("\n"),
  };
}

function docOf(skill: LoadedSkill): SkillDoc {
  let doc = docs.get(skill);
  if (doc) return doc;
  const texts = fieldTexts(skill);
  const counts = {} as SkillDoc["counts"];
  const lengths = {} as SkillDoc["lengths"];
  for (const field of FIELDS) {
    const map = new Map<string, number>();
    for (const { stem } of termsOf(texts[field])) map.set(stem, (map.get(stem) ?? 0) + 1);
    counts[field] = map;
    // Distinct stems, as minisearch counts a field's length: a repeated word does not lengthen it.
    lengths[field] = map.size;
  }
  doc = { counts, lengths };
  docs.set(skill, doc);
  return doc;
}

/** Document frequencies and average field lengths over one set of skills. */
export interface Corpus {
  skills: readonly LoadedSkill[];
  size: number;
  /** Stem -> number of skills whose field holds it, per field. */
  docFreq: Record<RankField, Map<string, number>>;
  avgLength: Record<RankField, number>;
  /** Stem -> the skills and fields that hold it (skills in list order, fields in FIELD_BOOSTS order). */
  postings: Map<string, Posting[]>;
}

interface Posting {
  skill: LoadedSkill;
  field: RankField;
  termFreq: number;
  fieldLength: number;
}

const corpora = new WeakMap<readonly LoadedSkill[], Corpus>();

/** The corpus statistics of a skill list, memoized while the list holds the same objects. */
export function corpusOf(skills: readonly LoadedSkill[]): Corpus {
  const memo = corpora.get(skills);
  if (memo && memo.skills.length === skills.length && memo.skills.every((s, i) => s === skills[i]))
    return memo;
  const docFreq = {} as Corpus["docFreq"];
  const avgLength = {} as Corpus["avgLength"];
  for (const field of FIELDS) {
    const freq = new Map<string, number>();
    let total = 0;
    for (const skill of skills) {
      const doc = docOf(skill);
      total += doc.lengths[field];
      for (const stem of doc.counts[field].keys()) freq.set(stem, (freq.get(stem) ?? 0) + 1);
    }
    docFreq[field] = freq;
    avgLength[field] = skills.length === 0 ? 0 : total / skills.length;
  }
  const postings = new Map<string, Posting[]>();
  for (const skill of skills) {
    const doc = docOf(skill);
    for (const field of FIELDS) {
      for (const [stem, termFreq] of doc.counts[field]) {
        const posting = { skill, field, termFreq, fieldLength: doc.lengths[field] };
        const list = postings.get(stem);
        if (list) list.push(posting);
        else postings.set(stem, [posting]);
      }
    }
  }
  const corpus = { skills: [...skills], size: skills.length, docFreq, avgLength, postings };
  corpora.set(skills, corpus);
  return corpus;
}

/** BM25+ of one term in one field: the formula minisearch uses (k, b, d as in BM25_PARAMS). */
export function bm25(
  termFreq: number,
  docFreq: number,
  corpusSize: number,
  fieldLength: number,
  avgFieldLength: number,
): number {
  const { k, b, d } = BM25_PARAMS;
  const idf = Math.log(1 + (corpusSize - docFreq + 0.5) / (docFreq + 0.5));
  const norm = avgFieldLength === 0 ? 1 : fieldLength / avgFieldLength;
  return idf * (d + (termFreq * (k + 1)) / (termFreq + k * (1 - b + b * norm)));
}

/** One stem of the text found in one field of a skill, and what it adds. */
export interface TermHit {
  stem: string;
  /** The text's words with this stem, as written (normalized). */
  words: string[];
  field: RankField;
  /** Occurrences of the stem in the field. */
  termFreq: number;
  /** Skills of the corpus whose same field holds the stem. */
  docFreq: number;
  /** BM25 of the term in the field times the field's boost. */
  weight: number;
}

/** The ranked match of one skill: each term hit, their sum, and the sum times the distinct stems matched. */
export interface RankedMatch {
  hits: TermHit[];
  /** Distinct stems of the text found in any field. */
  terms: number;
  /** Sum of the hits' weights. */
  sum: number;
  /** `sum × terms`: a skill that several words of the text point to beats one a single word does. */
  score: number;
}

/** The stems of a text (each once, first spelling order kept) and their spellings. */
export function queryOf(text: string): Map<string, string[]> {
  const query = new Map<string, string[]>();
  for (const { stem, word } of termsOf(text)) {
    const words = query.get(stem);
    if (!words) query.set(stem, [word]);
    else if (!words.includes(word)) words.push(word);
  }
  return query;
}

/** The ranked match of a skill no term of the text is found in. */
function noMatch(): RankedMatch {
  return { hits: [], terms: 0, sum: 0, score: 0 };
}

/**
 * Scores every skill of the corpus that holds a stem of the query (through the postings, so a
 * large library costs what its matching skills cost); each stem counts once, however often the
 * text repeats it. Skills not in the map match no term.
 */
export function rankQuery(query: Map<string, string[]>, corpus: Corpus): Map<LoadedSkill, RankedMatch> {
  const found = new Map<LoadedSkill, { hits: TermHit[]; stems: Set<string> }>();
  for (const [stem, words] of query) {
    for (const p of corpus.postings.get(stem) ?? []) {
      const docFreq = corpus.docFreq[p.field].get(stem) ?? 1;
      const raw = bm25(p.termFreq, docFreq, corpus.size, p.fieldLength, corpus.avgLength[p.field]);
      const hit = {
        stem,
        words,
        field: p.field,
        termFreq: p.termFreq,
        docFreq,
        weight: raw * FIELD_BOOSTS[p.field],
      };
      const entry = found.get(p.skill);
      if (entry) {
        entry.hits.push(hit);
        entry.stems.add(stem);
      } else found.set(p.skill, { hits: [hit], stems: new Set([stem]) });
    }
  }
  const ranked = new Map<LoadedSkill, RankedMatch>();
  for (const [skill, { hits, stems }] of found) {
    hits.sort(
      (a, b) =>
        b.weight - a.weight ||
        (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0) ||
        FIELDS.indexOf(a.field) - FIELDS.indexOf(b.field),
    );
    const sum = hits.reduce((total, h) => total + h.weight, 0);
    ranked.set(skill, { hits, terms: stems.size, sum, score: sum * stems.size });
  }
  return ranked;
}

/** Scores one skill of the corpus against a query's stems (see rankQuery). */
export function rankSkill(skill: LoadedSkill, query: Map<string, string[]>, corpus: Corpus): RankedMatch {
  return rankQuery(query, corpus).get(skill) ?? noMatch();
}

/** The ranked match of a skill that rankQuery did not score. */
export const NO_RANKED_MATCH: Readonly<RankedMatch> = Object.freeze(noMatch());
