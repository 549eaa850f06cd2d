export type { ProgramOptions } from "./main.js";
export { createProgram, main } from "./main.js";
export type {
  DebateWatcher,
  PendingSeat,
  RunReason,
  WatchEvent,
  WatchEventType,
  WatchedDebate,
  WatchOptions,
} from "./watch/index.js";
export { createWatchPrinter, watchDebates } from "./watch/index.js";
