import { secretsFromEnv } from "@debatekit/adapter-kit";
import type { DebateState, Result } from "@debatekit/core";
import { DebatekitError } from "@debatekit/core";
import { acquireLock, readDebateFolder } from "@debatekit/files";
import type { SeatConfig } from "@debatekit/schema";
import { createSeatAdapter } from "./adapters.js";
import { askSeat, type SeatOutcome } from "./ask-seat.js";
import { checkFolderConsent } from "./consent.js";
import { createJournalStore } from "./journal-store.js";
import type { Phase, RunOptions } from "./types.js";

/** What askExtraSeat asks: a seat of debate.md that no format step asks (the report's `reporter`). */
export interface ExtraSeatRequest<T> {
  role: string;
  /** The journal phase of the call (`REPORTING_PHASE` for the reporter). */
  phase: Phase;
  /** The prompt from the committed state, with the errors of the previous answer fed back. */
  prompt: (state: DebateState, feedback: readonly string[]) => string;
  parse: (state: DebateState, text: string) => Result<T>;
}

/**
 * Asks one extra seat of a debate under the debate's lock, journaled and retried like any step's
 * seat (askSeat): the answer is journaled before it is checked, and a journaled good answer to the
 * same prompt is reused, so asking twice for the same state never calls (nor bills) twice.
 * Throws only when it cannot start (locked, unreadable folder, no such seat in debate.md).
 */
export async function askExtraSeat<T>(
  dir: string,
  request: ExtraSeatRequest<T>,
  options: Pick<
    RunOptions,
    "adapters" | "env" | "signal" | "onEvent" | "now" | "cwd" | "wait" | "command"
  > = {},
): Promise<SeatOutcome<T>> {
  const env = options.env ?? process.env;
  const checkSeat = await checkFolderConsent(dir, { env });
  const lock = await acquireLock(dir, {
    ...(options.wait ? { wait: true } : {}),
    command: options.command ?? `debate report (${request.role})`,
  });
  try {
    const read = await readDebateFolder(dir);
    if (!read.ok)
      throw new DebatekitError(read.errors[0]!.code, read.errors[0]!.message, {
        field: read.errors[0]!.path,
      });
    const state = read.value.state;
    const seats = (state.frontmatter.seats ?? {}) as unknown as Record<string, SeatConfig | undefined>;
    const seat = seats[request.role];
    if (!seat)
      throw new DebatekitError("SEAT_MISSING", `debate.md has no seat \`${request.role}\``, {
        file: "debate.md",
        field: `seats.${request.role}`,
      });
    await checkSeat(request.role, seat);
    const adapter = await createSeatAdapter(seat, { debateDir: dir, env }, options.adapters);
    return await askSeat(
      {
        dir,
        adapter,
        secrets: secretsFromEnv(env),
        env,
        ...(options.signal ? { signal: options.signal } : {}),
        cwd: options.cwd ?? process.cwd(),
        now: options.now ?? (() => new Date()),
        emit: (event) => options.onEvent?.(event),
        journal: createJournalStore(dir, { env }),
      },
      state,
      request.role,
      (text) => request.parse(state, text),
      { phase: request.phase, seat, prompt: (feedback) => request.prompt(state, feedback) },
    );
  } finally {
    await lock.release();
  }
}
