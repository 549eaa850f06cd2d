import matter from "gray-matter";

/** An entry file's text split into frontmatter and body. */
export type ParsedEntry =
  | { ok: true; frontmatter: Record<string, unknown>; body: string }
  | { ok: false; reason: "not_text" | "frontmatter"; message: string; cause?: unknown };

function refuseCode(): never {
  throw new Error("executable frontmatter (---js) is not allowed; use YAML");
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes an entry file (UTF-8, no NUL bytes) and strips its YAML frontmatter. gray-matter would
 * `eval` a `---js` block, so that engine is replaced by one that refuses.
 */
export function parseEntry(bytes: Uint8Array): ParsedEntry {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (cause) {
    return { ok: false, reason: "not_text", message: "is not valid UTF-8 text", cause };
  }
  if (text.includes("\u0000"))
    return { ok: false, reason: "not_text", message: "contains NUL bytes (binary?)" };
  text = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  try {
    const parsed = matter(text, { engines: { js: refuseCode, javascript: refuseCode } });
    const data = parsed.data as unknown;
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return { ok: false, reason: "frontmatter", message: "frontmatter must be a YAML mapping (key: value)" };
    }
    return { ok: true, frontmatter: data as Record<string, unknown>, body: parsed.content.trim() };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    return { ok: false, reason: "frontmatter", message: `frontmatter is not valid YAML: ${detail}`, cause };
  }
}
