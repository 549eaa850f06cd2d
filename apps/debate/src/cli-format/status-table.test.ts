import { describe, expect, it } from "vitest";
import { judgesCell } from "./status-table.js";

describe("the JUDGES cell", () => {
  it("shows alpha for scoring panels and the share of agreeing pairs for voting panels", () => {
    expect(judgesCell(undefined)).toBe("-");
    expect(
      judgesCell({
        judges: 3,
        judged_steps: 2,
        degraded_steps: 1,
        figures: { agreement: 0.459, agreement_metric: "krippendorff_alpha_interval", flip_rate: 0.333 },
      }),
    ).toBe("3 · α 0.46 · flip 0.33 · 1 degraded");
    expect(
      judgesCell({
        judges: 3,
        judged_steps: 1,
        degraded_steps: 0,
        figures: { agreement: 0.333, agreement_metric: "percent_agreement", flip_rate: 0.333 },
      }),
    ).toBe("3 · agree 0.33 · flip 0.33");
  });
});
