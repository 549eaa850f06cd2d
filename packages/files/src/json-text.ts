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
