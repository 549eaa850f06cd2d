/** Options of createRunQueue. */
export interface RunQueueOptions<R> {
  /** Quiet time after the last trigger of a key before its run starts (coalesces bursts). */
  debounceMs: number;
  /** At most this many keys run at the same time. */
  concurrency: number;
  /** Does the work for one key; the reasons are every trigger since the last run started. */
  run: (key: string, reasons: R[]) => Promise<void>;
}

/** Per-key runs that never overlap: debounced, at most one at a time per key, and one more after a run when triggered during it. */
export interface RunQueue<R> {
  trigger(key: string, reason: R): void;
  /** True while the key's run is in progress. */
  isRunning(key: string): boolean;
  /** Resolves once no key has a run in progress or pending. */
  idle(): Promise<void>;
  /** Drops pending triggers and waits for the runs in progress. */
  close(): Promise<void>;
}

interface Slot<R> {
  timer?: NodeJS.Timeout;
  reasons: Set<R>;
  running: boolean;
  again: boolean;
}

/** Creates a RunQueue (see its doc). */
export function createRunQueue<R>(options: RunQueueOptions<R>): RunQueue<R> {
  const slots = new Map<string, Slot<R>>();
  const waitingForPermit: (() => void)[] = [];
  let permits = Math.max(1, options.concurrency);
  let closed = false;
  let idleWaiters: (() => void)[] = [];

  const acquire = (): Promise<void> => {
    if (permits > 0) {
      permits--;
      return Promise.resolve();
    }
    return new Promise((resolve) => waitingForPermit.push(resolve));
  };
  const release = () => {
    const next = waitingForPermit.shift();
    if (next) next();
    else permits++;
  };
  const settle = (key: string, slot: Slot<R>) => {
    if (!slot.running && !slot.timer && (slot.reasons.size === 0 || closed)) slots.delete(key);
    if (slots.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const done of waiters) done();
    }
  };

  const start = async (key: string, slot: Slot<R>) => {
    slot.running = true;
    await acquire();
    try {
      // A trigger that arrives during a run sets `again`: its change may have landed after the run
      // read the files, so the key runs once more (never twice at once).
      do {
        slot.again = false;
        const reasons = [...slot.reasons];
        slot.reasons.clear();
        // A trigger's timer can fire after an earlier pass took its reason: nothing is left.
        if (closed || reasons.length === 0) break;
        await options.run(key, reasons).catch(() => undefined);
      } while (slot.again && !closed);
    } finally {
      release();
      slot.running = false;
      settle(key, slot);
    }
  };

  const fire = (key: string, slot: Slot<R>) => {
    slot.timer = undefined;
    if (slot.running) {
      slot.again = true;
      return;
    }
    // Its reasons were taken by a run that started after they arrived: nothing is left to do.
    if (slot.reasons.size === 0) return settle(key, slot);
    void start(key, slot);
  };

  return {
    trigger(key, reason) {
      if (closed) return;
      let slot = slots.get(key);
      if (!slot) {
        slot = { reasons: new Set(), running: false, again: false };
        slots.set(key, slot);
      }
      slot.reasons.add(reason);
      if (slot.timer) clearTimeout(slot.timer);
      const current = slot;
      slot.timer = setTimeout(() => fire(key, current), options.debounceMs);
    },
    isRunning: (key) => slots.get(key)?.running ?? false,
    idle: () => (slots.size === 0 ? Promise.resolve() : new Promise((done) => idleWaiters.push(done))),
    async close() {
      closed = true;
      for (const [key, slot] of slots) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = undefined;
        settle(key, slot);
      }
      await this.idle();
    },
  };
}
