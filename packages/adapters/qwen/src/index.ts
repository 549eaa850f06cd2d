export { buildQwenEnv, createAdapter, readQwenOutcome } from "./adapter.js";
export type { QwenArgsInput } from "./args.js";
export { buildQwenArgs } from "./args.js";
export { qwenLaunch } from "./launch.js";
export type { ParsedQwenOutput } from "./parse.js";
export { parseQwenOutput } from "./parse.js";
