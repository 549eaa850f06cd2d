export { findOnPath } from "@debatekit/adapter-kit";
export type { AcpAdapterOptions } from "./adapter.js";
export { createAdapter, defaultPermissionPolicy } from "./adapter.js";
export type { AgentExit } from "./agent-process.js";
export { AgentProcess } from "./agent-process.js";
export type { KnownAgent } from "./agents.js";
export { defaultCommand, knownAgentOf, knownAgents } from "./agents.js";
export { detectAgent, versionFrom } from "./detect.js";
export type { ConnectionHooks, IncomingMessage, RequestHandler, RpcErrorObject } from "./jsonrpc.js";
export { classifyLine, createLineSplitter, encodeMessage, JsonRpcConnection, RpcError } from "./jsonrpc.js";
export type { AgentInfo, ConfigOption, PermissionPolicy } from "./protocol.js";
export {
  findConfigOption,
  initializeParams,
  insideWorkspace,
  permissionOutcome,
  protocolVersion,
  readConfigOptions,
  readInitializeResult,
  readPromptResult,
  TurnCollector,
  toolNameOf,
} from "./protocol.js";
