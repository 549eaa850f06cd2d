import { describe, expect, it } from "vitest";
import { annotateCodeReferences, findCodeReferences } from "./code-refs.js";
import { rewriteSenses } from "./senses.js";

describe("code references", () => {
  it("finds source file paths, pull request numbers and commit hashes", () => {
    expect(
      findCodeReferences(
        "Commit 9f3c2ab broke src/store/memo.ts and charge.go; PR #4821 and #212 fix it in db/0042_add.sql",
      ),
    ).toEqual(["9f3c2ab", "src/store/memo.ts", "charge.go", "PR #4821", "#212", "db/0042_add.sql"]);
  });

  it("leaves products, priorities, words and numbers alone", () => {
    expect(
      findCodeReferences("Node.js and Vue.js beat Next.js; our #1 priority; deadbeef; 1234567; 4f2a1"),
    ).toEqual([]);
  });

  it("adds the words `code reference` after each, and leaves a text without any unchanged", () => {
    expect(annotateCodeReferences("Revert PR #4821 now")).toBe("Revert PR #4821 (code reference) now");
    const plain = "Every pull request should need a review.";
    expect(annotateCodeReferences(plain)).toBe(plain);
  });
});

describe("phrases of another sense", () => {
  it("reads an A/B test as an experiment and a penetration test as a pentest, keeping the suffix", () => {
    expect(rewriteSenses("The A/B test and A/B tests and a/b testing")).toBe(
      "The A/B experiment and A/B experiments and A/B experimenting",
    );
    expect(rewriteSenses("a penetration test, pen tests")).toBe("a pentest, pentests");
    expect(rewriteSenses("unit tests stay tests")).toBe("unit tests stay tests");
  });
});
