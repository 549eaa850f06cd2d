import type { UsageLedger } from "@debatekit/schema";
import { createJournalStore, type JournalStore } from "./journal-store.js";
import { buildLedger, currentLedger, mergeLedger, writeLedger } from "./ledger.js";
import type { RunOptions } from "./types.js";

/** Least time between two ledger writes during a run (the last write, when the run ends, is always made). */
const ledgerIntervalMs = 5_000;

/** The debate a ledger counts, and its budget (both read from debate.md, which may change during a run). */
export interface LedgerId {
  debateId: string;
  budget: { maxCostUsd?: number };
}

/** A run's journal and the usage ledger derived from it. */
export interface LedgerWriter {
  /** The journal the run writes through (each write is checkpointed, and first fixes the ledger's base). */
  journal: JournalStore;
  /** The debate and budget the ledger is written for, from debate.md as the run last read it. */
  track(id: LedgerId): void;
  /** Rewrites the ledger when it is due (`force`: always, as when the run ends); never throws. */
  refresh(force: boolean): Promise<void>;
}

/**
 * Opens the journal of the debate in `dir` and keeps `.debate/ledger.json` in step with it. The
 * ledger is derived from the journal, so it may lag without ever counting a call twice or missing
 * one for good: it is rewritten at most every few seconds during a run (a long debate of instant
 * seats must not rewrite a growing file every step) and always when the run ends.
 */
export function createLedgerWriter(
  dir: string,
  options: { env: NodeJS.ProcessEnv; now: () => Date; checkpoint?: RunOptions["checkpoint"] },
): LedgerWriter {
  const store = createJournalStore(dir, { env: options.env });
  let ledgerId: LedgerId | undefined;
  // The ledger as the run found it, read before its first journal write, when it listed exactly the
  // journal's files (an empty one for an empty journal): the run's own entries are merged into it,
  // so rewriting a long debate's ledger never reads its whole journal.
  let ledgerAtStart: Promise<UsageLedger | undefined> | undefined;
  const startLedger = async (): Promise<UsageLedger | undefined> => {
    if (!ledgerId) return undefined;
    const { debateId, budget } = ledgerId;
    try {
      const current = await currentLedger(dir, budget);
      return current.journaled === 0 ? buildLedger(debateId, [], budget) : current.ledger;
    } catch {
      return undefined;
    }
  };
  // A queued debate copies what it writes elsewhere (Redis) as it writes it: after every journal
  // entry (a paid answer) and every committed step. A checkpoint that throws stops the run.
  const journal: JournalStore = {
    forStep: (...args) => store.forStep(...args),
    all: () => store.all(),
    get written() {
      return store.written;
    },
    writtenEntries: () => store.writtenEntries(),
    refuse: (secrets) => store.refuse(secrets),
    async write(entry) {
      ledgerAtStart ??= startLedger();
      await ledgerAtStart;
      const path = await store.write(entry);
      await options.checkpoint?.("journal", entry);
      return path;
    },
  };
  let ledgerAt = 0;
  // A ledger that cannot be written (a journal file the run already reports as broken, a full
  // disk) never changes how the run ends: it is derived, and `status` rebuilds it from the journal.
  const refresh = async (force: boolean) => {
    if (!ledgerId || (!force && options.now().getTime() - ledgerAt < ledgerIntervalMs)) return;
    try {
      if (journal.written === 0) {
        // This run called nobody (a resume that found nothing to do): the ledger is rebuilt only when
        // it no longer lists the journal's files, so a resume never reads a long journal for nothing.
        const current = await currentLedger(dir, ledgerId.budget);
        if (current.ledger || current.journaled === 0) return;
      }
      const { debateId, budget } = ledgerId;
      const base = journal.written > 0 ? await ledgerAtStart : undefined;
      if (base) {
        ledgerAt = options.now().getTime();
        await writeLedger(dir, mergeLedger(base, journal.writtenEntries(), budget));
        return;
      }
      const entries = await journal.all();
      if (entries.length === 0) return;
      ledgerAt = options.now().getTime();
      await writeLedger(dir, buildLedger(debateId, entries, budget));
    } catch {
      // See above.
    }
  };
  return {
    journal,
    track: (id) => {
      ledgerId = id;
    },
    refresh,
  };
}
