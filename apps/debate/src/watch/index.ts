export type { PendingSeat, RunReason, WatchEvent, WatchEventType } from "./events.js";
export { createWatchPrinter, formatLiveStatus, formatWatchLine } from "./format.js";
export { classifyPath, isIgnoredPath } from "./paths.js";
export type { RunQueue, RunQueueOptions } from "./schedule.js";
export { createRunQueue } from "./schedule.js";
export type { DebateWatcher, WatchedDebate, WatchOptions } from "./watcher.js";
export { watchDebates } from "./watcher.js";
