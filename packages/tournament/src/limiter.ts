import type { Adapter } from "@debatekit/adapter-kit";
import type { SeatConfig, TournamentFrontmatter } from "@debatekit/schema";

/** A provider's limits: calls in flight and calls started per rolling minute. */
export interface ProviderLimit {
  concurrency?: number;
  per_minute?: number;
}

/** Admits calls under one provider's limits, first come first served. */
export interface Gate {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

/** The gate's clock: what time it is, and how to be woken later (injectable for tests). */
export interface GateClock {
  now(): number;
  schedule(ms: number, wake: () => void): void;
}

const systemClock: GateClock = {
  now: Date.now,
  schedule: (ms, wake) => {
    setTimeout(wake, ms);
  },
};

/** A gate for one provider (in-process: one machine). */
export function createGate(limit: ProviderLimit, clock: GateClock = systemClock): Gate {
  let inFlight = 0;
  const starts: number[] = [];
  const queue: Array<() => void> = [];
  let timer = false;
  const pump = () => {
    while (queue.length > 0) {
      const now = clock.now();
      while (starts.length > 0 && starts[0]! <= now - 60_000) starts.shift();
      if (limit.concurrency !== undefined && inFlight >= limit.concurrency) return;
      if (limit.per_minute !== undefined && starts.length >= limit.per_minute) {
        // Wake when the oldest start leaves the window.
        if (!timer) {
          timer = true;
          clock.schedule(starts[0]! + 60_000 - now + 1, () => {
            timer = false;
            pump();
          });
        }
        return;
      }
      inFlight++;
      starts.push(now);
      queue.shift()!();
    }
  };
  return {
    acquire(signal) {
      return new Promise((resolve, reject) => {
        let released = false;
        const grant = () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(() => {
            if (released) return;
            released = true;
            inFlight--;
            pump();
          });
        };
        const onAbort = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(signal!.reason ?? new Error("aborted"));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(grant);
        pump();
      });
    },
  };
}

/** Gates by adapter name, from tournament.md's `limits` (an adapter without limits is not gated). */
export function createProviderGates(
  limits: TournamentFrontmatter["limits"] = {},
): (seat: SeatConfig) => Gate | undefined {
  const gates = new Map<string, Gate>();
  return (seat) => {
    const limit = limits[seat.adapter];
    if (!limit) return undefined;
    const gate = gates.get(seat.adapter) ?? createGate(limit);
    gates.set(seat.adapter, gate);
    return gate;
  };
}

/** An adapter whose calls pass through its provider's gate (for runDebate's `wrapAdapter`). */
export function gatedAdapter(adapter: Adapter, gate: Gate | undefined): Adapter {
  if (!gate) return adapter;
  return {
    ...adapter,
    name: adapter.name,
    detect: () => adapter.detect(),
    async call(request) {
      let release: () => void;
      try {
        release = await gate.acquire(request.signal);
      } catch {
        return {
          status: "cancelled",
          text: "",
          durationMs: 0,
          transport: "file",
          error: "stopped while waiting for the provider's limit",
        };
      }
      try {
        return await adapter.call(request);
      } finally {
        release();
      }
    },
  };
}
