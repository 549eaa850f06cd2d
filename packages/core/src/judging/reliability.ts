/**
 * Reliability figures of a judge panel: agreement (Krippendorff's alpha), the flip rate under an
 * order swap, and each judge's deviation from the combined result.
 */

/** A coder's value for a unit, or undefined when that coder gave none. */
export type ReliabilityData = ReadonlyArray<ReadonlyArray<number | undefined>>;

/**
 * Krippendorff's alpha for `data[coder][unit]` (missing values allowed), with the interval metric
 * (squared difference) or the nominal one (0 when equal, else 1). Units with fewer than two values
 * are left out (they are not pairable). Returns undefined when nothing is pairable or every value
 * is the same (alpha is not defined then). Implements the coincidence-matrix form of
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability".
 */
export function krippendorffAlpha(
  data: ReliabilityData,
  metric: "interval" | "nominal" = "interval",
): number | undefined {
  const units = Math.max(0, ...data.map((row) => row.length));
  const delta =
    metric === "interval"
      ? (a: number, b: number) => (a - b) ** 2
      : (a: number, b: number) => (a === b ? 0 : 1);
  const pairable: number[][] = [];
  for (let u = 0; u < units; u++) {
    const values = data
      .map((row) => row[u])
      .filter((v): v is number => v !== undefined && Number.isFinite(v));
    if (values.length >= 2) pairable.push(values);
  }
  const n = pairable.reduce((sum, values) => sum + values.length, 0);
  if (n < 2) return undefined;
  // Observed disagreement: within units, each ordered pair weighted 1 / (m_u - 1).
  let observed = 0;
  for (const values of pairable) {
    let within = 0;
    for (let i = 0; i < values.length; i++)
      for (let j = 0; j < values.length; j++) if (i !== j) within += delta(values[i]!, values[j]!);
    observed += within / (values.length - 1);
  }
  observed /= n;
  // Expected disagreement: over every ordered pair of pairable values, across units.
  const all = pairable.flat();
  let expected = 0;
  for (let i = 0; i < all.length; i++)
    for (let j = 0; j < all.length; j++) if (i !== j) expected += delta(all[i]!, all[j]!);
  expected /= n * (n - 1);
  if (expected === 0) return undefined;
  return 1 - observed / expected;
}

/** The share of judges asked in both orders whose winner changed with the order; undefined when none was. */
export function flipRate(pairs: ReadonlyArray<readonly [string, string]>): number | undefined {
  if (pairs.length === 0) return undefined;
  return pairs.filter(([a, b]) => a !== b).length / pairs.length;
}

/** Mean absolute difference between a judge's scores and the combined ones, over the ids both have. */
export function meanDeviation(
  judge: Readonly<Record<string, number>>,
  combined: Readonly<Record<string, number>>,
): number | undefined {
  const ids = Object.keys(combined).filter((id) => judge[id] !== undefined);
  if (ids.length === 0) return undefined;
  return ids.reduce((sum, id) => sum + Math.abs(judge[id]! - combined[id]!), 0) / ids.length;
}

/** Rounds a figure for storage (3 decimals). */
export function roundFigure(value: number): number {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? 0 : rounded;
}
