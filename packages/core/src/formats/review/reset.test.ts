import { describe, expect, it } from "vitest";
import { reviewFormat } from "./format.js";

describe("review's reset", () => {
  it("is refused with the reason a person reads", () => {
    expect(reviewFormat.reset).toEqual({
      supported: false,
      reason: "its author changed what was reviewed",
    });
  });
});
