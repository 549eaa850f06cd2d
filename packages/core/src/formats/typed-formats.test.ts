import type { CrossfireFrontmatter, DebateFrontmatter, ReviewFrontmatter } from "@debatekit/schema";
import { describe, expectTypeOf, it } from "vitest";
import { crossfireFormat } from "./crossfire/format.js";
import { formalFormat } from "./formal/format.js";
import type { AnyFormat, Format } from "./format.js";
import { reviewFormat } from "./review/format.js";

// Checked by `tsc` (the package's typecheck): a format's methods see its own frontmatter, not a cast of formal's.
describe("each built-in format is typed by its own frontmatter", () => {
  it("crossfire, review and formal", () => {
    expectTypeOf(crossfireFormat).toEqualTypeOf<Format<CrossfireFrontmatter>>();
    expectTypeOf(reviewFormat).toEqualTypeOf<Format<ReviewFrontmatter>>();
    expectTypeOf(formalFormat).toEqualTypeOf<Format<DebateFrontmatter>>();
    expectTypeOf(crossfireFormat).toExtend<AnyFormat>();
    expectTypeOf(reviewFormat).toExtend<AnyFormat>();
  });
});
