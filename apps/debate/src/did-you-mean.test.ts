import { describe, expect, it } from "vitest";
import { didYouMean } from "./did-you-mean.js";

describe("didYouMean", () => {
  it("suggests the nearest known word for a typo", () => {
    expect(didYouMean("propositon", ["proposition", "opposition", "judge"])).toBe(
      " (did you mean `proposition`?)",
    );
    expect(didYouMean("sets", ["seats", "effort", "dir"])).toBe(" (did you mean `seats`?)");
  });
  it("suggests nothing for a word far from every known one", () => {
    expect(didYouMean("colour", ["seats", "effort", "dir"])).toBe("");
  });
});
