export { buildKiloEnv, createAdapter, readKiloOutcome } from "./adapter.js";
export type { KiloArgsInput } from "./args.js";
export { buildKiloArgs } from "./args.js";
export { kiloLaunch } from "./launch.js";
export type { ParsedKiloOutput } from "./parse.js";
export { parseKiloOutput } from "./parse.js";
