import { jsonNestingDepth, MAX_JSON_DEPTH } from "@debatekit/core";

/**
 * JSON text as dialectic (Python's json.dumps(indent=2)) writes it: 2-space indent, non-ASCII characters as
 * \uXXXX escapes. Same data as JSON.stringify, and the dialectic files re-serialize to their own bytes.
 */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * JSON.parse for the folder's JSON files, refusing nesting deeper than MAX_JSON_DEPTH first: such a
 * value parses, then overflows the stack of the schema check or the error message that quotes it.
 * Throws an Error whose message says what is wrong (callers put it in their FILE_... errors).
 */
export function parseJson(text: string): unknown {
  const depth = jsonNestingDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    throw new Error(`it nests ${depth} levels deep, expected at most ${MAX_JSON_DEPTH}`);
  }
  return JSON.parse(text);
}
