import type { JournalEntry } from "@debatekit/schema";

/**
 * How a journaled call ended, as every face tells it: the call's own status (`ok`, `timeout`,
 * `exit`...), or `rejected` when the seat answered and the format's rules refused the answer (its
 * entry's `validation`). A rejected answer was a call that came back: it is not a failed call.
 */
export function journalOutcome(entry: Pick<JournalEntry, "result" | "validation">): string {
  return entry.result.status === "ok" && entry.validation?.ok === false ? "rejected" : entry.result.status;
}
