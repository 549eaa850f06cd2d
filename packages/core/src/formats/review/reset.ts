import type { ReviewFrontmatter } from "@debatekit/schema";
import type { ResetSupport } from "../format.js";

/** A review cannot start again: between rounds its author changed what was reviewed, so earlier rounds no longer hold. */
export const reviewReset: ResetSupport<ReviewFrontmatter> = {
  supported: false,
  reason: "its author changed what was reviewed",
};
