export { buildCodexEnv, createAdapter, readCodexOutcome } from "./adapter.js";
export type { CodexArgsInput } from "./args.js";
export { buildCodexArgs } from "./args.js";
export type { ParsedCodexOutput } from "./parse.js";
export { parseCodexOutput } from "./parse.js";
