import { InvalidArgumentError } from "commander";

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
