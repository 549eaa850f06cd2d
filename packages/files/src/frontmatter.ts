import type { Result, RuleError } from "@debatekit/core";
import { jsonNestingDepth, MAX_JSON_DEPTH, quote } from "@debatekit/core";
import YAML from "yaml";
import { rebaseData } from "./data-diff.js";
import { parseJson, stringifyJson } from "./json-text.js";
import { orderKeysLike } from "./key-order.js";
import { checkedYamlData, stringifyYaml, updateYamlSource, YAML_PARSE_OPTIONS } from "./yaml-update.js";

/** How a file's frontmatter is written: YAML between `---` lines, or dialectic's bare JSON object at the top. */
export type FrontmatterStyle = "yaml" | "json";

/** A file split into its frontmatter data and its body (the text after the frontmatter's closing line). */
export interface FrontmatterDocument {
  data: Record<string, unknown>;
  body: string;
  style: FrontmatterStyle;
}

const DELIMITER = "---";

/**
 * The data of a YAML frontmatter's text (the lines between the delimiters, each ending in a line
 * break). A text a commit has just checked (updateYamlSource parses what it writes) is not parsed
 * again; a text of only blank and comment lines is an empty object, as in any frontmatter reader.
 */
function yamlData(text: string): unknown {
  const remembered = text.includes("\r") ? undefined : checkedYamlData(text);
  if (remembered !== undefined) return remembered;
  if (text.replace(/^\s*#.*$/gm, "").trim() === "") return {};
  return YAML.parse(text, YAML_PARSE_OPTIONS);
}

function problem(file: string, field: string, code: string, message: string): RuleError {
  return { code, path: file ? `${file}:${field}` : field, message: file ? `${file}: ${message}` : message };
}

function failWith(file: string, field: string, code: string, message: string): Result<FrontmatterDocument> {
  return { ok: false, errors: [problem(file, field, code, message)] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Detects the style: a file starting with `{` is dialectic JSON, one starting with a `---` line is YAML. */
function detectStyle(text: string): FrontmatterStyle | undefined {
  if (text.startsWith("{")) return "json";
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  if (firstLine.replace(/\r$/, "") === DELIMITER) return "yaml";
  return undefined;
}

/** Splits a markdown file into frontmatter data and body, in either style; never throws. */
export function splitFrontmatter(text: string, file = ""): Result<FrontmatterDocument> {
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const style = detectStyle(content);
  if (style === undefined) {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_MISSING",
      `expected the file to start with a \`---\` line (YAML frontmatter) or a JSON object \`{\`, got ${quote(content)}`,
    );
  }
  const split = style === "json" ? splitJson(content, file) : splitYaml(content, file);
  return split.ok ? requireObject(split.value, file) : split;
}

/** Index just past the `}` closing the JSON object that starts at 0, or -1 when it never closes. */
function endOfJsonObject(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function splitJson(text: string, file: string): Result<FrontmatterDocument> {
  const end = endOfJsonObject(text);
  if (end === -1) {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_UNCLOSED",
      `the JSON frontmatter object that starts the file is never closed (expected a matching \`}\`), got ${quote(text)}`,
    );
  }
  const lineEnd = text.indexOf("\n", end);
  const restOfLine = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  if (restOfLine.trim() !== "") {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_INVALID",
      `expected a line break after the \`}\` that closes the JSON frontmatter, got ${quote(restOfLine)}`,
    );
  }
  let data: unknown;
  try {
    data = parseJson(text.slice(0, end));
  } catch (error) {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_INVALID",
      `the JSON frontmatter is not valid JSON (${(error as Error).message}): ${quote(text.slice(0, end))}`,
    );
  }
  const body = lineEnd === -1 ? "" : text.slice(lineEnd + 1);
  return { ok: true, value: { data: data as Record<string, unknown>, body, style: "json" } };
}

function splitYaml(text: string, file: string): Result<FrontmatterDocument> {
  // The closing delimiter is a line of exactly `---` (a line that merely starts with it is refused).
  const lines = text.split("\n");
  let closing = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (line === DELIMITER) {
      closing = i;
      break;
    }
    if (line.startsWith(DELIMITER)) {
      return failWith(
        file,
        "(frontmatter)",
        "FRONTMATTER_INVALID",
        `line ${i + 1} starts with \`---\` but is not a frontmatter delimiter (a delimiter is exactly \`---\`): ${quote(line)}`,
      );
    }
  }
  if (closing === -1) {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_UNCLOSED",
      `the YAML frontmatter opened by \`---\` on line 1 is never closed (expected a second \`---\` line), got ${quote(text)}`,
    );
  }
  // A flow collection nested 100k levels deep overflows the YAML parser's stack: refuse it first.
  const depth = jsonNestingDepth(lines.slice(1, closing).join("\n"));
  if (depth > MAX_JSON_DEPTH) {
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_INVALID",
      `the YAML frontmatter nests ${depth} levels deep, expected at most ${MAX_JSON_DEPTH} (a debatekit frontmatter needs a few)`,
    );
  }
  let data: unknown;
  try {
    data = yamlData(
      lines
        .slice(1, closing)
        .map((line) => `${line}\n`)
        .join(""),
    );
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    return failWith(
      file,
      "(frontmatter)",
      "FRONTMATTER_INVALID",
      `the YAML frontmatter is not valid YAML (${message}): ${quote(lines.slice(1, closing).join("\n"))}`,
    );
  }
  // The body is everything after the closing delimiter's line.
  return {
    ok: true,
    value: {
      data: data as Record<string, unknown>,
      body: lines.slice(closing + 1).join("\n"),
      style: "yaml",
    },
  };
}

// Both JSON and YAML allow a top-level scalar or array; frontmatter must be an object of keys.
function requireObject(doc: FrontmatterDocument, file = ""): Result<FrontmatterDocument> {
  if (isPlainObject(doc.data)) return { ok: true, value: doc };
  return failWith(
    file,
    "(frontmatter)",
    "FRONTMATTER_NOT_OBJECT",
    `expected the frontmatter to be an object of keys, got ${quote(doc.data)}`,
  );
}

/** Writes frontmatter and body back in the given style; the file always ends with a newline. */
export function joinFrontmatter(doc: FrontmatterDocument): string {
  const head =
    doc.style === "json"
      ? `${stringifyJson(doc.data)}\n`
      : `${DELIMITER}\n${stringifyYaml(doc.data)}${DELIMITER}\n`;
  const text = head + doc.body;
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Where a YAML frontmatter's text sits in `content`: from after the opening line to the closing `---` line. */
function yamlBounds(content: string): { start: number; end: number } | undefined {
  const start = content.indexOf("\n") + 1;
  if (start === 0) return undefined;
  const closing = /^---\r?$/m.exec(content.slice(start));
  return closing ? { start, end: start + closing.index } : undefined;
}

/**
 * The file `text` rewritten to hold `doc`, changing only what differs. YAML: each changed value is replaced
 * where it stands and new keys go last, so comments, quoting, flow maps, key order, blank lines and every
 * untouched line stay byte for byte. JSON: written again (2-space indent), keeping the file's key order.
 * With `base` (the data `doc` was computed from), only the keys that differ between the two are applied,
 * so what someone changed in the file meanwhile stays. A `text` that does not parse, or whose style is not
 * `doc.style`, is written from scratch (joinFrontmatter).
 */
export function updateFrontmatter(
  text: string,
  doc: FrontmatterDocument,
  base?: Record<string, unknown>,
): string {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const content = text.slice(bom.length);
  if (detectStyle(content) !== doc.style) return joinFrontmatter(doc);
  if (doc.style === "json") {
    const current = splitFrontmatter(text);
    if (!current.ok) return joinFrontmatter(doc);
    const data = base ? rebaseData(current.value.data, base, doc.data) : doc.data;
    return joinFrontmatter({ ...doc, data: orderKeysLike(current.value.data, data) });
  }
  // YAML: no full parse here (updateYamlSource parses the frontmatter once, as a yaml Document).
  const bounds = yamlBounds(content);
  if (bounds === undefined) return joinFrontmatter(doc);
  const afterClosing = content.indexOf("\n", bounds.end) + 1 || content.length;
  const updated = updateYamlSource(content.slice(bounds.start, bounds.end), doc.data, base);
  const result =
    bom + content.slice(0, bounds.start) + updated + content.slice(bounds.end, afterClosing) + doc.body;
  return result.endsWith("\n") ? result : `${result}\n`;
}
