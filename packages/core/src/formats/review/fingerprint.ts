import type { ReviewFinding } from "@debatekit/schema";

const STOP = new Set(
  "a an the of to in on for and or but is are be was were it its this that with by from as at not no can may will would should could when if then than into".split(
    " ",
  ),
);
const SYNONYMS: Record<string, string> = {
  drop: "lose",
  skip: "lose",
  omit: "lose",
  miss: "lose",
  last: "final",
  end: "final",
  item: "element",
  entry: "element",
  error: "fail",
  throw: "fail",
  crash: "fail",
  null: "empty",
  undefin: "empty",
  nil: "empty",
  inject: "inject",
  sanitiz: "escape",
  validat: "check",
  verify: "check",
};

/** A word reduced to a rough stem (`dropped` -> `drop`, `items` -> `item`) and a shared synonym. */
function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ["ing", "ed", "es", "s", "ly"]) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.length > 3 && w.at(-1) === w.at(-2)) w = w.slice(0, -1); // dropp -> drop
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return SYNONYMS[w] ?? w;
}

// Scripts written without spaces between words: a run of them is cut into character bigrams.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;

/** The character bigrams of a run of an unspaced script (a single character stands alone). */
function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  return chars.slice(1).map((c, i) => `${chars[i]}${c}`);
}

/**
 * The significant terms of a finding's title, in any script: NFKC-normalized and lowercased, cut
 * into runs of Unicode letters and numbers; a word of a spaced script (Latin, Cyrillic, Greek ...)
 * is one term (English ones reduced to a rough stem and a shared synonym, stop words dropped), a
 * run of an unspaced script (CJK, Thai ...) gives its character bigrams.
 */
export function findingTerms(finding: Pick<ReviewFinding, "title" | "detail">): Set<string> {
  const terms = new Set<string>();
  for (const word of finding.title
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) {
    for (const run of word.match(UNSPACED) ?? []) for (const b of bigrams(run)) terms.add(b);
    for (const rest of word.split(UNSPACED))
      if ([...rest].length > 1 && !STOP.has(rest)) terms.add(stem(rest));
  }
  return terms;
}

/** Jaccard similarity of two term sets (shared terms over all terms), 0 when either is empty. */
function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

/** Two findings make the same claim when their title terms have a Jaccard similarity of at least this. */
export const SAME_CLAIM = 0.5;

/**
 * Whether two findings are anchored apart: another file (when both name one), another line (when
 * either names one: a line and no line differ), or another side of the change.
 */
function anchoredApart(a: ReviewFinding, b: ReviewFinding): boolean {
  const fa = a.evidence?.file;
  const fb = b.evidence?.file;
  if (fa && fb && fa !== fb) return true;
  if ((a.evidence?.line ?? null) !== (b.evidence?.line ?? null)) return true;
  return (a.evidence?.side ?? "new") !== (b.evidence?.side ?? "new");
}

/**
 * The severities a finding's critic may have given it: its own, and P1 too for a P2 whose evidence
 * was not found (the engine demotes such a P1 to P2: see verifyFindings).
 */
function claimedSeverities(f: ReviewFinding): ReviewFinding["severity"][] {
  return f.severity === "P2" && f.evidence_status === "needs_evidence" ? ["P1", "P2"] : [f.severity];
}

/**
 * How alike two findings' claims are: their title terms' Jaccard similarity; 0 when they differ in
 * severity (as their critics gave it) or are anchored apart (another file, line or side), so a
 * finding of another severity or line never takes over an earlier one's fingerprint, however alike
 * their words.
 */
export function claimSimilarity(a: ReviewFinding, b: ReviewFinding): number {
  const severities = claimedSeverities(b);
  if (!claimedSeverities(a).some((s) => severities.includes(s)) || anchoredApart(a, b)) return 0;
  return jaccard(findingTerms(a), findingTerms(b));
}

/**
 * Whether a finding repeats another (of an earlier round) reworded: the same claim (similarity >=
 * SAME_CLAIM) of the same severity at the same anchor (file, line, side). A nearby line is never
 * enough: two concerns often sit a line apart.
 */
export function sameFinding(a: ReviewFinding, b: ReviewFinding): boolean {
  return claimSimilarity(a, b) >= SAME_CLAIM;
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/**
 * Gives each finding of a round a fingerprint: the one of the earlier finding it repeats (reworded
 * or not: the most similar one; each earlier fingerprint goes to at most one finding of the round), else a new one from
 * its terms. Within a round every finding keeps a fingerprint of its own. Earlier findings must
 * already carry theirs.
 */
export function fingerprintFindings(
  findings: readonly ReviewFinding[],
  earlier: readonly ReviewFinding[],
): ReviewFinding[] {
  const taken = new Set(earlier.map((e) => e.fingerprint));
  const claimed = new Set<string>();
  return findings.map((f) => {
    let repeat: { fingerprint: string; similarity: number } | undefined;
    for (const e of earlier) {
      if (!e.fingerprint || claimed.has(e.fingerprint)) continue;
      const similarity = claimSimilarity(f, e);
      if (similarity >= SAME_CLAIM && similarity > (repeat?.similarity ?? 0))
        repeat = { fingerprint: e.fingerprint, similarity };
    }
    const fingerprint = repeat?.fingerprint ?? freshFingerprint(f, taken);
    claimed.add(fingerprint);
    taken.add(fingerprint);
    return { ...f, fingerprint };
  });
}

/** A fingerprint from a finding's terms (its whole title when it has none) that no other finding holds. */
function freshFingerprint(f: ReviewFinding, taken: ReadonlySet<string | undefined>): string {
  const terms = findingTerms(f);
  const text = terms.size > 0 ? [...terms].sort().join(" ") : f.title.normalize("NFKC").toLowerCase();
  for (let n = 1; ; n++) {
    const fingerprint = `fp-${hash(n === 1 ? text : `${text}\n${n}`)}`;
    if (!taken.has(fingerprint)) return fingerprint;
  }
}

/**
 * The latest copy of each distinct finding over rounds (oldest first): a later round's repeat (same
 * fingerprint) replaces the earlier copy unless `replaces(later, earlier)` says no (then the earlier
 * copy stands), but within a round every finding stays, even two sharing a fingerprint (as a folder
 * written by an older version may hold): the second is keyed by its id.
 */
export function latestFindings<T extends { id?: string; fingerprint?: string }>(
  rounds: Iterable<readonly T[]>,
  replaces: (later: T, earlier: T) => boolean = () => true,
): T[] {
  const latest = new Map<string, T>();
  for (const round of rounds) {
    const keys = new Set<string>();
    for (const f of round) {
      const key = f.fingerprint && !keys.has(f.fingerprint) ? f.fingerprint : (f.id ?? "");
      keys.add(key);
      const earlier = latest.get(key);
      if (!earlier || replaces(f, earlier)) latest.set(key, f);
    }
  }
  return [...latest.values()];
}

/** The P1/P2 findings of a round whose fingerprints no earlier round had. */
export function newSevereFindings(
  round: readonly ReviewFinding[],
  earlier: readonly ReviewFinding[],
): ReviewFinding[] {
  const old = new Set(earlier.map((f) => f.fingerprint));
  return round.filter((f) => (f.severity === "P1" || f.severity === "P2") && !old.has(f.fingerprint));
}

/** Converged: the last two rounds each brought no NEW P1/P2 (rounds oldest first, findings fingerprinted). */
export function converged(rounds: ReadonlyArray<readonly ReviewFinding[]>): boolean {
  if (rounds.length < 2) return false;
  const quiet = (i: number) => newSevereFindings(rounds[i]!, rounds.slice(0, i).flat()).length === 0;
  return quiet(rounds.length - 1) && quiet(rounds.length - 2);
}

/** Agreement counts only from the structured flag, and only with no P1/P2 finding. */
export function agreed(critique: { agree: boolean; findings: readonly ReviewFinding[] }): boolean {
  return (
    critique.agree === true && !critique.findings.some((f) => f.severity === "P1" || f.severity === "P2")
  );
}
