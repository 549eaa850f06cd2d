export { buildCopilotEnv, createAdapter, readCopilotOutcome } from "./adapter.js";
export type { CopilotArgsInput } from "./args.js";
export { buildCopilotArgs } from "./args.js";
export type { ParsedCopilotOutput } from "./parse.js";
export { parseCopilotOutput } from "./parse.js";
