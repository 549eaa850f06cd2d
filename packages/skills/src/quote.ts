/** Quotes bad content for an error message, cut to about 200 characters. */
export function quote(value: unknown, max = 200): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
