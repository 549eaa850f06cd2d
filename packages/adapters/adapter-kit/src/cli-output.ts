import type { ParsedOutput } from "./envelope.js";

/** What a CLI adapter read from its program's output, plus whether the CLI said it failed. */
export interface ParsedCliOutput extends ParsedOutput {
  /** True when the CLI reported a failure in its own format (its message is in `parseError`). */
  failed?: boolean;
  /** True when the CLI says it has no login or key: nothing can answer until someone sets it up. */
  unusable?: boolean;
}

/**
 * The JSON objects among the lines of `text` (JSONL / NDJSON output), in order. Lines that are
 * not JSON objects are skipped: a CLI prints warnings between events, and a process killed
 * mid-write leaves a partial last line.
 */
export function readJsonLines<T extends object = Record<string, unknown>>(text: string): T[] {
  const objects: T[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) objects.push(value as T);
    } catch {
      // Not an event: a log line or a partial write.
    }
  }
  return objects;
}

/** An API error body quoted inside a message (`{"error":{"message":...}}`) becomes its message. */
export function unwrapErrorMessage(message: string): string {
  try {
    const inner = JSON.parse(message) as { error?: { message?: unknown } } | null;
    if (typeof inner?.error?.message === "string" && inner.error.message) return inner.error.message;
  } catch {
    // Plain text already.
  }
  return message;
}
