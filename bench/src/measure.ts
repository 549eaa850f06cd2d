import { performance } from "node:perf_hooks";

/** Percentile (0-100) of a list of numbers, nearest-rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Runs fn `iterations` times after `warmup` runs; returns each run's milliseconds. */
export async function timeRuns(fn: () => unknown, iterations: number, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** Prints one figure as `name: value unit`, aligned. */
export function report(name: string, value: number, unit: string): void {
  const shown = value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(3);
  console.log(`${name.padEnd(56)} ${shown.padStart(10)} ${unit}`);
}
