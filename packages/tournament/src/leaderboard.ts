// The leaderboard's figures, from tournament.md and the matches' results alone (pure).
import type { TournamentFrontmatter } from "@debatekit/schema";
import { sideRoles } from "./folder.js";
import { computePanelFigures, type PanelFigures } from "./panel-figures.js";
import { type Game, type RatedPlayer, rateWithIntervals } from "./ratings.js";
import { type MatchResult, spendOf } from "./results.js";

/** Points out of games: wins count 1, ties 1/2. */
export interface Tally {
  score: number;
  games: number;
}

/** Everything the leaderboard shows. */
export interface Leaderboard {
  id: string;
  format: string;
  /** The format's role names for the two sides (its `tournament` sides, e.g. proposition/opposition). */
  sideNames: { first: string; second: string };
  counts: { total: number; done: number; failed: number; remaining: number; decided: number };
  spendUsd: number;
  /** Calls of paid seats that reported no cost. */
  unreportedCalls: number;
  ratings: RatedPlayer[];
  /** score[i][j] = points of players[i] against players[j], out of games[i][j]. */
  headToHead: { players: string[]; score: number[][]; games: number[][] };
  /** How often the first side won (side bias), and each player's points on each side. */
  sides: { first: Tally; perPlayer: Array<{ name: string; first: Tally; second: Tally }> };
  /** With known answers: each player's ratings on the correct and the incorrect side, and judge accuracy. */
  correctness?: {
    ratings: RatedPlayer[];
    judgeAccuracy: Array<{ judge: string; correct: number; decided: number }>;
    overall: { correct: number; decided: number };
  };
  /** Per judge: debates decided and how often it gave the first side the win. */
  judges: Array<{ name: string; decided: number; first: Tally }>;
  /** When every match had a judge panel (tournament.md's `panel`): agreement and order flips. */
  panel?: PanelFigures;
  failed: Array<{ id: string; code: string; message: string }>;
  debates: Array<{
    id: string;
    /** The motion's id in tournament.md (`m01`). */
    motion: string;
    /** The motion's text as tournament.md holds it (whole: a page shortens it as it shows it). */
    motionText?: string;
    first: string;
    second: string;
    judge: string;
    status: MatchResult["status"];
    winner?: string;
    degraded?: string;
  }>;
  seed: number;
  samples: number;
}

/** The name the leaderboard gives a judge panel's verdicts. */
export const PANEL = "panel";

const tally = (): Tally => ({ score: 0, games: 0 });

/** Games for the rating fit: one per decided debate (ties half a win each). */
export function gamesOf(
  results: readonly MatchResult[],
  name = (side: "first" | "second", r: MatchResult) => r.match[side],
): Game[] {
  return results
    .filter((r) => r.status === "done" && r.winner)
    .map((r) => ({
      a: name("first", r),
      b: name("second", r),
      score: r.winner === "first" ? 1 : r.winner === "second" ? 0 : 0.5,
    }));
}

/** Computes the leaderboard: Bradley-Terry ratings with seeded bootstrap intervals, head-to-head, side bias, judge figures. */
export function computeLeaderboard(fm: TournamentFrontmatter, results: readonly MatchResult[]): Leaderboard {
  const players = fm.players.map((p) => p.name);
  const samples = fm.bootstrap ?? 1000;
  const games = gamesOf(results);
  const ratings = rateWithIntervals(games, players, { seed: fm.seed, samples });
  const at = new Map(players.map((p, i) => [p, i]));
  const score = players.map(() => players.map(() => 0));
  const played = players.map(() => players.map(() => 0));
  const first = tally();
  const perPlayer = new Map(players.map((p) => [p, { name: p, first: tally(), second: tally() }]));
  // With a panel, every verdict is the panel's: the per-judge figures are in `panel`.
  const judgeOf = (r: MatchResult) => (fm.panel ? PANEL : r.match.judge);
  const judges = new Map(
    (fm.panel ? [PANEL] : fm.judges.map((j) => j.name)).map((name) => [
      name,
      { name, decided: 0, first: tally() },
    ]),
  );
  for (const g of games) {
    const i = at.get(g.a)!;
    const j = at.get(g.b)!;
    score[i]![j]! += g.score;
    score[j]![i]! += 1 - g.score;
    played[i]![j]! += 1;
    played[j]![i]! += 1;
    first.score += g.score;
    first.games += 1;
    perPlayer.get(g.a)!.first.score += g.score;
    perPlayer.get(g.a)!.first.games += 1;
    perPlayer.get(g.b)!.second.score += 1 - g.score;
    perPlayer.get(g.b)!.second.games += 1;
  }
  for (const r of results) {
    if (r.status !== "done" || !r.winner) continue;
    const j = judges.get(judgeOf(r));
    if (!j) continue;
    j.decided += 1;
    j.first.games += 1;
    j.first.score += r.winner === "first" ? 1 : r.winner === "tie" ? 0.5 : 0;
  }
  const answers = new Map(fm.motions.map((m) => [m.id, m.answer]));
  const motionTexts = new Map(fm.motions.map((m) => [m.id, m.motion]));
  let correctness: Leaderboard["correctness"];
  const known = results.filter((r) => r.status === "done" && r.winner && answers.get(r.match.motion));
  if (known.length > 0) {
    // Khan et al. 2024: each player rated separately when arguing the correct and the incorrect side.
    const correctSide = (r: MatchResult) => (answers.get(r.match.motion) === "for" ? "first" : "second");
    const label = (side: "first" | "second", r: MatchResult) =>
      `${r.match[side]} (${side === correctSide(r) ? "correct" : "incorrect"})`;
    const pseudo = players.flatMap((p) => [`${p} (correct)`, `${p} (incorrect)`]);
    const byJudge = new Map<string, { judge: string; correct: number; decided: number }>();
    const overall = { correct: 0, decided: 0 };
    for (const r of known) {
      if (r.winner === "tie") continue;
      const j = byJudge.get(judgeOf(r)) ?? { judge: judgeOf(r), correct: 0, decided: 0 };
      byJudge.set(judgeOf(r), j);
      j.decided += 1;
      overall.decided += 1;
      if (r.winner === correctSide(r)) {
        j.correct += 1;
        overall.correct += 1;
      }
    }
    correctness = {
      ratings: rateWithIntervals(gamesOf(known, label), pseudo, { seed: fm.seed, samples }),
      judgeAccuracy: [...byJudge.values()],
      overall,
    };
  }
  const roles = sideRoles(fm.format);
  const done = results.filter((r) => r.status === "done").length;
  const failed = results.filter((r) => r.status === "failed");
  return {
    id: fm.tournament_id,
    format: fm.format,
    sideNames: { first: roles.first, second: roles.second },
    counts: {
      total: results.length,
      done,
      failed: failed.length,
      remaining: results.length - done - failed.length,
      decided: games.length,
    },
    ...spendOf(results),
    ratings,
    headToHead: { players, score, games: played },
    sides: { first, perPlayer: [...perPlayer.values()] },
    ...(correctness ? { correctness } : {}),
    judges: [...judges.values()],
    ...(fm.panel
      ? {
          panel: computePanelFigures(
            fm.judges.map((j) => j.name),
            results.filter((r) => r.status === "done").map((r) => r.panels ?? []),
            fm.panel.swap === true,
          ),
        }
      : {}),
    failed: failed.map((r) => ({
      id: r.match.id,
      code: r.error?.code ?? "FAILED",
      message: r.error?.message ?? "",
    })),
    debates: results.map((r) => ({
      id: r.match.id,
      motion: r.match.motion,
      ...(motionTexts.has(r.match.motion) ? { motionText: motionTexts.get(r.match.motion)! } : {}),
      first: r.match.first,
      second: r.match.second,
      judge: judgeOf(r),
      status: r.status,
      ...(r.winner ? { winner: r.winner === "tie" ? "tie" : r.match[r.winner] } : {}),
      ...(r.degraded ? { degraded: r.degraded } : {}),
    })),
    seed: fm.seed,
    samples,
  };
}
