import { readdir } from "node:fs/promises";
import { findSecretSpans, type LabelledSecret } from "@debatekit/core";
import {
  journalFileName,
  journalSecrets,
  journalStepPrefix,
  readJournal,
  resolveInside,
  writeJournalEntry,
} from "@debatekit/files";
import type { JournalEntry } from "@debatekit/schema";
import type { Phase } from "./types.js";

/** The journal of one debate as one run sees it: read from disk once, then kept in step with our writes. */
export interface JournalStore {
  /** The entries of one step and role, in attempt order. */
  forStep(exchange: number, phase: Phase, role: string): Promise<JournalEntry[]>;
  /** Every entry of the debate (the run's view: what was on disk plus what it wrote). */
  all(): Promise<readonly JournalEntry[]>;
  /**
   * Writes (or rewrites) an entry on disk first, then in memory; returns the file's path. A prompt
   * that repeats most of the seat's last prompt kept whole in this run is kept as its end only
   * (`prompt_base`); what is written, and kept in memory, is that form.
   */
  write(entry: JournalEntry): Promise<string>;
  /**
   * More values the journal's last check refuses (the secrets of the debate's seats: see
   * seatSecretValues), for every write from now on.
   */
  refuse(secrets: readonly LabelledSecret[]): void;
  /** How many entries this store has written. */
  readonly written: number;
  /** The entries this store has written, each in its last form (a rewrite replaces the first). */
  writtenEntries(): readonly JournalEntry[];
}

/** How many prompts a seat keeps against one whole prompt before it keeps one whole again. */
const PROMPTS_PER_BASE = 16;

/**
 * The length of the start `a` and `b` share, cut back to the start of a line (so the end kept alone
 * starts a line, as it did in the prompt). 0 when they share no whole line.
 */
function sharedLines(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  // Equal slices by `===` first (far faster here than startsWith with a position), then by character.
  const chunk = 4096;
  let i = 0;
  while (i + chunk <= n && a.slice(i, i + chunk) === b.slice(i, i + chunk)) i += chunk;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === b.length) return i;
  return b.lastIndexOf("\n", i - 1) + 1;
}

/**
 * A debate's journal as one run sees it; `env` is the run's environment, whose secret values the
 * journal's last check refuses (default process.env). Safe because the run holds the debate's lock,
 * so nobody else writes the journal meanwhile. A step's entries are read (from their files only)
 * the first time the step is asked about; the whole journal only when `all` is called (a budget, a
 * ledger that must be rebuilt), then once. A resume of a long debate reads what its step needs.
 */
export function createJournalStore(dir: string, options: { env?: NodeJS.ProcessEnv } = {}): JournalStore {
  let all: Promise<JournalEntry[]> | undefined;
  const load = () => {
    all ??= readJournal(dir);
    return all;
  };
  // Per step and role, its entries as read from disk and kept in step with our writes.
  const steps = new Map<string, Promise<JournalEntry[]>>();
  const stepKey = (e: Pick<JournalEntry, "exchange" | "phase" | "role">) =>
    `${e.exchange}/${e.phase}/${e.role}`;
  // The journal's steps (file-name prefixes up to the attempt, as journalStepPrefix writes them),
  // listed once: a new step, the usual case, is known to have no entry without listing the folder again.
  let listed: Promise<Set<string>> | undefined;
  const stepOfName = (name: string) => name.slice(0, name.lastIndexOf("-a") + 1);
  const listSteps = () => {
    listed ??= readdir(resolveInside(dir, ".debate/journal")).then(
      (names) => new Set(names.map(stepOfName)),
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return new Set<string>();
        throw error;
      },
    );
    return listed;
  };
  const readStep = async (exchange: number, phase: Phase, role: string): Promise<JournalEntry[]> => {
    const step = { exchange, phase, role };
    return (await listSteps()).has(journalStepPrefix(step)) ? readJournal(dir, step) : [];
  };
  const ofStep = (exchange: number, phase: Phase, role: string) => {
    const key = stepKey({ exchange, phase, role });
    let entries = steps.get(key);
    if (!entries) {
      entries = readStep(exchange, phase, role);
      steps.set(key, entries);
    }
    return entries;
  };
  const same = (a: JournalEntry, b: JournalEntry) =>
    a.exchange === b.exchange && a.phase === b.phase && a.role === b.role && a.attempt === b.attempt;
  const put = (entries: JournalEntry[], entry: JournalEntry) => {
    const at = entries.findIndex((e) => same(e, entry));
    if (at >= 0) entries[at] = entry;
    else entries.push(entry);
  };
  const mine = new Map<string, JournalEntry>();
  let written = 0;
  // The values the journal's last check refuses, worked out once: the run's environment is fixed.
  let refused = journalSecrets(options.env ?? process.env);
  // Per role, the last prompt this run journaled whole: a long debate's prompts repeat the one
  // before almost whole (their layout only grows), so keeping each whole made the journal,
  // and its writes, the size of the debate times its calls.
  const bases = new Map<string, { file: string; prompt: string; uses: number }>();
  /**
   * The entry as it is written (its prompt's end only, when a base holds at least half of it), and
   * the base it becomes once written when it is kept whole.
   */
  const kept = (entry: JournalEntry): { slim: JournalEntry; base?: { file: string; prompt: string } } => {
    const prompt = entry.prompt;
    if (prompt === undefined || entry.prompt_base !== undefined || entry.prompt_truncated)
      return { slim: entry };
    const file = journalFileName(entry);
    const base = bases.get(entry.role);
    if (base?.file === file) return { slim: entry };
    if (base && base.uses < PROMPTS_PER_BASE) {
      const chars = sharedLines(base.prompt, prompt);
      const rest = prompt.slice(chars);
      // The end alone must pass the journal's check (a secret's shape can depend on what comes
      // before it); when it does not, the prompt is kept whole, as it was redacted.
      if (chars > 0 && chars * 2 >= prompt.length && findSecretSpans(rest, refused).length === 0) {
        base.uses++;
        return { slim: { ...entry, prompt: rest, prompt_base: { file: base.file, chars } } };
      }
    }
    return { slim: entry, base: { file, prompt } };
  };
  return {
    get written() {
      return written;
    },
    writtenEntries: () => [...mine.values()],
    async forStep(exchange, phase, role) {
      const entries = all ? await all : await ofStep(exchange, phase, role);
      return entries
        .filter((e) => e.exchange === exchange && e.phase === phase && e.role === role)
        .sort((a, b) => a.attempt - b.attempt);
    },
    all: load,
    refuse(secrets) {
      const more = secrets.filter((s) => !refused.some((r) => r.value === s.value));
      if (more.length > 0) refused = [...refused, ...more];
    },
    async write(entry) {
      // What is in memory follows the disk: the step's entries are there before this one is added.
      const entries = all ? await all : await ofStep(entry.exchange, entry.phase as Phase, entry.role);
      const { slim, base } = kept(entry);
      const path = await writeJournalEntry(dir, slim, { refused });
      if (base) bases.set(entry.role, { ...base, uses: 0 });
      written++;
      const name = journalFileName(slim);
      mine.set(name, slim);
      if (listed) (await listed).add(stepOfName(name));
      put(entries, slim);
      // The other view, when it was read, too (the whole journal holds the step's entries).
      const other = all ? steps.get(stepKey(slim)) : undefined;
      if (other) put(await other, slim);
      return path;
    },
  };
}
