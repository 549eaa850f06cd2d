import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FrontmatterDocument } from "./frontmatter.js";
import { splitFrontmatter, updateFrontmatter } from "./frontmatter.js";
import { frontmatterData } from "./test-helpers/arbitraries.js";

const HAND_WRITTEN = `---
# written by hand
debate_id: 'sample'
current_phase: "awaiting_arguments"   # the marker
exchanges: 3


current_exchange: 0 # opening
seats:
  proposition: { adapter: manual }
  opposition:  {adapter: manual}     # aligned
  judge:       { adapter: manual, model: "a, b" }
tags:
- one
- 'two'
cumulative_scores:
  proposition: { total: 0, count: 0 }
  opposition:
    total: 0
    count: 0
# the end
---

# Motion

Body text.
`;

function parsed(text: string): FrontmatterDocument {
  const split = splitFrontmatter(text);
  if (!split.ok) throw new Error(JSON.stringify(split.errors));
  return split.value;
}

/** `text` with its frontmatter data changed by `edit`. */
// biome-ignore lint/suspicious/noExplicitAny: the edits reach into nested data of a known file.
function updated(text: string, edit: (data: Record<string, any>) => void): string {
  const doc = parsed(text);
  const data = structuredClone(doc.data);
  edit(data);
  return updateFrontmatter(text, { ...doc, data });
}

/** Line numbers where two texts differ (same number of lines expected). */
function changedLines(before: string, after: string): number[] {
  const a = before.split("\n");
  const b = after.split("\n");
  expect(b.length).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [i + 1]));
}

describe("updateFrontmatter on YAML", () => {
  it("returns the text unchanged when nothing changed", () => {
    expect(updated(HAND_WRITTEN, () => {})).toBe(HAND_WRITTEN);
    const crlf = `\uFEFF${HAND_WRITTEN.replace(/\n/g, "\r\n")}`;
    expect(updated(crlf, () => {})).toBe(crlf);
  });

  it("replaces changed values where they stand, keeping quoting, comments and spacing", () => {
    const text = updated(HAND_WRITTEN, (d) => {
      d.current_phase = "awaiting_judgment";
      d.current_exchange = 2;
      d.cumulative_scores.proposition.total = 0.35;
      d.cumulative_scores.opposition.count = 4;
    });
    expect(changedLines(HAND_WRITTEN, text)).toEqual([4, 8, 17, 20]);
    const lines = text.split("\n");
    expect(lines[3]).toBe('current_phase: "awaiting_judgment"   # the marker');
    expect(lines[7]).toBe("current_exchange: 2 # opening");
    expect(lines[16]).toBe("  proposition: { total: 0.35, count: 0 }");
    expect(lines[19]).toBe("    count: 4");
  });

  it("quotes a new string value that a flow map could not hold plain", () => {
    const text = updated(HAND_WRITTEN, (d) => {
      d.seats.proposition.model = "x";
      d.seats.opposition.adapter = "gemini, then claude";
      d.seats.judge.model = "c}";
    });
    expect(parsed(text).data.seats).toEqual({
      proposition: { adapter: "manual", model: "x" },
      opposition: { adapter: "gemini, then claude" },
      judge: { adapter: "manual", model: "c}" },
    });
  });

  it("keeps every line of a CRLF file with a BOM and appends new keys with CRLF", () => {
    const crlf = `\uFEFF${HAND_WRITTEN.replace(/\n/g, "\r\n")}`;
    const text = updated(crlf, (d) => {
      d.current_exchange = 1;
      d.paused = true;
    });
    expect(text.startsWith("\uFEFF---\r\n")).toBe(true);
    expect(text).not.toMatch(/[^\r]\n/);
    expect(text).toContain("current_exchange: 1 # opening\r\n");
    expect(text).toContain("# the end\r\npaused: true\r\n---\r\n");
    expect(parsed(text).data).toMatchObject({ current_exchange: 1, paused: true });
    // The last value of a CRLF frontmatter carries no "\r" (gray-matter leaves one before the closing line).
    expect(parsed("---\r\na: true\r\nb: x\r\n---\r\nbody\r\n").data).toEqual({ a: true, b: "x" });
  });

  it("appends a new top-level key after the last line, in the flow style the file uses for small maps", () => {
    const without = HAND_WRITTEN.replace(/cumulative_scores:\n(?: .*\n)+/, "");
    const text = updated(without, (d) => {
      d.cumulative_scores = { proposition: { total: 0.5, count: 3 }, opposition: { total: -0.5, count: 3 } };
    });
    expect(text).toBe(
      without.replace(
        "# the end\n",
        "# the end\ncumulative_scores:\n  proposition: { total: 0.5, count: 3 }\n  opposition: { total: -0.5, count: 3 }\n",
      ),
    );
  });

  it("removes a key through the yaml Document: data right, comments and key order kept", () => {
    const text = updated(HAND_WRITTEN, (d) => {
      delete d.tags;
      d.current_exchange = 1;
    });
    const doc = parsed(text);
    expect(doc.data.tags).toBeUndefined();
    expect(Object.keys(doc.data)).toEqual(Object.keys(parsed(HAND_WRITTEN).data).filter((k) => k !== "tags"));
    expect(text).toContain("# written by hand\n");
    expect(text).toContain("current_exchange: 1 # opening\n");
    expect(text).toContain("  proposition: { adapter: manual }\n");
    expect(doc.body).toBe(parsed(HAND_WRITTEN).body);
  });

  it("turns a scalar into a map, and a map into a list, with the data right", () => {
    const text = updated(HAND_WRITTEN, (d) => {
      d.exchanges = { planned: 3 };
      d.seats = ["a"];
    });
    expect(parsed(text).data).toMatchObject({ exchanges: { planned: 3 }, seats: ["a"] });
  });

  it("writes a changed body and keeps the frontmatter bytes", () => {
    const doc = parsed(HAND_WRITTEN);
    const text = updateFrontmatter(HAND_WRITTEN, { ...doc, body: "\n# Motion\n\nAnother motion.\n" });
    expect(text).toBe(
      `${HAND_WRITTEN.slice(0, HAND_WRITTEN.indexOf("\n---\n") + 5)}\n# Motion\n\nAnother motion.\n`,
    );
  });

  it("writes a file of another style from scratch", () => {
    const doc = parsed(HAND_WRITTEN);
    const text = updateFrontmatter(HAND_WRITTEN, { ...doc, style: "json" });
    expect(text.startsWith('{\n  "debate_id": "sample",\n')).toBe(true);
    expect(parsed(text).data).toEqual(doc.data);
  });

  it("holds exactly the asked data for arbitrary data (property)", () => {
    fc.assert(
      fc.property(frontmatterData, (data) => {
        const doc = parsed(HAND_WRITTEN);
        const result = parsed(updateFrontmatter(HAND_WRITTEN, { ...doc, data }));
        expect(result.data).toEqual(JSON.parse(JSON.stringify(data)));
        expect(result.body).toBe(doc.body);
      }),
      { numRuns: 200 },
    );
  });

  it("changes only the lines of the values that changed, for any state values (property)", () => {
    const state = fc.record({
      current_exchange: fc.nat(1000),
      current_phase: fc.constantFrom("awaiting_arguments", "awaiting_judgment"),
      total: fc.double({ min: -10, max: 10, noNaN: true }).filter((n) => !Object.is(n, -0)),
      count: fc.nat(200),
    });
    fc.assert(
      fc.property(state, (s) => {
        const text = updated(HAND_WRITTEN, (d) => {
          d.current_exchange = s.current_exchange;
          d.current_phase = s.current_phase;
          d.cumulative_scores.opposition.total = s.total;
          d.cumulative_scores.proposition.count = s.count;
        });
        for (const line of changedLines(HAND_WRITTEN, text)) expect([4, 8, 17, 19]).toContain(line);
        expect(parsed(text).data).toMatchObject({
          current_exchange: s.current_exchange,
          current_phase: s.current_phase,
          cumulative_scores: { opposition: { total: s.total }, proposition: { count: s.count } },
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe("updateFrontmatter on JSON", () => {
  it("writes 2-space JSON in the file's key order, new keys last", () => {
    const text = '{\n  "b": 1,\n  "a": {"y": 1, "x": 2}\n}\n# Motion\n';
    const doc = parsed(text);
    const result = updateFrontmatter(text, { ...doc, data: { a: { x: 3, y: 1 }, c: true, b: 1 } });
    expect(result).toBe('{\n  "b": 1,\n  "a": {\n    "y": 1,\n    "x": 3\n  },\n  "c": true\n}\n# Motion\n');
  });
});
