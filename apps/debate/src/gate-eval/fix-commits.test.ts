import { describe, expect, it } from "vitest";
import { classifyFix, DEFAULT_FIX_PATTERNS, parseIssueLabels } from "./fix-commits.js";

const patterns = DEFAULT_FIX_PATTERNS.map((p) => new RegExp(p, "im"));
const commit = (subject: string, body = "") => ({
  sha: "a".repeat(40),
  parents: ["b".repeat(40)],
  subject,
  body,
});
const fix = (subject: string, body = "") => classifyFix(commit(subject, body), { patterns }).fix;

describe("classifyFix", () => {
  it("decides by the subject: fix types and fix words count; other types, dependency scopes and unnamed reverts do not", () => {
    expect(fix("fix: x")).toBe(true);
    expect(fix("fix(parser)!: x")).toBe(true);
    expect(fix("Fixing TypeScript usage. Fixes #60")).toBe(true);
    expect(fix('Revert "fix: x"')).toBe(true);
    expect(fix('Revert "feat: x"')).toBe(false);
    expect(fix("fix: revert engines bump")).toBe(false);
    expect(fix("fix(deps): update x")).toBe(false);
    for (const type of ["feat", "docs", "chore", "test", "build", "ci", "perf", "refactor"])
      expect(fix(`${type}: fix the bug`, "* fix: a bug")).toBe(false);
    expect(fix("Update readme", "Closes #3")).toBe(false);
  });
});

describe("parseIssueLabels", () => {
  it("reads GitHub's label objects or names; bad lines name the file, line and field", () => {
    const issues = parseIssueLabels(
      '{"number": 3, "labels": [{"name": "bug"}]}\n\n{"number": 4, "labels": ["x"]}\n',
      "i.jsonl",
    );
    expect([...issues]).toEqual([
      [3, ["bug"]],
      [4, ["x"]],
    ]);
    expect(() => parseIssueLabels("{", "i.jsonl")).toThrow("i.jsonl:1: not JSON");
    expect(() => parseIssueLabels('{"number": 0, "labels": []}', "i.jsonl")).toThrow(
      "i.jsonl:1: field `number` must be a positive integer",
    );
    expect(() => parseIssueLabels('{"number": 1, "labels": [2]}', "i.jsonl")).toThrow(
      "i.jsonl:1: field `labels`",
    );
  });
});
