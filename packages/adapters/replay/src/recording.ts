import { stat } from "node:fs/promises";
import { clipText, DebatekitError, jsonNestingDepth, MAX_JSON_DEPTH } from "@debatekit/core";
import { MAX_JSON_BYTES, readTextInside, resolveInside } from "@debatekit/files";
import { formatValidationErrors, type ReplayEntry, validateReplayEntry } from "@debatekit/schema";

/** A recording read from disk: answers keyed by `exchange/role/attempt`, or why it cannot be read. */
export type Recording = { ok: true; entries: Map<string, ReplayEntry> } | { ok: false; error: string };

/** The key of one recorded answer. */
export function replayKey(exchange: number, role: string, attempt: number): string {
  return `${exchange}/${role}/${attempt}`;
}

/** Parses JSONL text into recorded answers; every line must be a valid ReplayEntry, keys unique. */
export function parseRecording(text: string, file: string): Recording {
  const entries = new Map<string, ReplayEntry>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const where = `${file}:${i + 1}`;
    const depth = jsonNestingDepth(line);
    if (depth > MAX_JSON_DEPTH) {
      return { ok: false, error: `${where} nests ${depth} levels deep, expected at most ${MAX_JSON_DEPTH}` };
    }
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      return { ok: false, error: `${where} is not JSON: ${clipText(line, 80, { marker: "..." })}` };
    }
    const valid = validateReplayEntry(data);
    if (!valid.ok)
      return { ok: false, error: `${where} ${formatValidationErrors(valid.errors).split("\n")[0]}` };
    const entry = valid.value;
    const key = replayKey(entry.exchange, entry.role, entry.attempt ?? 1);
    if (entries.has(key)) {
      return {
        ok: false,
        error: `${where} repeats exchange ${entry.exchange}, role ${entry.role}, attempt ${entry.attempt ?? 1}`,
      };
    }
    entries.set(key, entry);
  }
  return { ok: true, entries };
}

/** Largest recording read: many debates' worth of answers fit well below it. */
export const MAX_RECORDING_BYTES = MAX_JSON_BYTES;

/**
 * Reads and parses a recording inside `debateDir`, re-reading only when the file changed (size or
 * mtime). `file` is the seat's `file:` as written. A path that leaves the folder (`..`, absolute, a
 * symlink out) or a file that is not a regular, capped, UTF-8 text file throws a DebatekitError naming
 * it: that is a broken folder, not a seat that did not answer. A missing file is `{ ok: false }`.
 */
export function createRecordingReader(debateDir: string, file: string): () => Promise<Recording> {
  let cached: { stamp: string; recording: Recording } | undefined;
  return async () => {
    const target = resolveInside(debateDir, file);
    let stamp: string;
    try {
      const s = await stat(target);
      stamp = `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      return { ok: false, error: `replay file ${file} does not exist` };
    }
    if (cached?.stamp === stamp) return cached.recording;
    const read = await readTextInside(debateDir, file, MAX_RECORDING_BYTES);
    if (!read.ok) {
      const first = read.errors[0]!;
      throw new DebatekitError(first.code, first.message, { file, field: "(file)" });
    }
    if (read.value === undefined) return { ok: false, error: `replay file ${file} does not exist` };
    const recording = parseRecording(read.value, file);
    cached = { stamp, recording };
    return recording;
  };
}
