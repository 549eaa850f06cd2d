const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/;

/**
 * Quotes bad content for an error message, cut to about 200 characters. The cut never splits a run of
 * token characters: this package cannot redact (secret shapes live in @debatekit/core), so a key is
 * kept whole, for the caller's redaction (the runner's skill_problem events) to find, or dropped whole.
 */
export function quote(value: unknown, max = 200): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  if (text.length <= max) return text;
  let end = max - 3;
  while (end > 0 && TOKEN_CHAR.test(text[end - 1]!) && TOKEN_CHAR.test(text[end]!)) end--;
  return `${text.slice(0, end)}...`;
}
