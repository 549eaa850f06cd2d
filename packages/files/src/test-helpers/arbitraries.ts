import fc from "fast-check";

// Frontmatter values: anything JSON can hold (YAML can hold it too). Keys are arbitrary strings except
// `__proto__`, which JSON.parse and YAML turn into an own property but an object literal would not.
const key = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }).filter((k) => k !== "__proto__"),
  fc.constantFrom("---", "---x", "...", "a: b", "#c", "", "{", "id"),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.string({ unit: "grapheme" }),
    fc.constantFrom(
      "---",
      "...",
      "yes",
      "no",
      "~",
      "null",
      "1e3",
      "0x10",
      "2026-11-21",
      "{a: 1}",
      "# not a comment",
      "- item",
      "a: b",
      "\n---\n",
      "---\n{",
      "",
    ),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
})).value;
/** Arbitrary frontmatter objects (what JSON can hold, with keys that trip YAML and the delimiters). */
export const frontmatterData = fc.dictionary(key, value, { maxKeys: 6 });
