import { describe, expect, it } from "vitest";
import {
  CONTEXT_LINES,
  placeNotes,
  renderArtifactHtml,
  renderArtifactMarkdown,
  WHOLE_FILE_LINES,
} from "./artifact.js";
import type { ArtifactNote, ReportArtifact } from "./model.js";

const file = (path: string, n: number, changedAt?: number) => ({
  path,
  lines: Array.from({ length: n }, (_, i) => ({
    line: i + 1,
    oldLine: i + 1,
    text: `line ${i + 1}`,
    ...(i + 1 === changedAt ? { mark: "+" as const } : {}),
  })),
});

const note = (id: string, at?: ArtifactNote["at"], text = `the text of ${id}`): ArtifactNote => ({
  id,
  title: `title of ${id}`,
  meta: "P1",
  ...(at ? { at } : {}),
  pieces: [{ label: "Description", text }],
  entries: [id],
});

const artifact = (files: ReportArtifact["files"], notes: ArtifactNote[]): ReportArtifact => ({
  title: "The change",
  description: "As reviewed.",
  files,
  notes,
  apartTitle: "Apart",
});

describe("placeNotes", () => {
  it("shows a small file whole and a long one as hunks around its notes and changed lines", () => {
    const small = placeNotes(
      artifact([file("a.ts", WHOLE_FILE_LINES)], [note("n1", { path: "a.ts", line: 2 })]),
    );
    expect(small.files[0]!.shown.every((s) => "row" in s)).toBe(true);
    const long = placeNotes(
      artifact(
        [file("b.ts", 200, 150)],
        [note("n1", { path: "b.ts", line: 50 }), note("n2", { path: "b.ts", line: 9 })],
      ),
    );
    const shown = long.files[0]!.shown.flatMap((s) => ("row" in s ? [s.row.line] : []));
    const around = (n: number) =>
      Array.from({ length: 2 * CONTEXT_LINES + 1 }, (_, i) => n - CONTEXT_LINES + i);
    expect(shown).toEqual([...around(9), ...around(50), ...around(150)]);
    expect(long.files[0]!.shown.filter((s) => "gap" in s)).toHaveLength(4);
  });

  it("lists apart a note that cites no line or a line the file does not have, or another file", () => {
    const placed = placeNotes(
      artifact(
        [file("a.ts", 5)],
        [
          note("none"),
          note("far", { path: "a.ts", line: 40 }),
          note("other", { path: "b.ts", line: 1 }),
          note("old", { path: "a.ts", line: 3, side: "old" }),
        ],
      ),
    );
    expect(placed.apart.map((n) => n.id)).toEqual(["none", "far", "other"]);
    expect([...placed.rowOf.keys()].map((n) => n.id)).toEqual(["old"]);
  });
});

describe("the artifact in HTML and markdown", () => {
  const hostile = "```\n</pre><script>alert(1)</script>\n```\n# forged";
  const doc = artifact(
    [{ path: "a`.ts", lines: [{ line: 1, text: "const s = '````</td></tr><script>x()</script>';" }] }],
    [note("r01-f1", { path: "a`.ts", line: 1 }, hostile), note("r01-f2", undefined, hostile)],
  );

  it("escapes every text in HTML and anchors the note under its line's row", () => {
    const html = renderArtifactHtml(doc);
    expect(html).not.toMatch(/<script|<\/pre>|<\/td><\/tr><script/);
    expect(html).toContain('<td class="num"><a href="#note-r01-f1">1</a></td>');
    expect(html).toMatch(
      /data-line="1">.*\n<tr class="note-row"><td colspan="2"><article class="finding" id="note-r01-f1"/,
    );
    expect(html).toContain('<h3 id="artifact-apart">Apart</h3>');
  });

  it("fences the excerpt past the file's backticks and escapes the model's text in markdown", () => {
    const md = renderArtifactMarkdown(doc).join("\n");
    expect(md).toContain("`````text\n  1 > const s = '````</td></tr><script>x()</script>';\n`````");
    expect(md).not.toMatch(/^```$/m);
    expect(md).not.toMatch(/^# forged/m);
    expect(md).toContain("&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
