export { buildClaudeEnv, createAdapter, readClaudeOutcome } from "./adapter.js";
export type { ClaudeArgsInput } from "./args.js";
export { buildClaudeArgs } from "./args.js";
export type { ParsedClaudeOutput } from "./parse.js";
export { parseClaudeOutput } from "./parse.js";
