import { fail, ok, quote, ruleError } from "../../errors.js";
import type { Result } from "../../types.js";

/** How hard a review pushes: rounds and minutes (docs/architecture.md#formats). */
export const INTENSITY_PRESETS = {
  quick: { max_rounds: 1, budget_minutes: 10 },
  standard: { max_rounds: 3, budget_minutes: 20 },
  extensive: { max_rounds: 5, budget_minutes: 40 },
} as const;

export type Intensity = keyof typeof INTENSITY_PRESETS;

/** The guards of a review: a preset (default standard), explicit values overriding it. */
export function resolveGuards(options: {
  intensity?: string;
  max_rounds?: number;
  budget_minutes?: number;
}): Result<{ intensity: Intensity; max_rounds: number; budget_minutes: number }> {
  const intensity = (options.intensity ?? "standard") as Intensity;
  if (!Object.hasOwn(INTENSITY_PRESETS, intensity))
    return fail(
      ruleError(
        "REVIEW_INTENSITY",
        "intensity",
        `expected quick, standard or extensive, found ${quote(options.intensity)}`,
      ),
    );
  const preset = INTENSITY_PRESETS[intensity];
  const max_rounds = options.max_rounds ?? preset.max_rounds;
  const budget_minutes = options.budget_minutes ?? preset.budget_minutes;
  if (!Number.isInteger(max_rounds) || max_rounds < 1 || max_rounds > 10)
    return fail(
      ruleError(
        "REVIEW_MAX_ROUNDS",
        "max_rounds",
        `expected an integer from 1 to 10, found ${quote(max_rounds)}`,
      ),
    );
  if (!Number.isFinite(budget_minutes) || budget_minutes <= 0 || budget_minutes > 24 * 60)
    return fail(
      ruleError(
        "REVIEW_BUDGET",
        "budget_minutes",
        `expected minutes above 0 and at most 1440, found ${quote(budget_minutes)}`,
      ),
    );
  return ok({ intensity, max_rounds, budget_minutes });
}

/**
 * The budget checked before a call: the time left (spent is the sum of earlier calls' durations, so a
 * resume does not reset it), and the call's timeout bounded by it. `exhausted` when nothing is left.
 */
export function budgetForCall(
  budgetMinutes: number,
  spentMs: number,
  seatTimeoutMs: number,
): { exhausted: true } | { exhausted: false; timeoutMs: number } {
  const leftMs = budgetMinutes * 60_000 - spentMs;
  if (leftMs <= 0) return { exhausted: true };
  return { exhausted: false, timeoutMs: Math.max(1, Math.min(seatTimeoutMs, Math.floor(leftMs))) };
}
