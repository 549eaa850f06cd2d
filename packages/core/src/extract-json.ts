import { fail, ok, quote, ruleError } from "./errors.js";
import { MAX_JSON_CANDIDATES, MAX_JSON_DEPTH, MAX_MODEL_OUTPUT_CHARS } from "./limits.js";
import type { Result } from "./types.js";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * How deeply the objects and arrays of JSON `text` nest (brackets outside strings), counted without
 * recursion; 0 when they do not close. Check it before JSON.parse: a value nested 100k levels deep
 * parses, then overflows the stack of whatever walks it next (validation, quoting, stringify).
 */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) deepest = Math.max(deepest, ++depth);
    else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  // Unbalanced text is not JSON: JSON.parse refuses it without recursing (its parser keeps its own stack).
  return depth === 0 ? deepest : 0;
}

/** Why a candidate is not the answer's object; `tooDeep` when it nests past MAX_JSON_DEPTH. */
interface Candidate {
  value?: JsonObject;
  error?: string;
  tooDeep?: boolean;
}

function tryParseObject(text: string): Candidate {
  // A parsed value nested 100k levels deep overflows the stack of whatever walks it next (schema
  // validation, quoting, JSON.stringify): refuse it before parsing.
  const depth = jsonNestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    return { tooDeep: true, error: `it nests ${depth} levels deep, more than ${MAX_JSON_DEPTH}` };
  }
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value } : { error: `it is JSON but not an object (${describeJson(value)})` };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  return value === null ? "null" : `a ${typeof value}`;
}

/**
 * The contents of every ``` or ~~~ fenced block, in order (scanned line by line: no regex
 * backtracking), and the text outside them (each fenced line blanked, so the rest keeps its place).
 */
function fencedBlocks(text: string): { blocks: string[]; outside: string } {
  const blocks: string[] = [];
  const lines = text.split("\n");
  const outside: string[] = [];
  let fence: string | undefined;
  let current: string[] = [];
  let opened = 0;
  lines.forEach((line, i) => {
    const trimmed = line.trimStart();
    outside.push(line);
    if (fence === undefined) {
      const marker = trimmed.startsWith("```") ? "```" : trimmed.startsWith("~~~") ? "~~~" : undefined;
      if (marker) {
        fence = marker;
        current = [];
        opened = i;
        // A one-line fence (```{"a":1}```) still counts.
        const rest = trimmed.slice(3);
        const close = rest.indexOf(marker);
        if (close >= 0) {
          blocks.push(rest.slice(0, close).replace(/^[a-zA-Z0-9_-]*\s/, ""));
          outside[i] = "";
          fence = undefined;
        }
      }
    } else if (trimmed.startsWith(fence)) {
      blocks.push(current.join("\n"));
      for (let k = opened; k <= i; k++) outside[k] = "";
      fence = undefined;
    } else {
      current.push(line);
    }
  });
  return { blocks, outside: outside.join("\n") };
}

/** End index (exclusive) of the balanced object starting at `start`, respecting strings; -1 if unclosed. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function looksBinary(text: string): boolean {
  if (text.includes("\u0000")) return true;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if ((ch < 32 && ch !== 9 && ch !== 10 && ch !== 13) || ch === 0xfffd) control++;
  }
  return control > 8 && control / text.length > 0.02;
}

/** The objects in the balanced `{...}` of `text` that parse (at most MAX_JSON_CANDIDATES starts tried). */
function objectsInProse(text: string, note: (parsed: Candidate) => void): JsonObject[] {
  const found: JsonObject[] = [];
  let tries = 0;
  for (let start = text.indexOf("{"); start >= 0 && tries < MAX_JSON_CANDIDATES; tries++) {
    const end = balancedEnd(text, start);
    let next = start + 1;
    if (end > 0) {
      const parsed = tryParseObject(text.slice(start, end));
      if (parsed.value) found.push(parsed.value);
      note(parsed);
      // The objects inside a found (or too deep) object are part of it, not other answers.
      if (parsed.value || parsed.tooDeep) next = end;
    }
    start = text.indexOf("{", next);
  }
  return found;
}

/** The distinct objects among `found` (the same object given twice, e.g. in a fence and bare, is one). */
function distinct(found: JsonObject[]): JsonObject[] {
  const seen = new Map<string, JsonObject>();
  for (const value of found) seen.set(JSON.stringify(value), value);
  return [...seen.values()];
}

function ambiguous(objects: JsonObject[], where: string): Result<JsonObject> {
  const shown = objects
    .slice(0, 3)
    .map((o) => quote(o, 80))
    .join(", ");
  return fail(
    ruleError(
      "MODEL_OUTPUT_AMBIGUOUS",
      "",
      `expected one JSON object, found ${objects.length} different ones ${where} (${shown}); answer with exactly one object (repeating the same object is fine)`,
    ),
  );
}

/**
 * Finds the JSON object in a model's answer: the whole text, else the objects in fenced blocks and in
 * the balanced `{...}` of the prose around them. Two different objects are ambiguous (an error, never
 * a guess); the same object twice is one, and an empty `{}` next to another object does not count.
 * Refuses huge, binary or too deeply nested text.
 */
export function extractJson(text: string): Result<JsonObject> {
  if (typeof text !== "string") {
    return fail(ruleError("MODEL_OUTPUT_NOT_TEXT", "", `expected the answer as text, found ${typeof text}`));
  }
  if (text.length > MAX_MODEL_OUTPUT_CHARS) {
    return fail(
      ruleError(
        "MODEL_OUTPUT_TOO_LARGE",
        "",
        `expected at most ${MAX_MODEL_OUTPUT_CHARS} characters of answer, found ${text.length}; it starts with ${quote(text)}`,
      ),
    );
  }
  if (looksBinary(text)) {
    return fail(
      ruleError(
        "MODEL_OUTPUT_BINARY",
        "",
        `expected text containing a JSON object, found binary data (NUL or control characters); it starts with ${quote(text)}`,
      ),
    );
  }
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed === "") {
    return fail(ruleError("MODEL_OUTPUT_EMPTY", "", "expected a JSON object, found an empty answer"));
  }
  const whole = tryParseObject(trimmed);
  if (whole.value) return ok(whole.value);
  let firstError: string | undefined;
  let tooDeep = whole.tooDeep ? whole.error : undefined;
  const note = (parsed: Candidate) => {
    if (!parsed.value) firstError ??= parsed.error;
    if (parsed.tooDeep) tooDeep ??= parsed.error;
  };
  const fences = fencedBlocks(trimmed);
  const fenced: JsonObject[] = [];
  for (const block of fences.blocks) {
    const parsed = tryParseObject(block.trim());
    if (parsed.value) fenced.push(parsed.value);
    note(parsed);
  }
  // With fenced objects, the prose around the fences still counts: a draft object in the prose and
  // another in a fence is as ambiguous as two fences.
  const inProse = objectsInProse(fenced.length > 0 ? fences.outside : trimmed, note);
  // `{}` in prose ("returns {} when empty") is never an answer: it only counts when nothing else does.
  const all = distinct([...fenced, ...inProse]);
  const nonEmpty = all.filter((o) => Object.keys(o).length > 0);
  const objects = nonEmpty.length > 0 ? nonEmpty : all;
  if (objects.length === 1) return ok(objects[0]!);
  if (objects.length > 1) {
    return ambiguous(
      objects,
      fenced.length === 0
        ? "in the prose"
        : inProse.length === 0
          ? "in fenced blocks"
          : "in and around fenced blocks",
    );
  }
  if (tooDeep) {
    return fail(
      ruleError(
        "MODEL_OUTPUT_TOO_DEEP",
        "",
        `expected a JSON object nested at most ${MAX_JSON_DEPTH} levels deep (an answer needs about 5), found one that ${tooDeep.replace(/^it /, "").replace(/, more than .*/, "")}; the answer starts with ${quote(trimmed, 80)}`,
      ),
    );
  }
  return fail(
    ruleError(
      "MODEL_OUTPUT_NO_JSON",
      "",
      `expected a JSON object (bare, in a \`\`\`json fence, or inside prose), found none${
        firstError ? ` that parses (${firstError})` : ""
      }; the answer starts with ${quote(trimmed)}`,
    ),
  );
}
