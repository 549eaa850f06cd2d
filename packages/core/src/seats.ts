import type { SeatConfig } from "@debatekit/schema";
import type { FrontmatterBase } from "./types.js";

/**
 * The seat configurations of a debate.md frontmatter, by role. Every format keeps its seats under
 * `seats:` keyed by role (the format's schema checks their shape), so this is the one place that
 * reads them without knowing the format.
 */
export function seatConfigs(frontmatter: FrontmatterBase): Readonly<Record<string, SeatConfig | undefined>> {
  return (frontmatter.seats ?? {}) as Readonly<Record<string, SeatConfig | undefined>>;
}
