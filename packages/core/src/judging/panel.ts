import type { Judges, SeatConfig } from "@debatekit/schema";
import type { SeatAsk } from "../formats/format.js";
import { seatConfigs } from "../seats.js";
import type { FrontmatterBase } from "../types.js";

/** A blind label a judge sees instead of a side's name. */
export type Label = "A" | "B";

/** One judge asked in one order: a panel seat, or its twin in the other order, or the fallback. */
export interface Ballot {
  /** The role it is asked as (journal, replay, sandbox key): `judge`, `judge_2`, `judge_swapped`, `judge_fallback`. */
  role: string;
  /** The judge it belongs to (its first role): ballots of one judge are one vote. */
  judge: string;
  seat: SeatConfig;
  /** Position of its judge in the panel (0-based; the fallback comes after the panel). */
  index: number;
  /** True for the twin asked in the other order (`swap: true`). */
  swapped: boolean;
  fallback: boolean;
}

/** The judging configuration of a debate: `judges:`, else the one judge of `seats.judge` (legacy, not blind). */
export interface JudgingConfig {
  panel: SeatConfig[];
  swap: boolean;
  quorum: number;
  fallback?: SeatConfig;
  allowSelfJudging: boolean;
  /** True when debate.md has `judges:` (blind labels, order swaps, judges/ records); false for a bare `seats.judge`. */
  blind: boolean;
}

export const FALLBACK_ROLE = "judge_fallback";
const JUDGE_ROLE = /^judge(?:_([2-5]))?(_swapped)?$/;

/** The role of the panel's judge number `index` (0-based): `judge`, `judge_2` .. `judge_5`. */
export function judgeRole(index: number): string {
  return index === 0 ? "judge" : `judge_${index + 1}`;
}

/** True for a role a judge of a panel is asked as. */
export function isJudgeRole(role: string): boolean {
  return role === FALLBACK_ROLE || JUDGE_ROLE.test(role);
}

/** The judging configuration of debate.md's frontmatter, or undefined when it names no judge. */
export function judgingOf(fm: { judges?: Judges; seats?: object }): JudgingConfig | undefined {
  const judges = fm.judges;
  if (judges) {
    const panel = judges.panel;
    return {
      panel,
      swap: judges.swap ?? false,
      quorum: Math.min(judges.quorum ?? Math.floor(panel.length / 2) + 1, panel.length),
      ...(judges.fallback ? { fallback: judges.fallback } : {}),
      allowSelfJudging: judges.allow_self_judging ?? false,
      blind: true,
    };
  }
  const judge = (fm.seats as { judge?: SeatConfig } | undefined)?.judge;
  if (!judge) return undefined;
  return { panel: [judge], swap: false, quorum: 1, allowSelfJudging: true, blind: false };
}

/** Every ballot of a panel, in order: each judge, then (with `swap`) its twin in the other order. */
export function ballotsOf(config: JudgingConfig): Ballot[] {
  return config.panel.flatMap((seat, index) => {
    const role = judgeRole(index);
    const first: Ballot = { role, judge: role, seat, index, swapped: false, fallback: false };
    return config.swap ? [first, { ...first, role: `${role}_swapped`, swapped: true }] : [first];
  });
}

/** The ballot a role is asked as (the panel's or the fallback's), or undefined. */
export function ballotOf(config: JudgingConfig, role: string): Ballot | undefined {
  if (role === FALLBACK_ROLE && config.fallback) {
    return {
      role,
      judge: role,
      seat: config.fallback,
      index: config.panel.length,
      swapped: false,
      fallback: true,
    };
  }
  return ballotsOf(config).find((b) => b.role === role);
}

/** FNV-1a: a small deterministic hash (core has no crypto; this is a coin, not a secret). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche so neighbouring inputs differ in every bit.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * The labels one judge sees: which side is `Debater A`, at random per judge, and the same at every
 * step and on every call (a resumed run rebuilds the same prompt and reads the journaled answer the
 * same way; a judge keeps its labels from one exchange to the next, so its prompts share a prefix).
 */
export function labelsFor<S extends string>(
  debateId: string,
  ballot: Pick<Ballot, "judge">,
  sides: readonly [S, S],
): Record<S, Label> {
  const coin = hash(`${debateId}\u0000${ballot.judge}`) & 1;
  const [first, second] = sides;
  return (coin === 0 ? { [first]: "A", [second]: "B" } : { [first]: "B", [second]: "A" }) as Record<S, Label>;
}

/**
 * The side a ballot reads first: the panel's judges alternate (half of the panel sees the second
 * side first), a swapped twin reads the other order of its judge.
 */
export function firstSide<S extends string>(
  ballot: Pick<Ballot, "index" | "swapped">,
  sides: readonly [S, S],
): S {
  const flipped = (ballot.index % 2 === 1) !== ballot.swapped;
  return flipped ? sides[1] : sides[0];
}

/** The default quorum of a panel of `size` judges: a majority. */
export function defaultQuorum(size: number): number {
  return Math.floor(size / 2) + 1;
}

/**
 * Whether a judge would judge its own text: the same adapter, model and endpoint (`base_url`) as the
 * debater. A manual seat is a person and a replay seat recorded answers: neither favours its own text.
 * The one rule of self-judging: every format's `newDebate`, every run and `tournament new` ask it.
 */
export function isSelfJudging(judge: SeatConfig, debater: SeatConfig): boolean {
  if (judge.adapter === "manual" || judge.adapter === "replay") return false;
  return (
    judge.adapter === debater.adapter &&
    (judge.model ?? "") === (debater.model ?? "") &&
    (judge.base_url ?? "") === (debater.base_url ?? "")
  );
}

/** A seat in words for a message: `codex`, `http gpt-4o at http://127.0.0.1:8080/v1`. */
export function seatWords(seat: SeatConfig): string {
  return `${seat.adapter}${seat.model ? ` ${seat.model}` : ""}${seat.base_url ? ` at ${seat.base_url}` : ""}`;
}

/** Debaters a judge would judge its own text against (isSelfJudging), by debater role. */
export function selfJudging(
  config: JudgingConfig,
  debaters: Readonly<Record<string, SeatConfig | undefined>>,
): Array<{ judge: string; debater: string; seat: SeatConfig }> {
  const found: Array<{ judge: string; debater: string; seat: SeatConfig }> = [];
  const judges: Array<[string, SeatConfig]> = config.panel.map((seat, i) => [judgeRole(i), seat]);
  if (config.fallback) judges.push([FALLBACK_ROLE, config.fallback]);
  for (const [judge, seat] of judges)
    for (const [debater, other] of Object.entries(debaters))
      if (other && isSelfJudging(seat, other)) found.push({ judge, debater, seat });
  return found;
}

/** Calls one judged step makes (every ballot of the panel; the fallback not counted): 1 for one judge. */
export function callsPerJudgedStep(fm: { judges?: Judges; seats?: object }): number {
  const config = judgingOf(fm);
  return config ? ballotsOf(config).length : 1;
}

/** The panel's asks for a judgment, its quorum and fallback (a bare `seats.judge` is one ask, as always). */
export function judgeAsks(
  config: JudgingConfig,
  task = "judgment",
): { asks: SeatAsk[]; quorum?: number; fallback?: SeatAsk } {
  if (!config.blind) return { asks: [{ role: "judge", task }] };
  return {
    asks: ballotsOf(config).map((b) => ({ role: b.role, task, group: b.judge })),
    quorum: config.quorum,
    ...(config.fallback ? { fallback: { role: FALLBACK_ROLE, task, group: FALLBACK_ROLE } } : {}),
  };
}

/** Why the debate cannot be judged as configured: a judge that is a debater's own adapter and model. */
export function selfJudgingProblem(
  state: { frontmatter: FrontmatterBase },
  config: JudgingConfig,
  debaters: readonly string[] = ["proposition", "opposition"],
): string | undefined {
  if (config.allowSelfJudging) return undefined;
  const seats = seatConfigs(state.frontmatter);
  const found = selfJudging(config, Object.fromEntries(debaters.map((d) => [d, seats[d]])));
  if (found.length === 0) return undefined;
  const f = found[0]!;
  return `debate.md: the judge \`${f.judge}\` (${seatWords(f.seat)}) is the ${f.debater}'s own adapter, model and endpoint, and models favour their own text; choose another judge, or set \`judges.allow_self_judging: true\``;
}
