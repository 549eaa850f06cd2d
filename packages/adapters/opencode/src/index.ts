export { buildOpencodeEnv, createAdapter, readOpencodeOutcome } from "./adapter.js";
export type { OpencodeArgsInput } from "./args.js";
export { buildOpencodeArgs } from "./args.js";
export { opencodeLaunch, opencodeSessionPlan } from "./launch.js";
export type { ParsedOpencodeOutput } from "./parse.js";
export { parseOpencodeOutput } from "./parse.js";
