function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of `value` whose object keys follow `reference`'s order (new keys last), so rewrites keep a file's layout. */
export function orderKeysLike<T>(reference: unknown, value: T): T {
  if (!isPlainObject(value) || !isPlainObject(reference)) return value;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(reference))
    if (Object.hasOwn(value, key)) ordered[key] = orderKeysLike(reference[key], value[key]);
  for (const key of Object.keys(value)) if (!(key in ordered)) ordered[key] = value[key];
  return ordered as T;
}
