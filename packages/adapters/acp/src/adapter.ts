import { basename, join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Adapter, AdapterContext, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { prepareSeatLaunch, redactSecrets, sanitizeError } from "@debatekit/adapter-kit";
import type { SeatConfig, Usage } from "@debatekit/schema";
import { type AgentExit, AgentProcess } from "./agent-process.js";
import { defaultCommand, knownAgentOf } from "./agents.js";
import { detectAgent } from "./detect.js";
import { JsonRpcConnection, RpcError } from "./jsonrpc.js";
import {
  findConfigOption,
  initializeParams,
  type PermissionPolicy,
  permissionOutcome,
  protocolVersion,
  readConfigOptions,
  readInitializeResult,
  readPromptResult,
  TurnCollector,
} from "./protocol.js";

const clientVersion = "0.1.0";
const maxRawBytes = 8 * 1024 * 1024;

/**
 * The policy for permission requests when the seat says nothing else (see README): every request
 * refused. A seat with `tools: read` gets `read-only` (reads inside its workspace allowed).
 */
export const defaultPermissionPolicy: PermissionPolicy = "deny-all";

/** A finished turn: the answer and what came with it. */
interface Turn {
  text: string;
  stopReason: string;
  sessionId: string;
  model?: string;
  usage?: Usage;
}

type Outcome =
  | { kind: "answered"; turn: Turn }
  | { kind: "failed"; error: Error }
  | { kind: "exited"; exit: AgentExit }
  | { kind: "timeout" }
  | { kind: "cancelled" };

/** Options of {@link createAdapter} beyond the contract's (tests, embedding). */
export interface AcpAdapterOptions {
  /** Overrides the policy the seat's `tools` gives (`deny-all`, or `read-only` with `tools: read`). */
  permissionPolicy?: PermissionPolicy;
  /** Time between SIGTERM and SIGKILL to the agent's process group (default 2000 ms). */
  killGraceMs?: number;
}

/** A connection to a started agent: its JSON-RPC channel, the turn being collected and its raw lines. */
interface AgentLink {
  connection: JsonRpcConnection;
  collector: TurnCollector;
  raw(): { lines: string[]; truncated: boolean };
}

/** Connects to the agent's stdio, answering permission requests by `policy` and collecting the raw lines. */
function linkAgent(agent: AgentProcess, policy: PermissionPolicy, workspace: string | undefined): AgentLink {
  const lines: string[] = [];
  let rawSize = 0;
  let truncated = false;
  const collector = new TurnCollector();
  const connection = new JsonRpcConnection(agent.child.stdout, agent.child.stdin, {
    onLine: (line) => {
      if (rawSize + line.length > maxRawBytes) {
        truncated = true;
        return;
      }
      lines.push(line);
      rawSize += line.length + 1;
    },
    onNotification: (method, params) => {
      if (method === "session/update") collector.update(params);
    },
    onRequest: (method, params) => {
      if (method === "session/request_permission") {
        const answer = permissionOutcome(params, policy, workspace);
        const chosen = (answer.outcome as { optionId?: unknown }).optionId;
        const options = (params as { options?: Array<{ optionId?: unknown; kind?: unknown }> } | null)
          ?.options;
        const allowed =
          Array.isArray(options) && options.some((o) => o.optionId === chosen && o.kind === "allow_once");
        collector.noteTool((params as { toolCall?: unknown } | null)?.toolCall, !allowed);
        return answer;
      }
      // We offered no fs and no terminal in `initialize`; anything else is not ours to do.
      throw Object.assign(new Error(`debatekit does not offer ${method}`), { code: -32601 });
    },
  });
  return { connection, collector, raw: () => ({ lines, truncated }) };
}

/** Selects the model and thought level when the agent offers them; returns the model in use. */
async function applySettings(
  connection: JsonRpcConnection,
  session: unknown,
  id: string,
  model: string | undefined,
  level: string,
): Promise<string | undefined> {
  const configOptions = readConfigOptions(session);
  const modelOption = findConfigOption(configOptions, "model");
  if (model && modelOption && modelOption.currentValue !== model) {
    if (!modelOption.values.includes(model)) {
      const offered = modelOption.values.slice(0, 8).join(", ");
      throw new Error(`the agent does not offer model ${model} (offers: ${offered})`);
    }
    await connection.request("session/set_config_option", {
      sessionId: id,
      configId: modelOption.id,
      value: model,
    });
    return model;
  }
  const thought = findConfigOption(configOptions, "thought_level");
  if (thought?.values.includes(level) && thought.currentValue !== level) {
    await connection.request("session/set_config_option", {
      sessionId: id,
      configId: thought.id,
      value: level,
    });
  }
  return modelOption?.currentValue ?? model;
}

/** What a turn needs besides the link: the prompt, the folder, the effort's model and level. */
interface TurnInput {
  request: SeatRequest;
  cwd: string;
  effort: { model?: string; effort: string };
  /** Called with the session's id as soon as there is one (a timeout then cancels it). */
  onSession(id: string): void;
}

/** Loads the seat's earlier session when the agent can and still has it, else starts one. */
async function openSession(
  { connection, collector }: AgentLink,
  input: TurnInput,
  canLoad: boolean,
): Promise<{ session: unknown; sessionId: string }> {
  const sessionParams = { cwd: input.cwd, mcpServers: [] };
  const previous = input.request.sessionId;
  if (previous && canLoad) {
    try {
      collector.watch(previous);
      const session = await connection.request("session/load", { ...sessionParams, sessionId: previous });
      return { session, sessionId: previous };
    } catch (error) {
      // A session the agent no longer has: start afresh (the prompt carries the whole debate).
      if (!(error instanceof RpcError)) throw error;
    }
  }
  const session = await connection.request("session/new", sessionParams);
  const id = (session as { sessionId?: unknown } | null)?.sessionId;
  if (typeof id !== "string" || !id) throw new Error("session/new answered without a sessionId");
  return { session, sessionId: id };
}

/** One turn: initialize, open a session, apply the settings, prompt, and collect the answer. */
async function runTurn(link: AgentLink, input: TurnInput): Promise<Turn> {
  const { connection, collector } = link;
  const info = readInitializeResult(await connection.request("initialize", initializeParams(clientVersion)));
  if (info.protocolVersion !== undefined && info.protocolVersion !== protocolVersion) {
    throw new Error(
      `the agent speaks ACP version ${info.protocolVersion}; debatekit speaks ${protocolVersion}`,
    );
  }
  const { session, sessionId } = await openSession(link, input, Boolean(info.loadSession));
  input.onSession(sessionId);
  const model = await applySettings(connection, session, sessionId, input.effort.model, input.effort.effort);
  collector.start(sessionId);
  const result = readPromptResult(
    await connection.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: input.request.prompt }],
    }),
  );
  const usage: Usage = {
    ...(result.inputTokens !== undefined ? { inputTokens: result.inputTokens } : {}),
    ...(result.cachedInputTokens !== undefined ? { cachedInputTokens: result.cachedInputTokens } : {}),
    ...(result.outputTokens !== undefined ? { outputTokens: result.outputTokens } : {}),
    ...(collector.costUsd !== undefined ? { costUsd: collector.costUsd } : {}),
  };
  return {
    text: collector.text(),
    stopReason: result.stopReason,
    sessionId,
    ...(model ? { model } : {}),
    ...(Object.keys(usage).length > 0 ? { usage } : {}),
  };
}

/** Runs the turn against the clock, the user's stop and the agent's exit: whichever comes first. */
async function raceTurn(agent: AgentProcess, link: AgentLink, input: TurnInput): Promise<Outcome> {
  const { request } = input;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timeout" }), request.timeoutMs);
    onAbort = () => resolve({ kind: "cancelled" });
    request.signal?.addEventListener("abort", onAbort, { once: true });
    agent.exited.then((exit) => {
      resolve({ kind: "exited", exit });
      link.connection.close(new Error("the agent exited"));
    });
    runTurn(link, input).then(
      (turn) => resolve({ kind: "answered", turn }),
      (error: Error) => resolve({ kind: "failed", error }),
    );
  });
  clearTimeout(timer);
  if (onAbort) request.signal?.removeEventListener("abort", onAbort);
  return outcome;
}

/** Who the call was for, to word its envelope: the program's name, the known agent, the secrets to hide. */
interface CallFacts {
  programName: string;
  known: ReturnType<typeof knownAgentOf>;
  secrets: readonly string[];
  timeoutMs: number;
  toolCalls: readonly string[];
  refusedTools: number;
  stderr: string;
}

/** The envelope of a call that did not answer: timeout, stop, exit or a protocol error. */
function failureEnvelope(
  outcome: Exclude<Outcome, { kind: "answered" }>,
  fail: (status: SeatCall["status"], error: string) => SeatCall,
  facts: CallFacts,
): SeatCall {
  const { programName, known } = facts;
  switch (outcome.kind) {
    case "timeout":
      return fail("timeout", `no answer within ${facts.timeoutMs} ms; process group terminated`);
    case "cancelled":
      return fail("cancelled", `${programName} was stopped by the user`);
    case "exited": {
      const e = outcome.exit;
      if (e.spawnError) {
        return e.spawnError.code === "ENOENT"
          ? fail(
              "unavailable",
              `${programName} is not installed or not on PATH${known ? `: ${known.setupHint}` : ""}`,
            )
          : fail("exit", `${programName} could not start: ${e.spawnError.message}`);
      }
      const lastStderr = facts.stderr.trim().split("\n").at(-1)?.trim() ?? "";
      const how = e.exitCode === null ? `was killed by ${e.signal}` : `exited with ${e.exitCode}`;
      return fail("exit", `${programName} ${how} before answering${lastStderr ? `: ${lastStderr}` : ""}`);
    }
    case "failed": {
      const error = outcome.error;
      if (error instanceof RpcError && error.method === "initialize" && /auth/i.test(error.rpc.message)) {
        return fail("unavailable", `${error.message}${known ? `; ${known.setupHint}` : ""}`);
      }
      const isAuth = error instanceof RpcError && error.rpc.code === -32000;
      return fail(isAuth ? "unavailable" : "exit", error.message);
    }
  }
}

/** The envelope of a finished turn: its answer, or why a turn that ended gave none. */
function answerEnvelope(turn: Turn, base: Omit<SeatCall, "status" | "text">, facts: CallFacts): SeatCall {
  const { programName, secrets } = facts;
  const meta = {
    ...base,
    sessionId: turn.sessionId,
    ...(turn.model ? { model: turn.model } : {}),
    ...(turn.usage ? { usage: turn.usage } : {}),
  };
  if (turn.stopReason === "refusal")
    return { ...meta, status: "exit", text: "", error: "the agent refused to answer (stopReason refusal)" };
  if (turn.stopReason === "cancelled")
    return { ...meta, status: "cancelled", text: "", error: "the agent cancelled the turn" };
  const text = redactSecrets(turn.text, secrets);
  if (text.trim() === "" && facts.toolCalls.length > 0) {
    const names = sanitizeError(facts.toolCalls.join(", "), secrets, 80);
    const why =
      facts.refusedTools > 0
        ? `${programName}: the model asked for tools the seat refused (${names}) and gave no answer`
        : `${programName}: the model used tools (${names}) and gave no answer`;
    return { ...meta, status: "exit", text: "", error: sanitizeError(why, secrets) };
  }
  if (text.trim() === "") {
    const error = sanitizeError(`${programName} answered nothing (stopReason ${turn.stopReason})`, secrets);
    return { ...meta, status: "empty", text: "", error };
  }
  return { ...meta, status: "ok", text };
}

/** An adapter that talks to an ACP agent (`seat.command`, default `kiro-cli acp`) over stdio. */
export function createAdapter(
  seat: SeatConfig,
  context: AdapterContext,
  options: AcpAdapterOptions = {},
): Adapter {
  const env = context.env ?? process.env;
  const command = seat.command ?? defaultCommand;
  const known = knownAgentOf(command);
  const program = command[0]!;
  // Messages name the program as people call it ("opencode"), not by its install path.
  const programName = basename(program);

  async function call(request: SeatRequest): Promise<SeatCall> {
    const started = performance.now();
    if (request.signal?.aborted) {
      return { status: "cancelled", text: "", durationMs: 0, transport: "acp", error: "stopped by the user" };
    }
    const prepared = await prepareSeatLaunch({
      name: "acp",
      label: programName,
      seat,
      context,
      request,
      env,
      // Known-agent defaults first, so anything the user set wins; the effort map wins over both;
      // the agent's safety switches (tools, isolation, endpoint) win over everything.
      buildEnv: (callerEnv, effortEnv) => ({ ...known?.env, ...callerEnv, ...effortEnv }),
      // A seat the agent cannot run (e.g. its model server refuses connections) throws SandboxError.
      launch: async (input) => (await known?.launch?.(input)) ?? {},
    });
    if (!prepared.ok) {
      return { status: "unavailable", text: "", durationMs: 0, transport: "acp", error: prepared.error };
    }
    const { sandbox, env: childEnv, effort, plan, secrets, cleanup } = prepared.setup;
    // The agent runs in a folder of its own (or the seat's workspace), never the caller's.
    const cwd = known?.privateCwd ? join(sandbox.dir, "work") : sandbox.cwd;
    const policy: PermissionPolicy =
      options.permissionPolicy ?? (sandbox.tools === "read" ? "read-only" : defaultPermissionPolicy);
    const agent = new AgentProcess(program, [...command.slice(1), ...(plan.args ?? []), ...effort.args], {
      cwd,
      env: childEnv,
    });
    const link = linkAgent(agent, policy, sandbox.workspace);
    let sessionId: string | undefined;
    const outcome = await raceTurn(agent, link, {
      request,
      cwd,
      effort,
      onSession: (id) => {
        sessionId = id;
      },
    });
    if ((outcome.kind === "timeout" || outcome.kind === "cancelled") && sessionId) {
      link.connection.notify("session/cancel", { sessionId });
    }
    const exit = await agent.terminate(options.killGraceMs);
    link.connection.close(new Error("the call is over"));
    await cleanup();

    const stderr = agent.stderr();
    const { collector } = link;
    const raw = link.raw();
    const base = {
      durationMs: Math.round(performance.now() - started),
      transport: "acp" as const,
      exitCode: exit.exitCode,
      raw: {
        stdout: redactSecrets(raw.lines.join("\n"), secrets),
        stderr: redactSecrets(stderr, secrets),
        truncated: raw.truncated,
      },
      ...(sessionId ? { sessionId } : {}),
      ...(collector.toolCalls.length
        ? {
            toolCalls: collector.toolCalls
              .slice(0, 20)
              .map((name) => redactSecrets(name, secrets).slice(0, 200)),
          }
        : {}),
    };
    const facts: CallFacts = {
      programName,
      known,
      secrets,
      timeoutMs: request.timeoutMs,
      toolCalls: collector.toolCalls,
      refusedTools: collector.refusedTools,
      stderr,
    };
    if (outcome.kind === "answered") return answerEnvelope(outcome.turn, base, facts);
    const fail = (status: SeatCall["status"], error: string): SeatCall => ({
      ...base,
      status,
      text: "",
      error: sanitizeError(error, secrets),
    });
    return failureEnvelope(outcome, fail, facts);
  }

  return {
    name: "acp",
    call,
    detect: () => detectAgent(command, env),
  };
}
