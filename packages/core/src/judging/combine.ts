import { roundScore } from "./round.js";

/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The zero-sum scores closest to `values` within [low, high] (the Euclidean projection onto
 * {sum = 0, low <= x <= high}): every value moves by the same shift, except those held at a bound.
 * With no value at a bound this is plain re-centring (subtract the mean).
 */
export function recentre(values: readonly number[], low = -1, high = 1): number[] {
  if (values.length === 0) return [];
  const total = (shift: number) => values.reduce((sum, v) => sum + clamp(v - shift, low, high), 0);
  // total() falls as the shift grows: bisect for the shift that makes it zero.
  let lo = Math.min(...values) - high;
  let hi = Math.max(...values) - low;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (total(mid) > 0) lo = mid;
    else hi = mid;
  }
  const shift = (lo + hi) / 2;
  const out = values.map((v) => roundScore(clamp(v - shift, low, high)));
  // Rounding can leave a residue of a few 1e-6: give it to the value with the most room.
  const residue = roundScore(out.reduce((sum, v) => sum + v, 0));
  if (residue !== 0) {
    let best = 0;
    for (let i = 1; i < out.length; i++) {
      const room = (v: number) => (residue > 0 ? v - low : high - v);
      if (room(out[i]!) > room(out[best]!)) best = i;
    }
    out[best] = roundScore(out[best]! - residue);
  }
  return out;
}

/**
 * Combines each judge's scores of one exchange: per argument the median over the judges, then
 * re-centred so the exchange still sums to zero. `ballots` maps argument id -> score, one per judge;
 * every ballot scores the same ids (the checked judgments do).
 */
export function combineScores(
  ballots: ReadonlyArray<Readonly<Record<string, number>>>,
): Record<string, number> {
  if (ballots.length === 0) return {};
  const ids = Object.keys(ballots[0]!).sort();
  const medians = ids.map((id) => median(ballots.map((b) => b[id] ?? 0)));
  const centred = recentre(medians);
  return Object.fromEntries(ids.map((id, i) => [id, centred[i]!]));
}

/**
 * Combines rescores of earlier arguments: for each argument any judge rescored, the median of every
 * judge's new score (a judge that did not rescore it keeps the recorded one). Returns only those whose
 * median differs from the recorded score. Each new score is within the rescore limit of the recorded
 * one, so their median is too.
 */
export function combineRescores(
  ballots: ReadonlyArray<Readonly<Record<string, number>>>,
  recorded: Readonly<Record<string, number>>,
): Record<string, number> {
  const ids = [...new Set(ballots.flatMap((b) => Object.keys(b)))].sort();
  const out: Record<string, number> = {};
  for (const id of ids) {
    const old = recorded[id];
    if (old === undefined) continue;
    const value = roundScore(median(ballots.map((b) => b[id] ?? old)));
    if (value !== old) out[id] = value;
  }
  return out;
}

/** One judge's vote: a side, or `tie` when its verdict flipped with the order of the sides. */
export type Vote<S extends string> = S | "tie";

/**
 * A judge's vote from its ballots (one per order it was asked in): the side when every ballot picked
 * it; `tie` when the verdict flipped with the order (Zheng et al.'s swap rule).
 */
export function judgeVote<S extends string>(winners: readonly S[]): Vote<S> {
  const first = winners[0];
  if (first === undefined) return "tie";
  return winners.every((w) => w === first) ? first : "tie";
}

/** The panel's winner: the side with more votes; equal counts (or no votes) are a tie. A flipped judge's tie vote counts for neither. */
export function majority<S extends string>(votes: readonly Vote<S>[], sides: readonly [S, S]): Vote<S> {
  const [a, b] = sides;
  const countA = votes.filter((v) => v === a).length;
  const countB = votes.filter((v) => v === b).length;
  return countA > countB ? a : countB > countA ? b : "tie";
}
