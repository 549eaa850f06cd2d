// The parts of the Agent Client Protocol (v1) this adapter speaks, as pure functions over
// plain JSON: no process, no stream (the permission check resolves paths on disk).
// https://agentclientprotocol.com/protocol

import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";

/** The protocol version we speak (ACP versions are one integer, bumped on breaking changes). */
export const protocolVersion = 1;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parameters of our `initialize`: we offer no file system and no terminal to the agent. */
export function initializeParams(clientVersion: string): Json {
  return {
    protocolVersion,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "debatekit", title: "debatekit", version: clientVersion },
  };
}

/** What we read from the agent's `initialize` answer. */
export interface AgentInfo {
  protocolVersion?: number;
  loadSession: boolean;
  name?: string;
  version?: string;
}

/** Reads the `initialize` result. */
export function readInitializeResult(result: unknown): AgentInfo {
  const r = isObject(result) ? result : {};
  const caps = isObject(r.agentCapabilities) ? r.agentCapabilities : {};
  const info = isObject(r.agentInfo) ? r.agentInfo : {};
  return {
    ...(typeof r.protocolVersion === "number" ? { protocolVersion: r.protocolVersion } : {}),
    loadSession: caps.loadSession === true,
    ...(typeof info.name === "string" ? { name: info.name } : {}),
    ...(typeof info.version === "string" ? { version: info.version } : {}),
  };
}

/**
 * How permission requests are answered (docs/architecture.md#adapters-and-seat-safety): `deny-all` (the default, a seat with
 * `tools: none`) refuses every one; `read-only` (a seat with `tools: read`) allows a read or a
 * search whose every location lies inside `workspace`, and refuses everything else.
 */
export type PermissionPolicy = "read-only" | "deny-all";

/** Tool kinds (ACP `ToolKind`) that only look: the only ones `read-only` may allow. */
const readKinds = new Set(["read", "search"]);

/** The real path of `path` (of its nearest existing parent for a missing file), or undefined. */
function realPathOf(path: string): string | undefined {
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return undefined;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/** True when `path` (symlinks resolved) is `workspace` or inside it; `workspace` is a real path. */
export function insideWorkspace(path: string, workspace: string): boolean {
  if (!isAbsolute(path)) return false;
  const real = realPathOf(path);
  if (!real) return false;
  const rel = relative(workspace, real);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The paths a tool call says it touches (`locations`), when it says any. */
function locationsOf(toolCall: Json): string[] | undefined {
  if (!Array.isArray(toolCall.locations) || toolCall.locations.length === 0) return undefined;
  const paths = toolCall.locations.map((l) => (isObject(l) && typeof l.path === "string" ? l.path : ""));
  return paths.every(Boolean) ? paths : undefined;
}

/**
 * The answer to a `session/request_permission`: under `read-only`, the agent's own `allow_once`
 * option for a `read`/`search` tool call whose every location is inside `workspace` (a call
 * without locations cannot be checked: refused); else its `reject_once` option, else
 * `cancelled`. Never an `*_always` option: those persist in the agent's settings beyond this debate.
 */
export function permissionOutcome(params: unknown, policy: PermissionPolicy, workspace?: string): Json {
  const p = isObject(params) ? params : {};
  const options = Array.isArray(p.options) ? p.options.filter(isObject) : [];
  const toolCall = isObject(p.toolCall) ? p.toolCall : {};
  const kind = typeof toolCall.kind === "string" ? toolCall.kind : undefined;
  const paths = locationsOf(toolCall);
  const allow =
    policy === "read-only" &&
    workspace !== undefined &&
    kind !== undefined &&
    readKinds.has(kind) &&
    paths?.every((path) => insideWorkspace(path, workspace)) === true;
  const pick = (wanted: string) => options.find((o) => o.kind === wanted && typeof o.optionId === "string");
  const chosen = allow ? pick("allow_once") : pick("reject_once");
  return chosen
    ? { outcome: { outcome: "selected", optionId: chosen.optionId } }
    : { outcome: { outcome: "cancelled" } };
}

/**
 * The name of the tool an ACP tool call (a `tool_call` update or a permission request's
 * `toolCall`) stands for: opencode reports a tool the seat does not have as `invalid`, with the
 * one the model asked for in `rawInput.tool`; otherwise the title, else the kind.
 */
export function toolNameOf(toolCall: unknown): string | undefined {
  if (!isObject(toolCall)) return undefined;
  const raw = isObject(toolCall.rawInput) ? toolCall.rawInput : {};
  const title = typeof toolCall.title === "string" ? toolCall.title : undefined;
  if ((title === "invalid" || title === "Invalid Tool") && typeof raw.tool === "string") return raw.tool;
  return title ?? (typeof toolCall.kind === "string" ? toolCall.kind : undefined);
}

/** The text of a content block (`{type:"text", text}`); other block types carry no answer text. */
function blockText(content: unknown): string {
  return isObject(content) && content.type === "text" && typeof content.text === "string" ? content.text : "";
}

/**
 * Collects one prompt turn from `session/update` notifications: the agent's message chunks
 * (only those of our session, only while collecting: `session/load` replays old chunks first),
 * and the cost of the turn (`usage_update` reports the session's running total, so the total
 * seen before the prompt is subtracted).
 */
export class TurnCollector {
  private chunks: string[] = [];
  private collecting = false;
  private costBefore = 0;
  private costNow: number | undefined;
  /** Names of the tools the model asked for this turn (tool_call updates, permission requests). */
  toolCalls: string[] = [];
  /** How many of those the seat refused (permission requests answered with a rejection). */
  refusedTools = 0;

  constructor(private sessionId?: string) {}

  /** Sets the session whose updates count (before `session/load`, so its cost total is seen). */
  watch(sessionId: string): void {
    this.sessionId = sessionId;
  }

  /** Starts collecting for `sessionId` (call right before sending `session/prompt`). */
  start(sessionId: string): void {
    this.sessionId = sessionId;
    this.collecting = true;
    this.chunks = [];
    this.toolCalls = [];
    this.refusedTools = 0;
    this.costBefore = this.costNow ?? 0;
    this.costNow = undefined;
  }

  /** Feeds one `session/update` notification's params. */
  update(params: unknown): void {
    if (!isObject(params) || params.sessionId !== this.sessionId) return;
    const u = isObject(params.update) ? params.update : {};
    if (u.sessionUpdate === "usage_update") {
      const cost = isObject(u.cost) ? u.cost : undefined;
      if (cost && typeof cost.amount === "number" && cost.amount >= 0 && (cost.currency ?? "USD") === "USD") {
        this.costNow = cost.amount;
      }
      return;
    }
    if (!this.collecting) return;
    if (u.sessionUpdate === "agent_message_chunk") this.chunks.push(blockText(u.content));
    else if (u.sessionUpdate === "tool_call") this.noteTool(u);
  }

  /** Records a tool the model asked for (during the turn); `refused`: the seat said no. */
  noteTool(toolCall: unknown, refused = false): void {
    if (!this.collecting) return;
    const name = toolNameOf(toolCall);
    if (name && !this.toolCalls.includes(name)) this.toolCalls.push(name);
    if (refused) this.refusedTools += 1;
    else if (isObject(toolCall) && toolCall.title === "invalid") this.refusedTools += 1;
  }

  /** The cost of this turn in USD, when the agent reported one. */
  get costUsd(): number | undefined {
    if (this.costNow === undefined) return undefined;
    return Math.max(0, Math.round((this.costNow - this.costBefore) * 1e9) / 1e9);
  }

  /** The answer so far. */
  text(): string {
    return this.chunks.join("");
  }
}

/** What the `session/prompt` result says: why the turn stopped, and its token usage when reported. */
export function readPromptResult(result: unknown): {
  stopReason: string;
  /** Every input token, cached ones included. */
  inputTokens?: number;
  /** The part of `inputTokens` read from the provider's cache. */
  cachedInputTokens?: number;
  outputTokens?: number;
} {
  const r = isObject(result) ? result : {};
  const usage = isObject(r.usage) ? r.usage : {};
  const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
  const uncached = count(usage.inputTokens);
  const cachedRead = count(usage.cachedReadTokens);
  // ACP's inputTokens leave out what was read from or written to the cache (measured: opencode acp).
  const inputTokens =
    uncached === undefined ? undefined : uncached + (cachedRead ?? 0) + (count(usage.cachedWriteTokens) ?? 0);
  const outputTokens = count(usage.outputTokens);
  return {
    stopReason: typeof r.stopReason === "string" ? r.stopReason : "unknown",
    ...(inputTokens !== undefined ? { inputTokens } : {}),
    ...(inputTokens !== undefined && cachedRead !== undefined ? { cachedInputTokens: cachedRead } : {}),
    ...(outputTokens !== undefined ? { outputTokens } : {}),
  };
}

/** A selectable session setting the agent offers (`configOptions` of `session/new`). */
export interface ConfigOption {
  id: string;
  category?: string;
  currentValue?: string;
  values: string[];
}

/** Reads `configOptions` (model, thought level, mode...) from a `session/new` or `session/load` result. */
export function readConfigOptions(result: unknown): ConfigOption[] {
  const r = isObject(result) ? result : {};
  const list = Array.isArray(r.configOptions) ? r.configOptions.filter(isObject) : [];
  return list.flatMap((o) => {
    if (typeof o.id !== "string") return [];
    const values = (Array.isArray(o.options) ? o.options : []).flatMap((v) =>
      isObject(v) && typeof v.value === "string" ? [v.value] : [],
    );
    return [
      {
        id: o.id,
        ...(typeof o.category === "string" ? { category: o.category } : {}),
        ...(typeof o.currentValue === "string" ? { currentValue: o.currentValue } : {}),
        values,
      },
    ];
  });
}

/** The option of a category (`model`, `thought_level`), by category or else by id. */
export function findConfigOption(options: ConfigOption[], category: string): ConfigOption | undefined {
  return options.find((o) => o.category === category) ?? options.find((o) => o.id === category);
}
