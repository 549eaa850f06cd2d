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

/** The significant word stems of a finding's title (and the start of its detail). */
export function findingTerms(finding: Pick<ReviewFinding, "title" | "detail">): Set<string> {
  const words = `${finding.title}`.toLowerCase().split(/[^a-z0-9]+/);
  return new Set(words.filter((w) => w.length > 1 && !STOP.has(w)).map(stem));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

/** Whether two findings are the same concern reworded: same file and nearby line, or mostly the same terms. */
export function sameFinding(a: ReviewFinding, b: ReviewFinding): boolean {
  const ea = a.evidence;
  const eb = b.evidence;
  if (ea?.file && eb?.file && ea.line !== undefined && eb.line !== undefined) {
    if (ea.file === eb.file && Math.abs(ea.line - eb.line) <= 3) return true;
  }
  return jaccard(findingTerms(a), findingTerms(b)) >= 0.5;
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/**
 * Gives each finding a fingerprint: the one of an earlier finding it repeats (reworded or not), else
 * a new one from its terms. Earlier findings must already carry theirs.
 */
export function fingerprintFindings(
  findings: readonly ReviewFinding[],
  earlier: readonly ReviewFinding[],
): ReviewFinding[] {
  const seen: ReviewFinding[] = [...earlier];
  return findings.map((f) => {
    const repeat = seen.find((e) => e.fingerprint && sameFinding(f, e));
    const fingerprint = repeat?.fingerprint ?? `fp-${hash([...findingTerms(f)].sort().join(" "))}`;
    const out = { ...f, fingerprint };
    seen.push(out);
    return out;
  });
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
