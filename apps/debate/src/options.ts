import { InvalidArgumentError } from "commander";

/** Commander parser for a positive integer option (`--exchanges 5`). */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new InvalidArgumentError(`expected a whole number from 1 to 1000, got ${JSON.stringify(value)}`);
  }
  return n;
}
