import { appliesToRole, compareCodePoints, isAlwaysOn, matchSkills } from "./match.js";
import type { LoadedSkill } from "./types.js";

/** A motion with the skills a seat of this role should get for it. */
export interface LabelledMotion {
  id: string;
  motion: string;
  role: string;
  /** The seat's kinds (`debater` for an arguing seat), which skills may name instead of the role. */
  kinds?: string[];
  /** The topical skills it should get; every other topical skill for the role is one it should not. */
  skills: string[];
  /** Free label, e.g. "dev" or "holdout". */
  split?: string;
}

/** One motion where the match differs from its label. */
export interface MatchMiss {
  id: string;
  /** Should get, was not matched. */
  missing: string[];
  /** Was matched, should not get. */
  extra: string[];
}

/** Micro-averaged precision and recall of matchSkills over labelled motions. */
export interface MatchQuality {
  cases: number;
  precision: number;
  recall: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  misses: MatchMiss[];
}

/**
 * Scores matchSkills against labelled motions: for each motion, the topical skills (those that
 * apply to its role and have no `*` trigger) that matched, against those it should get. A label
 * naming a skill that is not topical for the role is an error in the set, so it throws.
 */
export function measureMatching(
  skills: readonly LoadedSkill[],
  cases: readonly LabelledMotion[],
): MatchQuality {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: MatchMiss[] = [];
  for (const c of cases) {
    const topical = new Set(
      skills.filter((s) => appliesToRole(s, c.role, c.kinds) && !isAlwaysOn(s)).map((s) => s.name),
    );
    for (const name of c.skills) {
      if (!topical.has(name))
        throw new Error(`labelled motion ${c.id}: ${name} is not a topical skill for role ${c.role}`);
    }
    const want = new Set(c.skills);
    const got = new Set(
      matchSkills(skills, { text: c.motion, role: c.role, ...(c.kinds ? { kinds: c.kinds } : {}) })
        .map((m) => m.skill.name)
        .filter((name) => topical.has(name)),
    );
    const missing = [...want].filter((n) => !got.has(n)).sort(compareCodePoints);
    const extra = [...got].filter((n) => !want.has(n)).sort(compareCodePoints);
    tp += want.size - missing.length;
    fp += extra.length;
    fn += missing.length;
    if (missing.length > 0 || extra.length > 0) misses.push({ id: c.id, missing, extra });
  }
  return {
    cases: cases.length,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    misses,
  };
}
