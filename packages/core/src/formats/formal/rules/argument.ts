import type { ArgumentDraft, SideOutput } from "@debatekit/schema";
import { quote, ruleError } from "../../../errors.js";
import type { ArgumentRecord, DebaterRole, RuleError } from "../../../types.js";
import { parseArgumentId } from "../ids.js";
import { otherRole, sideCode } from "../sides.js";

const ATTACK_TYPES = new Set(["claim_attack", "grounds_attack", "warrant_attack", "backing_attack"]);
const DEFENSE_TYPES = new Set(["reinforce", "clarify", "concede_and_pivot"]);
const MAX_ATTACKS = 3;
const MAX_DEFENDS = 2;
const MIN_GROUNDS = 1;
const MAX_GROUNDS = 3;
const GROUND_KEYS = ["source", "content", "relevance"] as const;

/** How many arguments a side must return in an exchange: 3 for the opening, 1 for a rebuttal. */
export function requiredArgumentCount(exchange: number): number {
  return exchange === 0 ? 3 : 1;
}

/** The ARGUMENT_COUNT error when `found` arguments is not what the exchange requires. */
export function countError(found: number, exchange: number): RuleError | undefined {
  if (found === requiredArgumentCount(exchange)) return undefined;
  return ruleError(
    "ARGUMENT_COUNT",
    "arguments",
    exchange === 0
      ? `expected exactly 3 independent opening arguments for exchange 0, found ${found}`
      : `expected exactly 1 rebuttal argument for exchange ${exchange}, found ${found}`,
  );
}

function isRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function listOf<T>(value: readonly T[] | undefined): readonly T[] {
  return Array.isArray(value) ? value : [];
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

interface TargetRule {
  kind: "attack" | "defense";
  path: string;
  targetId: unknown;
  role: DebaterRole;
  exchange: number;
  known: ReadonlyMap<string, ArgumentRecord>;
}

/** Checks one attack or defense target: well-formed id, existing, earlier, and of the right side. */
export function checkTarget(rule: TargetRule): RuleError[] {
  const { kind, path, targetId, role, exchange, known } = rule;
  const wantedSide = kind === "attack" ? sideCode(otherRole(role)) : sideCode(role);
  const wantedWho = kind === "attack" ? `the ${otherRole(role)}'s` : `the ${role}'s own`;
  if (!parseArgumentId(targetId)) {
    return [
      ruleError(
        "ARGUMENT_TARGET_INVALID",
        path,
        `expected an argument id like ${wantedSide}_000a or ${wantedSide}_001, found ${quote(targetId)}`,
      ),
    ];
  }
  const id = targetId as string;
  const target = known.get(id);
  if (!target) {
    const ids = [...known.values()]
      .filter((a) => a.frontmatter.side === wantedSide && a.frontmatter.exchange < exchange)
      .map((a) => a.frontmatter.id);
    return [
      ruleError(
        "ARGUMENT_TARGET_UNKNOWN",
        path,
        `expected one of ${wantedWho} earlier arguments (${ids.join(", ") || "none yet"}), found ${quote(id)}, which does not exist`,
      ),
    ];
  }
  if (target.frontmatter.side !== wantedSide) {
    return [
      kind === "attack"
        ? ruleError(
            "ARGUMENT_ATTACK_OWN_SIDE",
            path,
            `an attack must target the ${otherRole(role)}'s argument, found ${quote(id)}, which is the ${role}'s own`,
          )
        : ruleError(
            "ARGUMENT_DEFENSE_OTHER_SIDE",
            path,
            `a defense must target the ${role}'s own argument, found ${quote(id)}, which is the ${otherRole(role)}'s`,
          ),
    ];
  }
  if (target.frontmatter.exchange >= exchange) {
    return [
      ruleError(
        "ARGUMENT_TARGET_NOT_EARLIER",
        path,
        `expected an argument from an exchange before ${exchange}, found ${quote(id)} from exchange ${target.frontmatter.exchange}`,
      ),
    ];
  }
  return [];
}

function checkDraftShape(draft: ArgumentDraft, path: string): RuleError[] {
  const errors: RuleError[] = [];
  for (const key of ["title", "claim", "warrant"] as const) {
    if (!isNonEmptyString(draft[key])) {
      errors.push(
        ruleError(
          "ARGUMENT_FIELD_EMPTY",
          `${path}.${key}`,
          `expected non-empty text, found ${quote(draft[key])}`,
        ),
      );
    }
  }
  const grounds: unknown = draft.grounds;
  if (!Array.isArray(grounds) || grounds.length < MIN_GROUNDS || grounds.length > MAX_GROUNDS) {
    errors.push(
      ruleError(
        "ARGUMENT_GROUNDS_COUNT",
        `${path}.grounds`,
        `expected ${MIN_GROUNDS} to ${MAX_GROUNDS} grounds, found ${Array.isArray(grounds) ? grounds.length : quote(grounds)}`,
      ),
    );
    return errors;
  }
  grounds.forEach((ground: unknown, g) => {
    for (const key of GROUND_KEYS) {
      const value = (ground as Record<string, unknown> | null)?.[key];
      if (!isNonEmptyString(value)) {
        errors.push(
          ruleError(
            "ARGUMENT_GROUND_INCOMPLETE",
            `${path}.grounds[${g}].${key}`,
            `expected every ground to have non-empty source, content and relevance; \`${key}\` is ${quote(value)}`,
          ),
        );
      }
    }
  });
  return errors;
}

function checkLinks(
  draft: ArgumentDraft,
  path: string,
  role: DebaterRole,
  exchange: number,
  known: ReadonlyMap<string, ArgumentRecord>,
): RuleError[] {
  const errors: RuleError[] = [];
  // A refused answer is checked too (every problem at once): what is not a list holds no links here.
  const attacks = listOf(draft.attacks);
  const defends = listOf(draft.defends);
  if (exchange === 0) {
    if (attacks.length > 0) {
      errors.push(
        ruleError(
          "ARGUMENT_ATTACK_IN_OPENING",
          `${path}.attacks`,
          `expected no attacks in an opening (nothing earlier exists to attack), found ${attacks.length}`,
        ),
      );
    }
    if (defends.length > 0) {
      errors.push(
        ruleError(
          "ARGUMENT_DEFENSE_IN_OPENING",
          `${path}.defends`,
          `expected no defends in an opening (nothing earlier exists to defend), found ${defends.length}`,
        ),
      );
    }
    return errors;
  }
  if (attacks.length > MAX_ATTACKS) {
    errors.push(
      ruleError(
        "ARGUMENT_TOO_MANY_ATTACKS",
        `${path}.attacks`,
        `expected at most ${MAX_ATTACKS} attacks, found ${attacks.length}`,
      ),
    );
  }
  if (defends.length > MAX_DEFENDS) {
    errors.push(
      ruleError(
        "ARGUMENT_TOO_MANY_DEFENDS",
        `${path}.defends`,
        `expected at most ${MAX_DEFENDS} defends, found ${defends.length}`,
      ),
    );
  }
  const seenAttacks = new Set<string>();
  attacks.forEach((attack, i) => {
    const at = `${path}.attacks[${i}]`;
    if (!isRecord(attack)) return;
    if (!ATTACK_TYPES.has(attack.attack_type)) {
      errors.push(
        ruleError(
          "ARGUMENT_ATTACK_TYPE",
          `${at}.attack_type`,
          `expected one of ${[...ATTACK_TYPES].join(", ")}, found ${quote(attack.attack_type)}`,
        ),
      );
    }
    if (!isNonEmptyString(attack.content)) {
      errors.push(
        ruleError(
          "ARGUMENT_FIELD_EMPTY",
          `${at}.content`,
          `expected the attack's text, found ${quote(attack.content)}`,
        ),
      );
    }
    errors.push(
      ...checkTarget({
        kind: "attack",
        path: `${at}.target_id`,
        targetId: attack.target_id,
        role,
        exchange,
        known,
      }),
    );
    const key = `${attack.target_id}\u0000${attack.attack_type}`;
    if (seenAttacks.has(key)) {
      errors.push(
        ruleError(
          "ARGUMENT_DUPLICATE_ATTACK",
          at,
          `expected each (target_id, attack_type) once, found ${quote(attack.target_id)} with ${quote(attack.attack_type)} again`,
        ),
      );
    }
    seenAttacks.add(key);
  });
  const seenDefends = new Set<string>();
  defends.forEach((defense, i) => {
    const at = `${path}.defends[${i}]`;
    if (!isRecord(defense)) return;
    if (!DEFENSE_TYPES.has(defense.defense_type)) {
      errors.push(
        ruleError(
          "ARGUMENT_DEFENSE_TYPE",
          `${at}.defense_type`,
          `expected one of ${[...DEFENSE_TYPES].join(", ")}, found ${quote(defense.defense_type)}`,
        ),
      );
    }
    if (!isNonEmptyString(defense.content)) {
      errors.push(
        ruleError(
          "ARGUMENT_FIELD_EMPTY",
          `${at}.content`,
          `expected the defense's text, found ${quote(defense.content)}`,
        ),
      );
    }
    errors.push(
      ...checkTarget({
        kind: "defense",
        path: `${at}.target_id`,
        targetId: defense.target_id,
        role,
        exchange,
        known,
      }),
    );
    if (seenDefends.has(String(defense.target_id))) {
      errors.push(
        ruleError(
          "ARGUMENT_DUPLICATE_DEFENSE",
          at,
          `expected each defended argument once, found ${quote(defense.target_id)} again`,
        ),
      );
    }
    seenDefends.add(String(defense.target_id));
  });
  return errors;
}

/**
 * Checks a side's schema-valid answer against every rule of the formal format (docs/architecture.md#formats):
 * the count for the exchange, complete grounds, link types, and that every attack targets the other
 * side's earlier argument and every defense the side's own. Ids in the output are ignored.
 */
export function checkSideArguments(
  output: SideOutput,
  role: DebaterRole,
  exchange: number,
  existing: readonly ArgumentRecord[],
): RuleError[] {
  const errors: RuleError[] = [];
  const drafts = Array.isArray(output.arguments) ? output.arguments : [];
  const count = countError(drafts.length, exchange);
  if (count) errors.push(count);
  const known = new Map(existing.map((a) => [a.frontmatter.id, a]));
  drafts.forEach((draft, i) => {
    const path = `arguments[${i}]`;
    if (!isRecord(draft)) return;
    errors.push(...checkDraftShape(draft, path), ...checkLinks(draft, path, role, exchange, known));
  });
  return errors;
}
