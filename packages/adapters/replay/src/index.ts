export { createAdapter, defaultReplayFile, replayLogEnv } from "./adapter.js";
export type { Recording } from "./recording.js";
export { parseRecording, replayKey } from "./recording.js";
