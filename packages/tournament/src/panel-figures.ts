// Judge-panel figures of a tournament (pure): from each debate's panel records (judges/*.md,
// each a PanelResult), per judge its agreement with the panel's majority and its order flips,
// and the agreement of every pair of judges, each with the number of judged steps behind it.
import type { PanelResult } from "@debatekit/schema";

/** `agree` of `n` judged steps. */
export interface Agreement {
  agree: number;
  n: number;
}

/** The panel figures the leaderboard shows. */
export interface PanelFigures {
  /** Judged steps read (crossfire: one verdict per debate; formal: one per exchange). */
  steps: number;
  /** Debates with at least one panel record. */
  debates: number;
  swap: boolean;
  judges: Array<{
    name: string;
    /** Its vote equals the panel's majority side (steps with a majority it voted in). */
    majority: Agreement;
    /** Asked in both orders, its two ballots named different sides (`agree` = flipped here). */
    flips: Agreement;
  }>;
  /** Steps where both judges voted, and how many of them with the same vote. */
  pairs: Array<{ a: string; b: string } & Agreement>;
  /** All judges' flips pooled. */
  flips: Agreement;
}

/** The panel role of judge i (0-based): `judge`, `judge_2` .. `judge_5` (core's naming). */
export function panelRole(index: number): string {
  return index === 0 ? "judge" : `judge_${index + 1}`;
}

/**
 * The side most judges voted for (a `tie` vote, a judge that flipped with the order, counts for
 * neither side); undefined when no side has more votes than every other.
 */
export function majorityOf(votes: Readonly<Record<string, string>>): string | undefined {
  const counts = new Map<string, number>();
  for (const vote of Object.values(votes)) if (vote !== "tie") counts.set(vote, (counts.get(vote) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((x, y) => y[1] - x[1]);
  if (sorted.length === 0 || (sorted.length > 1 && sorted[1]![1] === sorted[0]![1])) return undefined;
  return sorted[0]![0];
}

/**
 * Computes the figures over every panel record of the done debates. Judges are named by their
 * position in the tournament's `judges` (judge i sat as `panelRole(i)`); the fallback judge is not
 * a panel member and is left out.
 */
export function computePanelFigures(
  judgeNames: readonly string[],
  debates: ReadonlyArray<readonly PanelResult[]>,
  swap: boolean,
): PanelFigures {
  const roles = judgeNames.map((_, i) => panelRole(i));
  const majority = judgeNames.map(() => ({ agree: 0, n: 0 }));
  const flips = judgeNames.map(() => ({ agree: 0, n: 0 }));
  const pairs: PanelFigures["pairs"] = [];
  for (let i = 0; i < judgeNames.length; i++)
    for (let j = i + 1; j < judgeNames.length; j++)
      pairs.push({ a: judgeNames[i]!, b: judgeNames[j]!, agree: 0, n: 0 });
  let steps = 0;
  let withRecords = 0;
  for (const records of debates) {
    if (records.length > 0) withRecords++;
    for (const record of records) {
      steps++;
      const votes = record.votes ?? {};
      const side = majorityOf(votes);
      roles.forEach((role, i) => {
        const vote = votes[role];
        if (vote !== undefined && side !== undefined) {
          majority[i]!.n++;
          if (vote === side) majority[i]!.agree++;
        }
        const own = record.judges.find((b) => b.role === role && b.status === "answered");
        const twin = record.judges.find((b) => b.role === `${role}_swapped` && b.status === "answered");
        if (own?.winner && twin?.winner) {
          flips[i]!.n++;
          if (own.winner !== twin.winner) flips[i]!.agree++;
        }
      });
      let k = 0;
      for (let i = 0; i < roles.length; i++) {
        for (let j = i + 1; j < roles.length; j++, k++) {
          const a = votes[roles[i]!];
          const b = votes[roles[j]!];
          if (a === undefined || b === undefined) continue;
          pairs[k]!.n++;
          if (a === b) pairs[k]!.agree++;
        }
      }
    }
  }
  return {
    steps,
    debates: withRecords,
    swap,
    judges: judgeNames.map((name, i) => ({ name, majority: majority[i]!, flips: flips[i]! })),
    pairs,
    flips: flips.reduce((s, f) => ({ agree: s.agree + f.agree, n: s.n + f.n }), { agree: 0, n: 0 }),
  };
}
