export type {
  CliAdapterDefinition,
  CliAdapterSpec,
  CliArgsInput,
  CliCredentials,
} from "./cli-adapter.js";
export { applyEnvChanges, defineCliAdapter, hasCliCredentials, mergeChildEnv } from "./cli-adapter.js";
export type { ParsedCliOutput } from "./cli-output.js";
export { readJsonLines, unwrapErrorMessage } from "./cli-output.js";
export type { ResolvedEffort } from "./effort.js";
export {
  EffortMapError,
  effortFileEnv,
  findEffortOverrides,
  loadEffortMap,
  mergeEffortMaps,
  readEffortFile,
  resolveEffort,
  shippedEffortFile,
} from "./effort.js";
export type { EnvelopeOptions, ParsedOutput } from "./envelope.js";
export { envelopeFromProcess } from "./envelope.js";
export type { SeatLaunch, SeatLaunchInput, SeatLaunchResult } from "./launch.js";
export { prepareSeatLaunch } from "./launch.js";
export { loopbackAddress, refusesConnections } from "./probe.js";
export type { ProcessOutcome, RunProcessOptions } from "./process.js";
export { findOnPath, runProcess } from "./process.js";
export { REDACTED, redactSecrets, sanitizeError, secretsFromEnv } from "./redact.js";
export type { LaunchInput, LaunchPlan, SeatEndpoint, SeatSandbox, SeatTools } from "./sandbox.js";
export {
  materializePlan,
  openSeatSandbox,
  readUserJsonObject,
  resolveSeatEnv,
  SandboxError,
  seatEndpoint,
  seatSafety,
  seatSandboxDir,
  seatTempRoot,
} from "./sandbox.js";
export type {
  Adapter,
  AdapterContext,
  CreateAdapter,
  Detection,
  SeatCall,
  SeatRequest,
  SeatRole,
  SeatSafetyReport,
  SeatStep,
} from "./types.js";
