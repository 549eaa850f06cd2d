import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FrontmatterStyle } from "./frontmatter.js";
import { joinFrontmatter, splitFrontmatter } from "./frontmatter.js";
import { frontmatterData as data } from "./test-helpers/arbitraries.js";

// Bodies: any text, plus lines that look like delimiters or frontmatter; a file body ends with a newline.
const line = fc.oneof(
  fc.string({ unit: "grapheme" }).map((s) => s.replace(/\n/g, " ")),
  fc.constantFrom("---", "{", "}", '{"id": "prop_001"}', "title: fake", "---json", "...", "# Motion", ""),
);
const body = fc
  .array(line, { maxLength: 8 })
  .map((lines) => (lines.length === 0 ? "" : `${lines.join("\n")}\n`));
const style = fc.constantFrom<FrontmatterStyle>("yaml", "json");

describe("splitFrontmatter / joinFrontmatter", () => {
  it("round-trips arbitrary frontmatter values and bodies in both styles", () => {
    fc.assert(
      fc.property(data, body, style, (d, b, s) => {
        const text = joinFrontmatter({ data: d, body: b, style: s });
        expect(text.endsWith("\n")).toBe(true);
        const back = splitFrontmatter(text, "x.md");
        if (!back.ok) throw new Error(`${JSON.stringify(back.errors)}\n${text}`);
        expect(back.value).toEqual({ data: d, body: b, style: s });
      }),
      { numRuns: 400 },
    );
  });

  it("keeps the style and the exact bytes of a file it wrote", () => {
    fc.assert(
      fc.property(data, body, style, (d, b, s) => {
        const text = joinFrontmatter({ data: d, body: b, style: s });
        const back = splitFrontmatter(text);
        if (!back.ok) throw new Error(text);
        expect(joinFrontmatter(back.value)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "grapheme" }),
          body.map((b) => `---\n${b}`),
          body.map((b) => `{${b}`),
        ),
        (text) => {
          const result = splitFrontmatter(text, "x.md");
          if (!result.ok) expect(result.errors[0]!.path.startsWith("x.md:")).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("returns fresh objects for identical texts (no cache hands out a shared object)", () => {
    const text = "---\ntitle: one\nlist: [1, 2]\n---\nbody\n";
    const first = splitFrontmatter(text);
    const second = splitFrontmatter(text);
    if (!first.ok || !second.ok) throw new Error("unreadable");
    (first.value.data.list as number[]).push(3);
    first.value.data.title = "changed";
    expect(second.value.data).toEqual({ title: "one", list: [1, 2] });
    expect(splitFrontmatter(text)).toEqual({
      ok: true,
      value: { data: { title: "one", list: [1, 2] }, body: "body\n", style: "yaml" },
    });
  });

  it("reads a frontmatter of only comments as empty, and a block scalar, CRLF or not, to its last line break", () => {
    expect(splitFrontmatter("---\n# a note\n\n---\nbody\n")).toEqual({
      ok: true,
      value: { data: {}, body: "body\n", style: "yaml" },
    });
    for (const eol of ["\n", "\r\n"]) {
      const text = ["---", "keep: |+", "  two lines", "", "last: x", "---", "body", ""].join(eol);
      const read = splitFrontmatter(text);
      if (!read.ok) throw new Error(JSON.stringify(read.errors));
      expect(read.value.data).toEqual({ keep: "two lines\n\n", last: "x" });
      expect(read.value.body).toBe(`body${eol}`);
    }
  });

  it("keeps body lines that look like delimiters or frontmatter", () => {
    const text = '---\na: 1\n---\n---\nb: 2\n---\n{"c": 3}\n';
    expect(splitFrontmatter(text)).toEqual({
      ok: true,
      value: { data: { a: 1 }, body: '---\nb: 2\n---\n{"c": 3}\n', style: "yaml" },
    });
    const json = '{\n  "a": "}{\\"",\n  "b": [1, {"c": "]"}]\n}\n---\n{\n';
    expect(splitFrontmatter(json)).toEqual({
      ok: true,
      value: { data: { a: '}{"', b: [1, { c: "]" }] }, body: "---\n{\n", style: "json" },
    });
  });

  it("adds the final newline a body lacks", () => {
    expect(joinFrontmatter({ data: { a: 1 }, body: "no newline", style: "yaml" })).toBe(
      "---\na: 1\n---\nno newline\n",
    );
    expect(joinFrontmatter({ data: { a: "é" }, body: "", style: "json" })).toBe('{\n  "a": "\\u00e9"\n}\n');
  });

  it.each([
    ["no frontmatter", "# Motion\n", "FRONTMATTER_MISSING"],
    ["unclosed YAML", "---\na: 1\n# Motion\n", "FRONTMATTER_UNCLOSED"],
    ["unclosed JSON", '{\n  "a": 1\n# Motion\n', "FRONTMATTER_UNCLOSED"],
    ["malformed YAML", "---\na: [1, 2\n---\n", "FRONTMATTER_INVALID"],
    ["duplicate YAML key", "---\na: 1\na: 2\n---\n", "FRONTMATTER_INVALID"],
    ["malformed JSON", '{\n  "a": 1,\n}\n', "FRONTMATTER_INVALID"],
    ["text after the JSON", '{"a": 1} trailing\n', "FRONTMATTER_INVALID"],
    ["a near-delimiter", "---\na: 1\n---x\n---\n", "FRONTMATTER_INVALID"],
    ["a YAML list", "---\n- 1\n---\n", "FRONTMATTER_NOT_OBJECT"],
    ["an empty YAML document with a scalar", "---\nhello\n---\n", "FRONTMATTER_NOT_OBJECT"],
  ])("rejects %s with %s naming the file", (_name, text, code) => {
    const result = splitFrontmatter(text, "arguments/prop_001.md");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]!.code).toBe(code);
    expect(result.errors[0]!.path).toBe("arguments/prop_001.md:(frontmatter)");
    expect(result.errors[0]!.message).toMatch(/^arguments\/prop_001\.md: /);
  });
});
