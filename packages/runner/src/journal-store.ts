import { readJournal, writeJournalEntry } from "@debatekit/files";
import type { JournalEntry } from "@debatekit/schema";
import type { Phase } from "./types.js";

/** The journal of one debate as one run sees it: read from disk once, then kept in step with our writes. */
export interface JournalStore {
  /** The entries of one step and role, in attempt order. */
  forStep(exchange: number, phase: Phase, role: string): Promise<JournalEntry[]>;
  /** Every entry of the debate (the run's view: what was on disk plus what it wrote). */
  all(): Promise<readonly JournalEntry[]>;
  /** Writes (or rewrites) an entry on disk first, then in memory; returns the file's path. */
  write(entry: JournalEntry): Promise<string>;
  /** How many entries this store has written. */
  readonly written: number;
}

/**
 * A journal read once per run; `env` is the run's environment, whose secret values the journal's
 * last check refuses (default process.env). Safe because the run holds the debate's lock, so nobody else
 * writes the journal meanwhile; it turns the per-call O(journal) read into one read per run.
 */
export function createJournalStore(dir: string, options: { env?: NodeJS.ProcessEnv } = {}): JournalStore {
  let all: Promise<JournalEntry[]> | undefined;
  const load = () => {
    all ??= readJournal(dir);
    return all;
  };
  const same = (a: JournalEntry, b: JournalEntry) =>
    a.exchange === b.exchange && a.phase === b.phase && a.role === b.role && a.attempt === b.attempt;
  let written = 0;
  return {
    get written() {
      return written;
    },
    async forStep(exchange, phase, role) {
      const entries = await load();
      return entries
        .filter((e) => e.exchange === exchange && e.phase === phase && e.role === role)
        .sort((a, b) => a.attempt - b.attempt);
    },
    all: load,
    async write(entry) {
      const entries = await load();
      const path = await writeJournalEntry(dir, entry, options.env ? { env: options.env } : {});
      written++;
      const at = entries.findIndex((e) => same(e, entry));
      if (at >= 0) entries[at] = entry;
      else entries.push(entry);
      return path;
    },
  };
}
