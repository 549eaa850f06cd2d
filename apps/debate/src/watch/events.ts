import type { Phase, RunSummary, SkillProblemReport } from "@debatekit/runner";

/**
 * Why a run of a debate was started: at start-up, a new folder, a retry after a lock, the file
 * that changed (debate.md, an inbox/ answer, or the broken file an `invalid` event named), or a
 * change the periodic rescan found that no file event reported.
 */
export type RunReason =
  | "startup"
  | "added"
  | "lock_retry"
  | "debate.md"
  | `inbox/${string}`
  | `fixed:${string}`
  | "rescan:debate.md"
  | "rescan:inbox";

/** A seat that is waiting for its answer file (a `manual` seat). */
export interface PendingSeat {
  role: string;
  message: string;
}

/** What the debate's format counts progress in (`exchange`, `round`): the word its lines use. */
interface Unit {
  unit: string;
}

/**
 * What the watcher reports, one object per event (`debate watch --json` prints each as one line).
 * Every event carries `at` (ISO time); events about one debate carry its folder as `dir`.
 */
export type WatchEvent = { at: string } & (
  | { type: "watch_started"; dirs: string[] }
  | { type: "ready"; debates: number }
  | { type: "debate_added"; dir: string }
  | { type: "debate_removed"; dir: string }
  | { type: "run_started"; dir: string; reasons: RunReason[] }
  | (Unit & {
      type: "step_committed";
      dir: string;
      from: { exchange: number; phase: Phase };
      exchange: number;
      phase: Phase;
    })
  | (Unit & {
      type: "run_finished";
      dir: string;
      status: RunSummary["status"];
      exchange: number;
      phase: Phase;
      committed: number;
      reason?: string;
      error?: RunSummary["error"];
      pending?: PendingSeat[];
    })
  | (Unit & {
      type: "answer_rejected";
      dir: string;
      exchange: number;
      role: string;
      /** The attempt that will be asked next. */
      attempt: number;
      /** Why the answer was rejected (the rules' messages, as the seat's retry prompt gives them). */
      errors: string[];
      /** A person's seat (manual): the retry prompt that lists every problem, relative to the folder. */
      retryPrompt?: string;
    })
  | { type: "invalid"; dir: string; code: string; file: string; field?: string; message: string }
  | { type: "recovered"; dir: string }
  | ({ type: "skill_problem"; dir: string; role: string } & SkillProblemReport)
  | { type: "locked"; dir: string; message: string; retryInMs: number }
  | { type: "run_error"; dir: string; code: string; message: string }
  | { type: "watch_error"; message: string }
  | { type: "stopped" }
);

/** The `type`s of WatchEvent. */
export type WatchEventType = WatchEvent["type"];

/** A WatchEvent without its timestamp (the watcher adds `at`). */
export type WatchEventInput = WatchEvent extends infer E
  ? E extends unknown
    ? Omit<E, "at">
    : never
  : never;
