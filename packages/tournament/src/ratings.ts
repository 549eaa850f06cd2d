// Bradley-Terry ratings (docs/architecture.md#tournaments): pure numbers in, numbers out. No fs, no clock, no Math.random.

/** One decided game: `score` is a's result (1 a won, 0 b won, 0.5 a tie). */
export interface Game {
  a: string;
  b: string;
  score: 0 | 0.5 | 1;
}

/** Options of fitBradleyTerry. */
export interface FitOptions {
  /**
   * Virtual tied games every player plays against a fixed anchor of the mean rating (default 1).
   * It keeps ratings finite when a player won or lost every game (the MLE is then infinite) and pulls
   * thinly played players toward the mean; 0 gives the plain maximum-likelihood fit.
   */
  prior?: number;
  /** Where the mean rating sits (default 1000). */
  center?: number;
}

/** Elo-scale ratings: P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)). */
export type Ratings = Map<string, number>;

const SCALE = 400 / Math.LN10;

/** The probability that a player rated `ra` beats one rated `rb` on the Elo scale. */
export function winProbability(ra: number, rb: number): number {
  return 1 / (1 + 10 ** ((rb - ra) / 400));
}

/**
 * Fits Bradley-Terry strengths by maximum likelihood (Hunter's MM algorithm; a tie counts as half a
 * win and half a loss), on the Elo scale, centred on `center`. Every player named in `players` gets
 * a rating, played or not. With `prior: 0`, throws a RangeError when the MLE is not finite (a player
 * who won or lost every game).
 */
export function fitBradleyTerry(
  games: readonly Game[],
  players: readonly string[],
  options: FitOptions = {},
): Ratings {
  const prior = options.prior ?? 1;
  const center = options.center ?? 1000;
  const index = new Map(players.map((p, i) => [p, i]));
  const n = players.length;
  const wins = new Float64Array(n);
  const played = new Float64Array(n);
  // Games between each pair (symmetric), as a sparse list per player in the order first met.
  const pairs = new Map<number, Map<number, number>>();
  const addPair = (i: number, j: number) => {
    const row = pairs.get(i) ?? new Map<number, number>();
    pairs.set(i, row);
    row.set(j, (row.get(j) ?? 0) + 1);
  };
  for (const g of games) {
    const i = index.get(g.a);
    const j = index.get(g.b);
    if (i === undefined || j === undefined)
      throw new RangeError(`game between unknown players ${g.a} and ${g.b}`);
    if (i === j) continue;
    wins[i]! += g.score;
    wins[j]! += 1 - g.score;
    played[i]! += 1;
    played[j]! += 1;
    addPair(i, j);
    addPair(j, i);
  }
  if (prior === 0) {
    for (let i = 0; i < n; i++) {
      if (wins[i]! <= 0 || wins[i]! >= played[i]!) {
        throw new RangeError(
          `no finite maximum-likelihood rating for ${players[i]}: it ${wins[i]! <= 0 ? "won" : "lost"} no game`,
        );
      }
    }
  }
  // The pair lists flattened into typed arrays (player i's opponents at start[i]..start[i+1]), in
  // the same order: a bootstrap fits a thousand samples, and the loop below runs until it converges.
  const start = new Int32Array(n + 1);
  const opponent: number[] = [];
  const count: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [j, c] of pairs.get(i) ?? []) {
      opponent.push(j);
      count.push(c);
    }
    start[i + 1] = opponent.length;
  }
  const opponents = Int32Array.from(opponent);
  const counts = Float64Array.from(count);
  // gamma = 10^(R/400) relative to the anchor (gamma 1).
  const gamma = new Float64Array(n).fill(1);
  for (let iteration = 0; iteration < 100_000; iteration++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      let denominator = prior > 0 ? prior / (gamma[i]! + 1) : 0;
      for (let k = start[i]!; k < start[i + 1]!; k++)
        denominator += counts[k]! / (gamma[i]! + gamma[opponents[k]!]!);
      if (denominator === 0) continue;
      const next = (wins[i]! + prior / 2) / denominator;
      change = Math.max(change, Math.abs(Math.log(next / gamma[i]!)));
      gamma[i] = next;
    }
    if (prior === 0) {
      // Without an anchor only differences are identified: keep the geometric mean at 1.
      let logMean = 0;
      for (let i = 0; i < n; i++) logMean += Math.log(gamma[i]!) / n;
      for (let i = 0; i < n; i++) gamma[i] = gamma[i]! / Math.exp(logMean);
    }
    if (change < 1e-12) break;
  }
  const raw = Array.from(gamma, (g) => SCALE * Math.log(g));
  const mean = raw.reduce((s, r) => s + r, 0) / Math.max(n, 1);
  return new Map(players.map((p, i) => [p, center + raw[i]! - mean]));
}

/** A small seeded PRNG (mulberry32): the same seed gives the same bootstrap on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The q-quantile (0..1) of sorted numbers, interpolated linearly. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** A rating with its bootstrap interval and the games behind it. */
export interface RatedPlayer {
  name: string;
  rating: number;
  /** 95% interval: the 2.5th and 97.5th percentiles of the bootstrap ratings. */
  low: number;
  high: number;
  games: number;
  /** Wins + half the ties. */
  score: number;
}

/**
 * Ratings with 95% intervals from a seeded bootstrap over games (Chatbot Arena's method): the games
 * are resampled with replacement `samples` times, each sample fitted, and the percentiles taken.
 * Sorted by rating, best first (ties by name).
 */
export function rateWithIntervals(
  games: readonly Game[],
  players: readonly string[],
  options: FitOptions & { seed: number; samples?: number },
): RatedPlayer[] {
  const fit = fitBradleyTerry(games, players, options);
  const random = seededRandom(options.seed);
  const samples = options.samples ?? 1000;
  const draws = new Map(players.map((p) => [p, [] as number[]]));
  for (let s = 0; s < samples && games.length > 0; s++) {
    const sample: Game[] = [];
    for (let k = 0; k < games.length; k++) sample.push(games[Math.floor(random() * games.length)]!);
    // A resample can hold a player who won every game: without a prior that MLE is infinite.
    const ratings = fitBradleyTerry(sample, players, { ...options, prior: options.prior || 1 });
    for (const [p, r] of ratings) draws.get(p)!.push(r);
  }
  return players
    .map((name) => {
      const sorted = draws.get(name)!.sort((x, y) => x - y);
      const rating = fit.get(name)!;
      const mine = games.filter((g) => g.a === name || g.b === name);
      return {
        name,
        rating,
        low: sorted.length > 0 ? quantile(sorted, 0.025) : rating,
        high: sorted.length > 0 ? quantile(sorted, 0.975) : rating,
        games: mine.length,
        score: mine.reduce((s, g) => s + (g.a === name ? g.score : 1 - g.score), 0),
      };
    })
    .sort((x, y) => y.rating - x.rating || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}
