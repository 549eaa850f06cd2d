export { buildGeminiEnv, createAdapter, readGeminiOutcome } from "./adapter.js";
export type { GeminiArgsInput } from "./args.js";
export { buildGeminiArgs } from "./args.js";
export type { ParsedGeminiOutput } from "./parse.js";
export { parseGeminiOutput } from "./parse.js";
