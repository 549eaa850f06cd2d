import type { ReviewFrontmatter } from "@debatekit/schema";
import type { ResetSupport } from "../format.js";

/** How `debate reset` starts a review debate again. (Placeholder: files still applies its own table until the plan lands here.) */
export const reviewReset: ResetSupport<ReviewFrontmatter> = {
  supported: false,
  reason: "not moved into the format yet",
};
