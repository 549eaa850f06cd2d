// Model text goes into a markdown body that is parsed again later (by files, by people, by the
// report). A line of model text must never be able to start a section, close the frontmatter, or
// open a block that swallows the following sections. So, line by line:
//   - a line that could start an ATX heading (`#`), a setext underline or thematic break (`---`,
//     `===`, `***`, `___`), a code fence (``` or ~~~), an HTML block (`<`) is prefixed with a backslash, which markdown shows as the
//     literal character;
//   - CRLF becomes LF, control characters other than tab are dropped;
//   - single-line fields (title, claim in frontmatter, ground source, ids) have their whitespace
//     runs collapsed to one space.
const BLOCK_STARTERS = /^( {0,3})(#|```|~~~|<|[-=_*](?:\s*[-=_*])*\s*$)/;

function dropControl(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

/** Makes multi-line model text safe to embed as markdown paragraphs (see the comment above). */
export function escapeBlock(text: string): string {
  return dropControl(text)
    .trim()
    .split("\n")
    .map((line) =>
      line.replace(BLOCK_STARTERS, (_m, indent: string, starter: string) => `${indent}\\${starter}`),
    )
    .join("\n");
}

/** Collapses model text to one line (titles, claims in frontmatter, ground sources). */
export function singleLine(text: string): string {
  return dropControl(text).replace(/\s+/g, " ").trim();
}
