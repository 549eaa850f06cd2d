/** Escapes text for HTML and SVG content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.codePointAt(0)};`);
}

/** Escapes text for a markdown table cell or a line: one line, pipes escaped. */
export function escapeCell(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
}
