import type { ReviewFinding } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { artifactFileLines, verifyFindings } from "./evidence.js";

const diff = `diff --git a/src/sum.ts b/src/sum.ts
--- a/src/sum.ts
+++ b/src/sum.ts
@@ -1,3 +1,4 @@
 export function sum(xs: number[]) {
   let t = 0;
-  for (let i = 0; i < xs.length; i++) t += xs[i];
+  for (let i = 0; i < xs.length - 1; i++) t += xs[i];
+  return t;
`;
const repo: Record<string, string> = {
  "src/sum.ts":
    "export function sum(xs: number[]) {\n  let t = 0;\n  for (let i = 0; i < xs.length - 1; i++) t += xs[i];\n  return t;\n}\n",
};
const f = (severity: ReviewFinding["severity"], evidence?: ReviewFinding["evidence"]): ReviewFinding => ({
  severity,
  title: "t",
  detail: "d",
  ...(evidence ? { evidence } : {}),
});

describe("evidence verification", () => {
  it("maps a diff's new-side line numbers", () => {
    const lines = artifactFileLines(diff, "src/sum.ts")!;
    expect(lines.get(3)).toContain("xs.length - 1");
    expect(lines.has(9)).toBe(false);
  });

  it("verifies file:line and quote against the artifact alone", () => {
    const r = verifyFindings([f("P1", { file: "src/sum.ts", line: 3, quote: "i < xs.length - 1" })], {
      artifact: diff,
    });
    expect(r.verified).toBe(1);
    expect(r.findings[0]).toMatchObject({ severity: "P1", evidence_status: "verified" });
  });

  it("a line past the file, a missing quote or no evidence -> needs_evidence, and never P1", () => {
    const r = verifyFindings(
      [
        f("P1", { file: "src/sum.ts", line: 40 }),
        f("P1", { quote: "xs.reduce(" }),
        f("P1"),
        f("P3", { file: "src/nope.ts", line: 1 }),
      ],
      { artifact: diff, file: (p) => repo[p] },
    );
    expect(r.verified).toBe(0);
    expect(r.findings.map((x) => [x.severity, x.evidence_status])).toEqual([
      ["P2", "needs_evidence"],
      ["P2", "needs_evidence"],
      ["P2", "needs_evidence"],
      ["P3", "needs_evidence"],
    ]);
  });

  it("for a git scope, checks the repository at the revision (a line outside the hunk but in the file)", () => {
    const onlyArtifact = verifyFindings([f("P2", { file: "src/sum.ts", line: 5, quote: "}" })], {
      artifact: diff,
    });
    const withRepo = verifyFindings([f("P2", { file: "src/sum.ts", line: 5, quote: "}" })], {
      artifact: diff,
      file: (p) => repo[p],
    });
    expect(onlyArtifact.verified).toBe(0);
    expect(withRepo.verified).toBe(1);
  });
});
