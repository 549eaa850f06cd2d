import { InvalidArgumentError } from "commander";
import { ExitError } from "./exit-error.js";

/** Commander parser for a positive integer option (`--exchanges 5`). */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new InvalidArgumentError(`expected a whole number from 1 to 1000, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Commander parser for an amount of US dollars (`--max-cost 2.50`, `--max-cost $2`). */
export function parseUsd(value: string): number {
  const n = Number(value.trim().replace(/^\$/, ""));
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError(
      `expected an amount of US dollars such as 2.50, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** Commander parser for a whole number from 0 (`--to 0`). */
export function parseNonNegativeInt(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0 || n > 1000) {
    throw new InvalidArgumentError(`expected a whole number from 0 to 1000, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** The efforts a seat may ask for. */
export const EFFORTS = ["low", "medium", "high", "max"];

/**
 * A seat given as `<adapter>[:<model>[:<effort>]]` (`--judge codex:gpt-5.5:high`, or a config
 * file's `seats`): its parts, or a usage error (exit 2) naming `flag`.
 */
export function parseSeatSpec(
  flag: string,
  given: string,
): { adapter: string; model?: string; effort?: "low" | "medium" | "high" | "max" } {
  const [adapter, model, effort, ...rest] = given.split(":");
  if (rest.length > 0 || !adapter)
    throw new ExitError(`${flag} ${given}: expected <adapter>[:<model>[:<effort>]]`, 2);
  if (effort && !EFFORTS.includes(effort))
    throw new ExitError(
      `${flag} ${given}: effort must be one of ${EFFORTS.join(", ")}, got ${JSON.stringify(effort)}`,
      2,
    );
  return {
    adapter,
    ...(model ? { model } : {}),
    ...(effort ? { effort: effort as "low" | "medium" | "high" | "max" } : {}),
  };
}
