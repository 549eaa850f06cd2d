import { isDeepStrictEqual } from "node:util";
import type { Document, Node, ToStringOptions } from "yaml";
import YAML, { isCollection, isMap, isScalar, Scalar } from "yaml";
import type { DataChange, DataPath } from "./data-diff.js";
import { diffData, isPlainObject, rebaseData } from "./data-diff.js";
import { orderKeysLike } from "./key-order.js";

/** How every YAML frontmatter is parsed (YAML 1.2, duplicate keys refused, bounded aliases). */
export const YAML_PARSE_OPTIONS = { uniqueKeys: true, maxAliasCount: 100 } as const;

/** YAML text of a frontmatter object written from scratch: block style, no line folding. */
export function stringifyYaml(data: object): string {
  return YAML.stringify(data, { lineWidth: 0, minContentWidth: 0 });
}

function isScalarValue(value: unknown): value is string | number | boolean | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/**
 * The last YAML text checked by parsesTo that parsed cleanly, as a Document and as data. A commit
 * checks the frontmatter it writes, and the next commit edits that very text: it starts from this
 * parse instead of parsing the same text again. Never handed out for editing (editDocument mutates
 * its Document: it gets a fresh one), and its data only to read.
 */
let lastChecked: { text: string; doc: Document; data: unknown } | undefined;

/**
 * The data of `text` when it is the frontmatter the last commit checked (parsesTo): a copy, so the
 * caller may keep it. A commit parses the text it writes once, to check it; reading that text back
 * (the committed folder's state) then costs no second parse. Undefined for any other text.
 */
export function checkedYamlData(text: string): unknown {
  return lastChecked?.text === text ? structuredClone(lastChecked.data) : undefined;
}

/** `text` as a yaml Document and its data, or undefined when it does not parse cleanly (what YAML.parse would throw on). */
function parseChecked(text: string): { doc: Document; data: unknown } | undefined {
  if (lastChecked?.text === text) return lastChecked;
  try {
    const doc = YAML.parseDocument(text, YAML_PARSE_OPTIONS);
    if (doc.errors.length > 0) return undefined;
    // What YAML.parse returns: the same Document's data, with the same alias bound.
    return { doc, data: doc.toJS({ maxAliasCount: YAML_PARSE_OPTIONS.maxAliasCount }) ?? {} };
  } catch {
    return undefined;
  }
}

/** Whether `text` parses to exactly `data`: every rewrite is checked before it is used. */
function parsesTo(text: string, data: unknown): boolean {
  const parsed = parseChecked(text);
  if (parsed === undefined || !isDeepStrictEqual(parsed.data, data)) return false;
  lastChecked = { text, ...parsed };
  return true;
}

/** Whether the node at `path`, or a collection around it, is written in flow style (`{ ... }`, `[ ... ]`). */
function insideFlow(doc: Document, path: DataPath): boolean {
  for (let i = 0; i < path.length; i++) {
    const node = doc.getIn(path.slice(0, i), true);
    if (isCollection(node) && node.flow) return true;
  }
  return false;
}

/** Source of a scalar written where `old` was: same quoting when it can hold the value, one line, or undefined. */
function scalarSource(
  value: string | number | boolean | null,
  old: Scalar,
  inFlow: boolean,
): string | undefined {
  // What a step changes most (a counter, a total, a phase name over a plain one) needs no YAML writer:
  // a plain number, or a plain lowercase word that is no YAML keyword, is its own source. (parsesTo
  // checks every rewrite anyway.)
  if (typeof value === "number" && /^-?\d+(?:\.\d+)?$/.test(String(value))) return String(value);
  if (
    typeof value === "string" &&
    old.type === Scalar.PLAIN &&
    /^[a-z][a-z0-9_]*$/.test(value) &&
    !/^(?:true|false|null|yes|no|on|off|y|n)$/.test(value)
  )
    return value;
  const scalar = new Scalar(value);
  if (typeof value === "string" && typeof old.value === "string") scalar.type = old.type;
  let text = YAML.stringify(scalar, { lineWidth: 0, minContentWidth: 0 }).replace(/\n$/, "");
  // A plain string may hold flow indicators that are fine in block context but end a `{ ... }` map.
  if (inFlow && typeof value === "string" && /[,[\]{}]/.test(text) && !/^["']/.test(text)) {
    scalar.type = Scalar.QUOTE_DOUBLE;
    text = YAML.stringify(scalar, { lineWidth: 0 }).replace(/\n$/, "");
  }
  return text.includes("\n") ? undefined : text;
}

/** Options of the input's own layout, for when the whole document has to be written out again. */
function layoutOf(source: string): ToStringOptions {
  const indents = [...source.matchAll(/^( +)[^ #\r\n]/gm)].map((m) => m[1]!.length);
  const flows = [...source.matchAll(/[{[](.)/g)].map((m) => m[1]);
  return {
    indent: indents.length > 0 ? Math.min(...indents) : 2,
    // `key:` followed by `- item` at the same indentation is an unindented sequence.
    indentSeq: !/^( *)[^\s#][^\r\n]*:[ \t]*\r?\n\1- /m.test(source),
    flowCollectionPadding: flows.length === 0 || flows.some((c) => c === " "),
    lineWidth: 0,
    minContentWidth: 0,
  };
}

/** A new value as a node: maps of scalars in flow style when the input writes such maps that way. */
function newNode(doc: Document, value: unknown, flowLeaves: boolean): Node {
  const node = doc.createNode(value) as Node;
  if (flowLeaves) {
    YAML.visit(node, {
      Map(_key, map) {
        if (map.items.every((pair) => isScalar(pair.value))) map.flow = true;
      },
    });
  }
  return node;
}

/**
 * Edits the source text in place: each changed scalar is replaced within its own source range (its
 * comment, quoting and the spacing around it stay), and new top-level keys are appended. Undefined when
 * a change needs more (a removed key, a scalar turned into a map, a new key inside a nested map).
 */
function spliceChanges(source: string, doc: Document, changes: DataChange[]): string | undefined {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const appended: Array<[string, unknown]> = [];
  for (const change of changes) {
    if ("remove" in change) return undefined;
    const node = doc.getIn(change.path, true);
    if (isScalar(node) && node.range && isScalarValue(change.value)) {
      if (node.type === Scalar.BLOCK_FOLDED || node.type === Scalar.BLOCK_LITERAL) return undefined;
      const text = scalarSource(change.value, node, insideFlow(doc, change.path));
      if (text === undefined) return undefined;
      edits.push({ start: node.range[0], end: node.range[1], text });
    } else if (node === undefined && change.path.length === 1 && isMap(doc.contents) && !doc.contents.flow) {
      appended.push([change.path[0]!, change.value]);
    } else return undefined;
  }
  let text = source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  if (appended.length > 0) {
    const lineBreak = source.includes("\r\n") ? "\r\n" : "\n";
    const flowLeaves = /:[ \t]*\{/.test(source);
    const added = new YAML.Document();
    added.contents = added.createNode({});
    for (const [key, value] of appended)
      (added.contents as YAML.YAMLMap).set(key, newNode(added, value, flowLeaves));
    const block = added.toString({ ...layoutOf(source) }).replace(/\r?\n/g, lineBreak);
    if (text !== "" && !text.endsWith("\n")) text += lineBreak;
    text += block;
  }
  return text;
}

/** Applies the changes to the parsed document (setIn/deleteIn) and writes it out with the input's layout. */
function editDocument(source: string, doc: Document, changes: DataChange[]): string | undefined {
  try {
    const flowLeaves = /:[ \t]*\{/.test(source);
    for (const change of changes) {
      if ("remove" in change) doc.deleteIn(change.path);
      else if (isScalarValue(change.value)) doc.setIn(change.path, change.value);
      else doc.setIn(change.path, newNode(doc, change.value, flowLeaves));
    }
    const text = doc.toString(layoutOf(source));
    return source.includes("\r\n") ? text.replace(/\r?\n/g, "\r\n") : text;
  } catch {
    // setIn refuses a path through a scalar or an alias; the caller falls back to writing from scratch.
    return undefined;
  }
}

/**
 * The YAML `source` changed so that it holds `data`, touching only what differs: changed scalars are
 * replaced where they stand and new top-level keys appended, so every other byte (comments, quoting, flow
 * maps, key order, blank lines, alignment) stays as written. Other changes go through the yaml Document
 * (comments and order kept, layout normalised); a source that cannot be edited is written from scratch.
 * With `base` (the data `data` was computed from), only what differs between the two is applied, so keys
 * edited in the source since `base` was read keep their new values.
 */
export function updateYamlSource(
  source: string,
  data: Record<string, unknown>,
  base?: Record<string, unknown>,
): string {
  // JSON semantics: `undefined` keys are absent, as they would be once written.
  const wanted = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const checked = lastChecked?.text === source ? lastChecked : undefined;
  const doc = checked?.doc ?? YAML.parseDocument(source, YAML_PARSE_OPTIONS);
  const before = checked
    ? structuredClone(checked.data)
    : doc.errors.length === 0
      ? (doc.toJS({ maxAliasCount: YAML_PARSE_OPTIONS.maxAliasCount }) ?? {})
      : undefined;
  if (!isPlainObject(before)) return stringifyYaml(wanted);
  const target = base ? rebaseData(before, JSON.parse(JSON.stringify(base)), wanted) : wanted;
  const changes = diffData(before, target);
  if (changes.length === 0) return source;
  const spliced = spliceChanges(source, doc, changes);
  if (spliced !== undefined && parsesTo(spliced, target)) return spliced;
  // editDocument changes the Document it is given: never the remembered one.
  const edited = editDocument(
    source,
    checked ? YAML.parseDocument(source, YAML_PARSE_OPTIONS) : doc,
    changes,
  );
  if (edited !== undefined && parsesTo(edited, target)) return edited;
  return stringifyYaml(orderKeysLike(before, target));
}
