import { describe, expect, it } from "vitest";
import { parseEvalSet, serializeEvalSet } from "./set-file.js";

const bad = {
  id: "bad-1234567",
  repo: "repo",
  base: "abcdef0",
  head: "1234567",
  label: "bad" as const,
  fix: "7654321",
  defects: [{ file: "a.ts", line: 3 }],
  reasons: ["fixed by 7654321"],
};
const good = {
  id: "good-abcdef1",
  repo: "/r",
  base: "abcdef0",
  head: "abcdef1",
  label: "good" as const,
  reasons: ["r"],
};

describe("labelled set (JSON Lines)", () => {
  it("round-trips: parse(serialize(x)) == x, one case a line, ending with a newline", () => {
    const text = serializeEvalSet([bad, good]);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.split("\n")).toHaveLength(3);
    expect(parseEvalSet(text, "set.jsonl")).toEqual([bad, good]);
  });

  it("a bad line names the file, the line and the field", () => {
    const text = `${JSON.stringify(bad)}\n\n${JSON.stringify({ ...good, label: "fine" })}\n`;
    expect(() => parseEvalSet(text, "set.jsonl")).toThrow(
      /^set\.jsonl:3: field `label` must be one of "bad", "good"/,
    );
    expect(() => parseEvalSet("{oops\n", "set.jsonl")).toThrow(/^set\.jsonl:1: not JSON \(\{oops\)/);
    expect(() => parseEvalSet(serializeEvalSet([bad, bad]), "s")).toThrow(
      /^s:2: field `id`: "bad-1234567" is used twice/,
    );
  });
});
