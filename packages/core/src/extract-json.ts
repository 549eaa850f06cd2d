import { fail, ok, quote, ruleError } from "./errors.js";
import { MAX_JSON_CANDIDATES, MAX_MODEL_OUTPUT_CHARS } from "./limits.js";
import type { Result } from "./types.js";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tryParseObject(text: string): { value?: JsonObject; error?: string } {
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

/** The contents of every ``` or ~~~ fenced block, in order (scanned with indexOf: no regex backtracking). */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  const lines = text.split("\n");
  let fence: string | undefined;
  let current: string[] = [];
  for (const line of lines) {
    const trimmed = line.trimStart();
    if (fence === undefined) {
      const marker = trimmed.startsWith("```") ? "```" : trimmed.startsWith("~~~") ? "~~~" : undefined;
      if (marker) {
        fence = marker;
        current = [];
        // A one-line fence (```{"a":1}```) still counts.
        const rest = trimmed.slice(3);
        const close = rest.indexOf(marker);
        if (close >= 0) {
          blocks.push(rest.slice(0, close).replace(/^[a-zA-Z0-9_-]*\s/, ""));
          fence = undefined;
        }
      }
    } else if (trimmed.startsWith(fence)) {
      blocks.push(current.join("\n"));
      fence = undefined;
    } else {
      current.push(line);
    }
  }
  return blocks;
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

/**
 * Finds the JSON object in a model's answer: the whole text, else the first fenced block that parses
 * as an object, else the first balanced `{...}` in the prose that does. Refuses huge or binary text.
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
        `expected at most ${MAX_MODEL_OUTPUT_CHARS} characters of answer, found ${text.length}; it starts with ${quote(text.slice(0, 200))}`,
      ),
    );
  }
  if (looksBinary(text)) {
    return fail(
      ruleError(
        "MODEL_OUTPUT_BINARY",
        "",
        `expected text containing a JSON object, found binary data (NUL or control characters); it starts with ${quote(text.slice(0, 80))}`,
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
  for (const block of fencedBlocks(trimmed)) {
    const parsed = tryParseObject(block.trim());
    if (parsed.value) return ok(parsed.value);
    firstError ??= parsed.error;
  }
  let tries = 0;
  for (let start = trimmed.indexOf("{"); start >= 0 && tries < MAX_JSON_CANDIDATES; tries++) {
    const end = balancedEnd(trimmed, start);
    if (end > 0) {
      const parsed = tryParseObject(trimmed.slice(start, end));
      if (parsed.value) return ok(parsed.value);
      firstError ??= parsed.error;
    }
    start = trimmed.indexOf("{", start + 1);
  }
  return fail(
    ruleError(
      "MODEL_OUTPUT_NO_JSON",
      "",
      `expected a JSON object (bare, in a \`\`\`json fence, or inside prose), found none${
        firstError ? ` that parses (${firstError})` : ""
      }; the answer starts with ${quote(trimmed.slice(0, 200))}`,
    ),
  );
}
