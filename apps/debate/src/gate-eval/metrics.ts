// The figures of a gate evaluation: pure functions over counts, no I/O.

/** A proportion with its 95% Wilson score interval and the number of cases behind it. */
export interface Proportion {
  /** Cases counted (the numerator). */
  k: number;
  /** Cases behind the figure (the denominator). */
  n: number;
  /** k / n; undefined when n is 0 (no figure without cases). */
  value?: number;
  low?: number;
  high?: number;
}

/** What the gate said on one case against what the case is. */
export type Outcome = "blocked" | "pass" | "undecided";
export type Label = "bad" | "good";

/** Counts of outcome per label. */
export type Confusion = Record<Label, Record<Outcome, number>>;

/** k of n with its Wilson score interval (z = 1.96: 95%); it stays inside [0, 1] and is honest at 0 or n. */
export function wilson(k: number, n: number, z = 1.96): Proportion {
  if (n === 0) return { k, n };
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const margin = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { k, n, value: p, low: Math.max(0, centre - margin), high: Math.min(1, centre + margin) };
}

/** The confusion matrix of (label, outcome) pairs. */
export function confusionOf(pairs: ReadonlyArray<{ label: Label; outcome: Outcome }>): Confusion {
  const zero = () => ({ blocked: 0, pass: 0, undecided: 0 });
  const matrix: Confusion = { bad: zero(), good: zero() };
  for (const { label, outcome } of pairs) matrix[label][outcome]++;
  return matrix;
}

/** The gate's rates: a block is a positive, an undecided gate caught nothing and blocked nothing. */
export interface Rates {
  /** Of the blocked changes, how many were bad. */
  precision: Proportion;
  /** Of the bad changes, how many were blocked. */
  recall: Proportion;
  /** Of the good changes, how many were blocked. */
  false_positive_rate: Proportion;
  /** Of all changes, how many were left undecided. */
  undecided_rate: Proportion;
}

/** Precision, recall, false-positive and undecided rates of a confusion matrix, each with its interval. */
export function ratesOf(m: Confusion): Rates {
  const total = (label: Label) => m[label].blocked + m[label].pass + m[label].undecided;
  return {
    precision: wilson(m.bad.blocked, m.bad.blocked + m.good.blocked),
    recall: wilson(m.bad.blocked, total("bad")),
    false_positive_rate: wilson(m.good.blocked, total("good")),
    undecided_rate: wilson(m.bad.undecided + m.good.undecided, total("bad") + total("good")),
  };
}

/** Cohen's kappa of two raters' labels on the same items; undefined with no items or when chance agreement is total. */
export function cohenKappa(a: readonly string[], b: readonly string[]): number | undefined {
  if (a.length !== b.length) throw new Error(`cohenKappa: ${a.length} labels against ${b.length}`);
  const n = a.length;
  if (n === 0) return undefined;
  const observed = a.filter((x, i) => x === b[i]).length / n;
  const categories = new Set([...a, ...b]);
  let chance = 0;
  for (const c of categories)
    chance += (a.filter((x) => x === c).length / n) * (b.filter((x) => x === c).length / n);
  return chance === 1 ? undefined : (observed - chance) / (1 - chance);
}

/**
 * Fleiss' kappa: `counts[item][category]` is how many raters put the item in the category; every
 * item has the same number of raters (at least 2). Undefined with no items or when chance agreement is total.
 */
export function fleissKappa(counts: ReadonlyArray<readonly number[]>): number | undefined {
  const items = counts.length;
  if (items === 0) return undefined;
  const raters = counts[0]!.reduce((s, x) => s + x, 0);
  if (raters < 2 || counts.some((row) => row.reduce((s, x) => s + x, 0) !== raters))
    throw new Error("fleissKappa: every item needs the same number of raters, at least 2");
  const agreement =
    counts.reduce((s, row) => s + row.reduce((t, x) => t + x * (x - 1), 0) / (raters * (raters - 1)), 0) /
    items;
  const categories = counts[0]!.length;
  let chance = 0;
  for (let j = 0; j < categories; j++) {
    const share = counts.reduce((s, row) => s + row[j]!, 0) / (items * raters);
    chance += share * share;
  }
  return chance === 1 ? undefined : (agreement - chance) / (1 - chance);
}

/**
 * The agreement of a panel's judges over items (each item: judge -> its label), on the items every
 * judge labelled: Cohen's kappa for two judges, Fleiss' for more. Undefined with fewer than 2 judges.
 */
export function panelAgreement(
  votes: ReadonlyArray<Readonly<Record<string, string>>>,
): { method: "cohen" | "fleiss"; kappa?: number; judges: number; items: number } | undefined {
  const judges = [...new Set(votes.flatMap((v) => Object.keys(v)))].sort();
  if (judges.length < 2) return undefined;
  const complete = votes.filter((v) => judges.every((j) => v[j] !== undefined));
  if (judges.length === 2) {
    const kappa = cohenKappa(
      complete.map((v) => v[judges[0]!]!),
      complete.map((v) => v[judges[1]!]!),
    );
    return { method: "cohen", ...(kappa === undefined ? {} : { kappa }), judges: 2, items: complete.length };
  }
  const categories = [...new Set(complete.flatMap((v) => Object.values(v)))].sort();
  const kappa = fleissKappa(
    complete.map((v) => categories.map((c) => judges.filter((j) => v[j] === c).length)),
  );
  return {
    method: "fleiss",
    ...(kappa === undefined ? {} : { kappa }),
    judges: judges.length,
    items: complete.length,
  };
}
