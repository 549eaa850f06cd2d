import { readFile, stat } from "node:fs/promises";
import { formatValidationErrors, type ReplayEntry, validateReplayEntry } from "@debatekit/schema";

/** A recording read from disk: answers keyed by `exchange/role/attempt`, or why it cannot be read. */
export type Recording = { ok: true; entries: Map<string, ReplayEntry> } | { ok: false; error: string };

/** The key of one recorded answer. */
export function replayKey(exchange: number, role: string, attempt: number): string {
  return `${exchange}/${role}/${attempt}`;
}

function cut(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Parses JSONL text into recorded answers; every line must be a valid ReplayEntry, keys unique. */
export function parseRecording(text: string, file: string): Recording {
  const entries = new Map<string, ReplayEntry>();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    const where = `${file}:${i + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      return { ok: false, error: `${where} is not JSON: ${cut(line)}` };
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

/** Reads and parses a recording, re-reading only when the file changed (size or mtime). */
export function createRecordingReader(file: string, shownAs: string): () => Promise<Recording> {
  let cached: { stamp: string; recording: Recording } | undefined;
  return async () => {
    let stamp: string;
    try {
      const s = await stat(file);
      stamp = `${s.size}:${s.mtimeMs}`;
    } catch {
      return { ok: false, error: `replay file ${shownAs} does not exist` };
    }
    if (cached?.stamp === stamp) return cached.recording;
    const recording = parseRecording(await readFile(file, "utf8"), shownAs);
    cached = { stamp, recording };
    return recording;
  };
}
