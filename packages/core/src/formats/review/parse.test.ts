import { describe, expect, it } from "vitest";
import { parseCritique } from "./parse.js";

const json = JSON.stringify({
  findings: [
    {
      severity: "P1",
      title: "Off-by-one drops the last item",
      detail: "The loop stops at length - 1.",
      evidence: { file: "src/sum.ts", line: 3 },
    },
    { severity: "P3", title: "Name the helper", detail: "sumAll reads better." },
  ],
  recommendation: "B",
  agree: false,
});

const markdown = `Here is my review.

## P1 - Must Fix
- **Off-by-one drops the last item**: The loop stops at length - 1. [src/sum.ts:3]

## P2 - Should Fix
- None

## P3 - Nice to Have
- **Name the helper**: sumAll reads better.

## Missing Alternatives
- Use reduce.

## Recommended Decision
B - accept the fix.
`;

const native = `Review comment:

- [P1] Off-by-one drops the last item — src/sum.ts:3-3
  The loop stops at length - 1.

- [P3] Name the helper — src/sum.ts:1-1
  sumAll reads better.
`;

describe("parseCritique: three forms, the same findings", () => {
  it("reads all three forms to the same severities, titles and locations", () => {
    const forms = [json, markdown, native].map((text) => parseCritique(text));
    const shapes = forms.map((r) => {
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.value.critique.findings.map((f) => [f.severity, f.title, f.evidence?.file, f.evidence?.line]);
    });
    expect(shapes[0]).toEqual([
      ["P1", "Off-by-one drops the last item", "src/sum.ts", 3],
      ["P3", "Name the helper", undefined, undefined],
    ]);
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]!.map((s) => s.slice(0, 2))).toEqual(shapes[0]!.map((s) => s.slice(0, 2)));
    expect(shapes[2]![0]).toEqual(["P1", "Off-by-one drops the last item", "src/sum.ts", 3]);
    expect(forms.map((r) => r.ok && r.value.form)).toEqual(["json", "markdown", "bullets"]);
  });

  it("keeps the detail of native bullets (indented lines) and of markdown continuation lines", () => {
    const r = parseCritique(native);
    expect(r.ok && r.value.critique.findings[0]!.detail).toBe("The loop stops at length - 1.");
    const cont = parseCritique("## P2 - Should Improve\n- Risky rollout\n  no canary is planned\n");
    expect(cont.ok && cont.value.critique.findings[0]).toMatchObject({
      severity: "P2",
      detail: "no canary is planned",
    });
  });

  it("reads the proposal wording and the recommendation", () => {
    const r = parseCritique(
      "## P1 - Must Reconsider\n- Assumes one region\n## P3 - Nice to Strengthen\n- Add a diagram\n## Recommended Decision\nContinue with a rebuttal\n",
    );
    expect(r.ok && r.value.critique.findings.map((f) => f.severity)).toEqual(["P1", "P3"]);
    expect(r.ok && r.value.critique.recommendation).toBe("D");
    expect(r.ok && r.value.critique.missing_alternatives).toEqual([]);
  });

  it("never reads an unreadable answer as no concerns", () => {
    const r = parseCritique("Looks good to me overall, a few nits.");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors[0]!.code).toBe("REVIEW_CRITIQUE_UNREADABLE");
  });

  it("agreement in markdown comes only from an explicit `Agree: yes` line", () => {
    const base = "## P3 - Nice to Have\n- Add a test\n";
    const no = parseCritique(`${base}LGTM, no concerns.`);
    const yes = parseCritique(`${base}\nAgree: yes\n`);
    expect(no.ok && no.value.critique.agree).toBe(false);
    expect(yes.ok && yes.value.critique.agree).toBe(true);
  });

  it("names the field of a JSON critique that breaks the schema", () => {
    const r = parseCritique(
      JSON.stringify({ findings: [{ severity: "P0", title: "x", detail: "" }], agree: false }),
    );
    expect(!r.ok && r.errors[0]).toMatchObject({ code: "ANSWER_SCHEMA", path: "findings[0].severity" });
  });
});
