import type { ReviewFinding } from "@debatekit/schema";
import { describe, expect, it } from "vitest";
import { artifactFileLines, verifyFindings } from "./evidence.js";
import type { ReviewState } from "./state.js";
import { evidenceSources } from "./state.js";

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

describe("verified means verified (a git scope as `debate review` snapshots it)", () => {
  const good =
    "export function sum(xs: number[]): number {\n  let total = 0;\n  for (let i = 0; i < xs.length; i++) total += xs[i];\n  return total;\n}\n";
  const buggy = good.replace("i < xs.length;", "i < xs.length - 1;");
  const snapshot = [
    "# Changes since main",
    "",
    "```diff",
    "diff --git a/sum.ts b/sum.ts",
    "index 1111111..2222222 100644",
    "--- a/sum.ts",
    "+++ b/sum.ts",
    "@@ -1,5 +1,5 @@",
    " export function sum(xs: number[]): number {",
    "   let total = 0;",
    "-  for (let i = 0; i < xs.length; i++) total += xs[i];",
    "+  for (let i = 0; i < xs.length - 1; i++) total += xs[i];",
    "   return total;",
    " }",
    "```",
    "",
    "## Repository at 2222222",
    "",
    "### File `sum.ts` at 2222222",
    "````ts",
    buggy.replace(/\n$/, ""),
    "````",
    "",
  ].join("\n");
  const sources = { artifact: snapshot, file: (p: string) => (p === "sum.ts" ? buggy : undefined) };
  const status = (evidence: ReviewFinding["evidence"]) =>
    verifyFindings([f("P1", evidence)], sources).findings.map((x) => [x.severity, x.evidence_status])[0];

  it("the cited line and quote as they are: verified", () => {
    expect(status({ file: "sum.ts", line: 3, quote: "i < xs.length - 1" })).toEqual(["P1", "verified"]);
    expect(status({ quote: "i < xs.length - 1" })).toEqual(["P1", "verified"]);
  });

  it("a quote attributed to a file that does not exist", () => {
    expect(status({ file: "nope.ts", quote: "i < xs.length - 1" })).toEqual(["P2", "needs_evidence"]);
    expect(status({ file: "nope.ts", line: 3, quote: "i < xs.length - 1" })).toEqual([
      "P2",
      "needs_evidence",
    ]);
  });

  it("a quote that exists only in a removed line, unless the finding is about removed code", () => {
    const removed = "for (let i = 0; i < xs.length; i++)";
    expect(status({ file: "sum.ts", line: 3, quote: removed })).toEqual(["P2", "needs_evidence"]);
    expect(status({ quote: removed })).toEqual(["P2", "needs_evidence"]);
    expect(status({ file: "sum.ts", line: 3, quote: removed, side: "old" })).toEqual(["P1", "verified"]);
    // The old side holds only what the diff shows of the file before the change.
    expect(status({ file: "sum.ts", line: 3, quote: "i < xs.length - 1", side: "old" })).toEqual([
      "P2",
      "needs_evidence",
    ]);
  });

  it("a quote copied from the diff with its marks: `+` lines are the new side, `-` lines the old", () => {
    const added = "+  for (let i = 0; i < xs.length - 1; i++)";
    const removed = "-  for (let i = 0; i < xs.length; i++)";
    expect(status({ file: "sum.ts", line: 3, quote: added })).toEqual(["P1", "verified"]);
    expect(status({ file: "sum.ts", line: 3, quote: removed })).toEqual(["P2", "needs_evidence"]);
    expect(status({ file: "sum.ts", line: 3, quote: removed, side: "old" })).toEqual(["P1", "verified"]);
  });

  it("the quote must be within 2 lines of the cited line", () => {
    expect(status({ file: "sum.ts", line: 1, quote: "return total;" })).toEqual(["P2", "needs_evidence"]);
    expect(status({ file: "sum.ts", line: 2, quote: "return total;" })).toEqual(["P1", "verified"]);
    expect(status({ file: "sum.ts", line: 5, quote: "let total = 0;" })).toEqual(["P2", "needs_evidence"]);
    // A quote over several lines may start in the window and run past it.
    expect(status({ file: "sum.ts", line: 1, quote: "let total = 0;\n  for (let i = 0;" })).toEqual([
      "P1",
      "verified",
    ]);
  });

  it("a quote of the tool's own framing text", () => {
    for (const quote of ["Changes since main", "Repository at 2222222", "File `sum.ts` at", "````ts"]) {
      expect(status({ quote }), quote).toEqual(["P2", "needs_evidence"]);
      expect(status({ file: "sum.ts", line: 1, quote }), quote).toEqual(["P2", "needs_evidence"]);
    }
  });

  it("the diff's hunk ends where its counts say: the fence after it is no line of the file", () => {
    const lines = artifactFileLines(snapshot, "sum.ts")!;
    expect([...lines.keys()]).toEqual([1, 2, 3, 4, 5]);
    expect(artifactFileLines(snapshot, "sum.ts", "old")!.get(3)).toContain("i < xs.length;");
  });
});

describe("what a review's state offers as evidence", () => {
  const snapshot =
    "# Changes since main\n\n```diff\n--- a/sum.ts\n+++ b/sum.ts\n@@ -1 +1 @@\n-let t = 1;\n+let t = 0;\n```\n\n## Repository at abc\n\n### File `sum.ts` at abc\n````ts\nlet t = 0;\nexport { t };\n````\n";
  const revised = "# sum.ts, revised\n\nThe total starts at zero.\n";
  const state = (version: number) =>
    ({
      frontmatter: { artifact_version: version },
      records: [
        { file: "artifact/v1.md", frontmatter: {}, body: snapshot },
        { file: "artifact/v2.md", frontmatter: {}, body: revised },
      ],
    }) as ReviewState;
  const status = (version: number, evidence: ReviewFinding["evidence"]) =>
    verifyFindings([f("P1", evidence)], evidenceSources(state(version))).findings[0]!.evidence_status;

  it("the repository file at the revision, not the snapshot's framing", () => {
    expect(status(1, { file: "sum.ts", line: 2, quote: "export { t };" })).toBe("verified");
    expect(status(1, { file: "artifact/v1.md", line: 1, quote: "Changes since main" })).toBe(
      "needs_evidence",
    );
    expect(status(1, { quote: "Repository at abc" })).toBe("needs_evidence");
  });

  it("a version the author wrote is a file of its own", () => {
    expect(status(2, { file: "artifact/v2.md", line: 3, quote: "starts at zero" })).toBe("verified");
    expect(status(2, { file: "artifact/v2.md", line: 3, quote: "sum.ts, revised" })).toBe("verified");
    expect(status(2, { file: "artifact/v2.md", line: 9 })).toBe("needs_evidence");
  });

  it("a file given by path (`# File PATH` and a fence): its lines, not its heading", () => {
    const file = "# File src/a.ts\n\n````ts\nconst a = 1;\nconst b = 2;\n````\n";
    const check = (evidence: ReviewFinding["evidence"]) =>
      verifyFindings([f("P1", evidence)], { artifact: file }).findings[0]!.evidence_status;
    expect(check({ file: "src/a.ts", line: 2, quote: "const b = 2;" })).toBe("verified");
    expect(check({ quote: "const a = 1;" })).toBe("verified");
    expect(check({ quote: "File src/a.ts" })).toBe("needs_evidence");
  });
});
