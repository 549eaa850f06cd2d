import type { CrossfireFrontmatter } from "@debatekit/schema";
import type { ResetSupport } from "../format.js";

/** How `debate reset` starts a crossfire debate again. (Placeholder: files still applies its own table until the plan lands here.) */
export const crossfireReset: ResetSupport<CrossfireFrontmatter> = {
  supported: false,
  reason: "not moved into the format yet",
};
