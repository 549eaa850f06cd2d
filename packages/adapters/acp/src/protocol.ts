// The parts of the Agent Client Protocol (v1) this adapter speaks, as pure functions over
// plain JSON: no process, no stream. https://agentclientprotocol.com/protocol

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

/** The permission decision for one tool call (see README: reads allowed, writes and commands denied). */
export type PermissionPolicy = "read-only" | "deny-all";

/** Tool kinds (ACP `ToolKind`) that only look: allowed under `read-only`. */
const readKinds = new Set(["read", "search", "think"]);

/**
 * The answer to a `session/request_permission`: the agent's own `allow_once` option for a
 * read-only tool kind under `read-only`, else its `reject_once` option, else `cancelled`.
 * Never an `*_always` option: those persist in the agent's settings beyond this debate.
 */
export function permissionOutcome(params: unknown, policy: PermissionPolicy): Json {
  const p = isObject(params) ? params : {};
  const options = Array.isArray(p.options) ? p.options.filter(isObject) : [];
  const kind = isObject(p.toolCall) && typeof p.toolCall.kind === "string" ? p.toolCall.kind : undefined;
  const allow = policy === "read-only" && kind !== undefined && readKinds.has(kind);
  const pick = (wanted: string) => options.find((o) => o.kind === wanted && typeof o.optionId === "string");
  const chosen = allow ? pick("allow_once") : pick("reject_once");
  return chosen
    ? { outcome: { outcome: "selected", optionId: chosen.optionId } }
    : { outcome: { outcome: "cancelled" } };
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
  toolCalls = 0;

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
    else if (u.sessionUpdate === "tool_call") this.toolCalls += 1;
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
  inputTokens?: number;
  outputTokens?: number;
} {
  const r = isObject(result) ? result : {};
  const usage = isObject(r.usage) ? r.usage : {};
  const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);
  const inputTokens = count(usage.inputTokens);
  const outputTokens = count(usage.outputTokens);
  return {
    stopReason: typeof r.stopReason === "string" ? r.stopReason : "unknown",
    ...(inputTokens !== undefined ? { inputTokens } : {}),
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
