import { isDeepStrictEqual } from "node:util";

/** A key path into nested plain objects. */
export type DataPath = string[];

/** One difference between two frontmatter objects: a value set (added or changed) or a key removed. */
export type DataChange = { path: DataPath; value: unknown } | { path: DataPath; remove: true };

/** Whether `value` is a plain object of keys (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The changes that turn `before` into `after`: nested objects are compared key by key, anything else whole. */
export function diffData(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  at: DataPath = [],
): DataChange[] {
  const changes: DataChange[] = [];
  for (const key of Object.keys(before))
    if (!Object.hasOwn(after, key)) changes.push({ path: [...at, key], remove: true });
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (!Object.hasOwn(before, key)) changes.push({ path: [...at, key], value });
    else if (isPlainObject(old) && isPlainObject(value)) changes.push(...diffData(old, value, [...at, key]));
    else if (!isDeepStrictEqual(old, value)) changes.push({ path: [...at, key], value });
  }
  return changes;
}

// defineProperty, not assignment: a `__proto__` key read from a file is an own key, never the prototype.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `current` with the changes that turn `base` into `next` applied, and nothing else: keys someone changed
 * in `current` since `base` was read keep their new values unless the change itself is to them. Where
 * `current` lacks the object a change goes into, `next`'s whole object is taken (a removal is skipped).
 */
export function rebaseData(
  current: Record<string, unknown>,
  base: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const result = structuredClone(current);
  for (const change of diffData(base, next)) {
    let target: Record<string, unknown> | undefined = result;
    let source: unknown = next;
    for (const key of change.path.slice(0, -1)) {
      source = isPlainObject(source) ? source[key] : undefined;
      if (!isPlainObject(target[key])) {
        // A removal from an object that is gone has nothing left to do.
        if (!("remove" in change)) setOwn(target, key, structuredClone(source));
        target = undefined;
        break;
      }
      target = target[key] as Record<string, unknown>;
    }
    if (target === undefined) continue;
    const last = change.path.at(-1)!;
    if ("remove" in change) delete target[last];
    else setOwn(target, last, structuredClone(change.value));
  }
  return result;
}
