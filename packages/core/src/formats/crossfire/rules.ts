import type { CrossfireEvidence, CrossfireTurn } from "@debatekit/schema";
import { quote, ruleError } from "../../errors.js";
import type { RuleError } from "../../types.js";
import type { CrossfireSide, Turn } from "./state.js";

/** P1.2: proposer, round 1, point 2. C2.k1: challenger, round 2, concession 1. */
export const POINT_ID = /^[PC][1-5]\.[1-8]$/;
export const CONCESSION_ID = /^[PC][1-5]\.k[1-8]$/;
/** Point ids as they appear in prose (the verdict's reasoning). */
export const POINT_ID_IN_TEXT = /\b[PC][1-5]\.[1-8]\b/g;

/** The round-1 categories the challenger must cover (docs/architecture.md#formats). */
export const REQUIRED_CATEGORIES = ["correctness", "security", "developer_experience"] as const;

export const sideLetter = (role: CrossfireSide) => (role === "proposer" ? "P" : "C");
const sideOfId = (id: string): CrossfireSide => (id.startsWith("P") ? "proposer" : "challenger");

/** The turn kind of a side in a round: opening, challenge, defense, follow-up. */
export function turnKind(role: CrossfireSide, round: number): NonNullable<CrossfireTurn["kind"]> {
  if (role === "proposer") return round === 1 ? "opening" : "defense";
  return round === 1 ? "challenge" : "follow-up";
}

/** The answer with the engine's ids, round, side and kind (ids in the answer are ignored). */
export function assignIds(turn: CrossfireTurn, role: CrossfireSide, round: number): CrossfireTurn {
  const prefix = `${sideLetter(role)}${round}`;
  const out: CrossfireTurn = {
    round,
    role,
    kind: turnKind(role, round),
    position: turn.position,
    points: turn.points.map(({ id: _, ...point }, i) => ({ id: `${prefix}.${i + 1}`, ...point })),
  };
  if (turn.concessions?.length)
    out.concessions = turn.concessions.map(({ id: _, ...c }, i) => ({ id: `${prefix}.k${i + 1}`, ...c }));
  if (turn.withdrawals?.length) out.withdrawals = turn.withdrawals;
  return out;
}

/** Concessions still standing after `turns` (a withdrawal removes one), by id. */
export function standingConcessions(
  turns: readonly Turn[],
): Map<string, { text: string; target?: string; role: CrossfireSide }> {
  const standing = new Map<string, { text: string; target?: string; role: CrossfireSide }>();
  for (const turn of turns) {
    for (const c of turn.data.concessions ?? [])
      if (c.id)
        standing.set(c.id, { text: c.text, role: turn.role, ...(c.target ? { target: c.target } : {}) });
    for (const w of turn.data.withdrawals ?? []) standing.delete(w.concession);
  }
  return standing;
}

const evidenceKey = (e: CrossfireEvidence) => `${e.kind}:${e.ref.trim().toLowerCase()}`;

/**
 * Every crossfire rule (docs/architecture.md#formats) for one turn (schema-valid, ids not yet assigned): evidence or
 * `unsupported` on every point; the challenger names a flaw or certifies a concern resolved with
 * evidence; round 1's challenger covers correctness, security and developer experience; references
 * exist; a concession stands (taking it back needs new evidence, attacking what was conceded needs a
 * withdrawal). `earlier`: the committed turns this one may refer to.
 */
export function checkTurn(
  turn: CrossfireTurn,
  role: CrossfireSide,
  round: number,
  earlier: readonly Turn[],
): RuleError[] {
  const known = new Map<string, Turn>();
  for (const t of earlier) for (const p of t.data.points) if (p.id) known.set(p.id, t);
  const context: PointContext = {
    known,
    standing: standingConcessions(earlier),
    role,
    // A concession withdrawn in this very turn no longer binds its points (the withdrawal's own rules apply).
    withdrawing: new Set((turn.withdrawals ?? []).map((w) => w.concession)),
  };
  return [
    ...turn.points.flatMap((point, i) => pointErrors(point, `points[${i}]`, context)),
    ...(role === "challenger" ? challengeErrors(turn, round) : []),
    ...(turn.concessions ?? []).flatMap((c, i) =>
      c.target !== undefined && !known.has(c.target)
        ? [
            ruleError(
              "CROSSFIRE_REFERENCE_UNKNOWN",
              `concessions[${i}].target`,
              `expected the id of an earlier point of the other side, found ${quote(c.target)}`,
            ),
          ]
        : [],
    ),
    ...withdrawalErrors(turn, role, earlier, context.standing),
  ];
}

/** What a point is checked against: the earlier points by id, the standing concessions, who speaks. */
interface PointContext {
  known: ReadonlyMap<string, Turn>;
  standing: ReturnType<typeof standingConcessions>;
  role: CrossfireSide;
  withdrawing: ReadonlySet<string>;
}

type Point = CrossfireTurn["points"][number];

/** One point's rules: evidence or `unsupported`, a resolution's evidence, a stance's targets and what they may be. */
function pointErrors(point: Point, at: string, context: PointContext): RuleError[] {
  const errors: RuleError[] = [];
  // A stance the schema refused (it says so) is read as a plain claim: its text never reaches a message.
  const stance = point.stance === "flaw" || point.stance === "resolved" ? point.stance : "claim";
  const evidence = point.evidence ?? [];
  if (evidence.length === 0 && point.unsupported !== true) {
    errors.push(
      ruleError(
        "CROSSFIRE_POINT_UNSUPPORTED",
        `${at}.evidence`,
        `expected at least one evidence item {kind: file | code | benchmark | doc | data, ref, detail}, or \`unsupported: true\` to say the point rests on none; found neither for ${quote(point.claim)}`,
      ),
    );
  }
  if (stance === "resolved" && evidence.length === 0) {
    errors.push(
      ruleError(
        "CROSSFIRE_RESOLVED_UNSUPPORTED",
        `${at}.evidence`,
        "expected evidence for a concern certified resolved (a resolution without evidence is not accepted)",
      ),
    );
  }
  if (stance !== "claim" && (point.targets ?? []).length === 0) {
    errors.push(
      ruleError(
        "CROSSFIRE_TARGET_MISSING",
        `${at}.targets`,
        `expected the id(s) of the other side's point(s) this ${stance} is about, found none`,
      ),
    );
  }
  (point.targets ?? []).forEach((target, j) => {
    errors.push(...targetErrors(target, `${at}.targets[${j}]`, stance, context));
  });
  return errors;
}

/** A target must be an earlier point, of the other side for a stance, and not one this side conceded. */
function targetErrors(
  target: string,
  path: string,
  stance: "claim" | "flaw" | "resolved",
  { known, standing, role, withdrawing }: PointContext,
): RuleError[] {
  if (!POINT_ID.test(target) || !known.has(target)) {
    return [
      ruleError(
        "CROSSFIRE_REFERENCE_UNKNOWN",
        path,
        `expected the id of an earlier point (${[...known.keys()].join(", ") || "none yet"}), found ${quote(target)}`,
      ),
    ];
  }
  const errors: RuleError[] = [];
  if (stance !== "claim" && target.startsWith(sideLetter(role))) {
    errors.push(
      ruleError(
        "CROSSFIRE_TARGET_OWN_SIDE",
        path,
        `expected a point of the other side for a ${stance}, found your own ${target}`,
      ),
    );
  }
  if (stance !== "flaw") return errors;
  for (const [id, c] of standing) {
    if (c.role === role && c.target === target && !withdrawing.has(id)) {
      errors.push(
        ruleError(
          "CROSSFIRE_CONCESSION_CONTRADICTED",
          path,
          `you conceded ${target} in ${id} (${quote(c.text)}); attacking it again needs a withdrawal of ${id} with new evidence`,
        ),
      );
    }
  }
  return errors;
}

/** The challenger names a flaw (or certifies a concern resolved with evidence); in round 1 it covers every required category. */
function challengeErrors(turn: CrossfireTurn, round: number): RuleError[] {
  const errors: RuleError[] = [];
  const named = turn.points.some(
    (p) => p.stance === "flaw" || (p.stance === "resolved" && (p.evidence ?? []).length > 0),
  );
  if (!named) {
    errors.push(
      ruleError(
        "CROSSFIRE_NO_FLAW",
        "points",
        "expected at least one point with `stance: flaw` (a flaw in the proposer's points), or `stance: resolved` with evidence certifying a concern resolved; found neither",
      ),
    );
  }
  if (round !== 1) return errors;
  const covered = new Set(turn.points.map((p) => p.category));
  for (const category of REQUIRED_CATEGORIES) {
    if (!covered.has(category)) {
      errors.push(
        ruleError(
          "CROSSFIRE_CATEGORY_MISSING",
          "points",
          `expected the first challenge to cover correctness, security and developer_experience (a point with \`category: ${category}\`), found none for ${category}`,
        ),
      );
    }
  }
  return errors;
}

/** A withdrawal takes back one of this side's own standing concessions, once, with evidence not cited before. */
function withdrawalErrors(
  turn: CrossfireTurn,
  role: CrossfireSide,
  earlier: readonly Turn[],
  standing: PointContext["standing"],
): RuleError[] {
  const errors: RuleError[] = [];
  const cited = new Set<string>();
  for (const t of earlier) {
    for (const p of t.data.points) for (const e of p.evidence ?? []) cited.add(evidenceKey(e));
    for (const w of t.data.withdrawals ?? []) for (const e of w.evidence) cited.add(evidenceKey(e));
  }
  const withdrawn = new Set<string>();
  (turn.withdrawals ?? []).forEach((w, i) => {
    const at = `withdrawals[${i}]`;
    const conceded = standing.get(w.concession);
    if (
      !CONCESSION_ID.test(w.concession) ||
      !conceded ||
      conceded.role !== role ||
      withdrawn.has(w.concession)
    ) {
      const mine = [...standing].filter(([, c]) => c.role === role).map(([id]) => id);
      errors.push(
        ruleError(
          "CROSSFIRE_REFERENCE_UNKNOWN",
          `${at}.concession`,
          `expected one of your own standing concessions (${mine.join(", ") || "none"}), found ${quote(w.concession)}`,
        ),
      );
    }
    withdrawn.add(w.concession);
    if (!w.evidence.some((e) => !cited.has(evidenceKey(e)))) {
      errors.push(
        ruleError(
          "CROSSFIRE_WITHDRAWAL_NO_NEW_EVIDENCE",
          `${at}.evidence`,
          `a concession stands: taking ${quote(w.concession)} back needs evidence not cited before in the debate; every item given was already cited`,
        ),
      );
    }
  });
  return errors;
}

/** The side a point id belongs to. */
export { sideOfId };
