import type { DebateFrontmatter } from "@debatekit/schema";
import type { ResetSupport } from "../format.js";

/** How `debate reset` starts a formal debate again. (Placeholder: files still applies its own table until the plan lands here.) */
export const formalReset: ResetSupport<DebateFrontmatter> = {
  supported: false,
  reason: "not moved into the format yet",
};
