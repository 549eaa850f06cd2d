import { describe, expect, it } from "vitest";
import { createBlinder } from "./blind.js";

describe("createBlinder (any format's side naming)", () => {
  // A format of its own, not a built-in: sides pro/con, ids `pro-1`, `con-2`.
  const toy = createBlinder<"pro" | "con">({
    sides: ["pro", "con"],
    codes: { pro: "pro", con: "con" },
    rest: "(\\d+)",
    joiner: "-",
  });
  const labels = { pro: "B", con: "A" } as const;

  it("hides the format's ids and side words behind the labels and maps a JSON answer back", () => {
    const seen = toy.blind("The pro says pro-1 beats con-2; the con disagrees.", labels);
    expect(seen).toBe("Debater B says B-1 beats A-2; Debater A disagrees.");
    expect(toy.unblindJson({ cited: ["A-2"], why: ["Debater B wins"] }, labels)).toEqual({
      cited: ["con-2"],
      why: ["the pro wins"],
    });
    expect(toy.sideOfLabel(" debater a ", labels)).toBe("con");
    expect(toy.sideOfLabel("con", labels)).toBeUndefined();
  });
});
