// Untrusted text (a model's answer, a debate folder someone hands you) is escaped where it lands:
// one function per medium, used by every face (report, gate comment, SARIF, terminal).

// The invisible characters that change the order text is shown in: the bidirectional embeddings,
// overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the direction marks (U+200E, U+200F,
// U+061C). In a model's text they can show a reader other words than the ones written (a reversed
// file name, a line that reads as a verdict), so every medium shows them as a visible `\uNNNN`.
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** `\uNNNN` for a character: the visible form of a control or direction mark. */
function codePointText(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Text with every bidirectional control and direction mark shown as a visible `\uNNNN`. */
function showBidi(text: string): string {
  return text.replace(BIDI, codePointText);
}

/** Escapes text for HTML and SVG content and attribute values; direction controls shown as `\uNNNN`. */
export function escapeHtml(text: string): string {
  return showBidi(text).replace(/[&<>"']/g, (ch) => `&#${ch.codePointAt(0)};`);
}

// A zero-width space after `@` keeps GitHub from reading a mention (`@user`, `@org/team`) or an
// e-mail autolink; written as an entity so it works in markdown and inside HTML alike.
const MENTION_BREAK = "@&#8203;";

// What can open markup anywhere in a line: escapes, code spans, emphasis, links and images
// (`[`), HTML, autolinks and entities (`<`, `&`), table cells (`|`), strikethrough (`~`), math
// (`$`), mentions (`@`), and the two bare-URL autolinks GFM knows (`scheme://`, `www.`).
// An underscore inside a word opens nothing (CommonMark's flanking rules), so `prop_000a` stays as is.
const INLINE = /[\\`*[\]<>&|~$@]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|:(?=\/\/)|(?<=\bwww)\./giu;
const ENTITY: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "@": MENTION_BREAK };

function escapeInline(text: string): string {
  return text.replace(INLINE, (ch) => ENTITY[ch] ?? `\\${ch}`);
}

// What can open a block at the start of a line once INLINE is escaped: a heading (`#`), a list
// item (`-`, `+`, `1.`, `1)`), a thematic break (`---`) or a setext underline (`===`, `---`).
// Leading spaces are dropped: four of them would make an indented code block.
function escapeLineStart(line: string): string {
  return line.replace(/^[#+=-]/, "\\$&").replace(/^(\d{1,9})([.)])/, "$1\\$2");
}

/**
 * Escapes text for a place inside one markdown line, after something of ours (a table cell, a list
 * item, a bold verdict, a heading's text): whitespace collapsed to single spaces, and no markup of
 * its own (no link, image, HTML, table cell, code span, emphasis, autolink or live @mention). The
 * rendered text reads exactly as given.
 */
export function escapeMarkdown(text: string): string {
  return escapeInline(showBidi(text).replace(/\s+/g, " ").trim());
}

/**
 * Escapes multi-line text as markdown paragraphs (a judge's reasoning, a finding's detail): its
 * lines and blank-line paragraphs kept, each line escaped like {@link escapeMarkdown} and unable to
 * start a block of its own (heading, quote or alert, list, fence, table, HTML block).
 */
export function escapeMarkdownBlock(text: string): string {
  return text
    .split(/\r\n?|\n|\u2028|\u2029/)
    .map((line) => escapeLineStart(escapeMarkdown(line)))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * A value as a markdown code span (a file name, a scope), safe in a table cell too: fenced by more
 * backticks than any run inside it, on one line. A value with a `|` is escaped as plain text
 * instead (a table splits a code span at a pipe, and the `\|` that keeps it whole would show
 * outside a table).
 */
export function markdownCode(text: string): string {
  const line = showBidi(text).replace(/\s+/g, " ").trim();
  if (line === "" || line.includes("|")) return escapeMarkdown(line);
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // A span that starts or ends with a backtick needs a space inside its fence (CommonMark strips one).
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Lines as a fenced code block (an excerpt of a file under review): fenced by more backticks than
 * any run inside, so no line can close it, and each line break inside a line (a bare CR, which
 * CommonMark reads as one) shown as `␍`. The text renders as given, never as markup.
 */
export function markdownFence(lines: readonly string[], info = ""): string {
  const body = lines.map((l) => showBidi(l).replace(/\r\n?|\n/g, "␍"));
  const longest = Math.max(0, ...body.flatMap((l) => l.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${info.replace(/[^A-Za-z0-9_+-]/g, "")}`, ...body, fence].join("\n");
}

/** @deprecated The same as {@link escapeMarkdown} (its old name). */
export const escapeCell = escapeMarkdown;

// C0 controls but tab and newline, DEL, C1 controls, and the bidirectional controls and direction
// marks that make a terminal show text in another order than it is (BIDI).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Escapes text for a terminal: every control character but newline and tab shown as a visible
 * `\xNN` / `\uNNNN` (so `ESC ] 0 ; … BEL` sets no title and `ESC [ 2 J` clears nothing); CRLF read as LF.
 */
export function escapeTerminal(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : codePointText(ch);
  });
}

/**
 * Escapes text for a SARIF plain-text message: a `[` or `]` (and the backslashes just before one)
 * are backslash-escaped, so no `[text](target)` of the model's becomes an embedded link (SARIF 2.1.0,
 * "Messages with embedded links").
 */
export function escapeSarifText(text: string): string {
  return text.replace(/\\*[[\]]/g, (m) => `${m.slice(0, -1).replace(/\\/g, "\\\\")}\\${m.at(-1)}`);
}

/**
 * A finding's file as a SARIF `artifactLocation.uri` (relative to `%SRCROOT%`), or undefined when
 * it is not a repository-relative path of a file in `changed` (the change's files): an absolute
 * path, a `..` step, a URI with a scheme or a file outside the change gets no location.
 */
export function sarifArtifactUri(file: string, changed: ReadonlySet<string>): string | undefined {
  const path = file.replace(/^(\.\/)+/, "");
  const segments = path.split("/");
  const plain =
    path !== "" &&
    !/^[a-z][a-z0-9+.-]*:|^\/|\\|[\u0000-\u001f\u007f]/i.test(path) &&
    segments.every((s) => s !== "" && s !== "." && s !== "..");
  if (!plain || !changed.has(path)) return undefined;
  return segments.map(encodeURIComponent).join("/");
}
