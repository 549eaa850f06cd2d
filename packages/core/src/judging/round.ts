/** Rounds away float noise (0.1 + 0.2, 2.0500000000000003) to 6 decimals. */
export function roundScore(value: number): number {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? 0 : rounded;
}
