import type { SeatConfig } from "@debatekit/schema";
import { findEffortOverrides, loadEffortMap, type ResolvedEffort, resolveEffort } from "./effort.js";
import { sanitizeError, secretsFromEnv } from "./redact.js";
import {
  type LaunchInput,
  type LaunchPlan,
  materializePlan,
  openSeatSandbox,
  resolveSeatEnv,
  SandboxError,
  type SeatEndpoint,
  type SeatSandbox,
  seatEndpoint,
} from "./sandbox.js";
import type { AdapterContext, SeatRequest } from "./types.js";

/** The caller's environment plus the effort level's variables (the level wins). */
export function mergeChildEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...base, ...extra };
}

/** The environment with a launch plan's changes: strings set, `undefined` removed. */
export function applyEnvChanges(
  env: NodeJS.ProcessEnv,
  changes: Readonly<Record<string, string | undefined>> | undefined,
): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [name, value] of Object.entries(changes ?? {})) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

/** What {@link prepareSeatLaunch} needs to make one call's launch. */
export interface SeatLaunchInput {
  /** The adapter's name: its key in the effort map, and the sandbox's key when the call names no role. */
  name: string;
  /** The word an error starts with (default: `name`), e.g. the program as people call it. */
  label?: string;
  seat: SeatConfig;
  context: AdapterContext;
  request: SeatRequest;
  /** The caller's environment (`context.env`, else the process's). */
  env: NodeJS.ProcessEnv;
  /** The child's environment from the caller's (with the seat's `env`) and the effort level's. */
  buildEnv(callerEnv: NodeJS.ProcessEnv, effortEnv: Record<string, string>): NodeJS.ProcessEnv;
  /** Why the call cannot be made (not installed, no login), checked before anything else is resolved. */
  refuse?(callerEnv: NodeJS.ProcessEnv, endpoint: SeatEndpoint): string | undefined;
  /** The program and the seat's own arguments, passed on to `launch`. */
  command?: readonly string[];
  /** The switches that keep the seat safe for this call (throws SandboxError when it cannot). */
  launch(input: LaunchInput): LaunchPlan | Promise<LaunchPlan>;
}

/** One call's launch, ready to start the program. */
export interface SeatLaunch {
  sandbox: SeatSandbox;
  /** The child's environment, the plan's changes applied. */
  env: NodeJS.ProcessEnv;
  endpoint: SeatEndpoint;
  effort: ResolvedEffort;
  plan: LaunchPlan;
  /** What to redact from the call's output: the child environment's secret values and the seat's API key. */
  secrets: string[];
  /** Removes the plan's files and links again; call it when the call ends, whatever happened. */
  cleanup(): Promise<void>;
}

/** A launch, or why the seat is unavailable (a redacted message naming the adapter). */
export type SeatLaunchResult = { ok: true; setup: SeatLaunch } | { ok: false; error: string };

/**
 * Prepares one call of a process adapter (docs/architecture.md#adapters-and-seat-safety): the
 * seat's private folder, its environment and endpoint, the effort level, and the launch plan's
 * switches and files. A seat that cannot be run safely is an error, never a call without them.
 */
export async function prepareSeatLaunch(input: SeatLaunchInput): Promise<SeatLaunchResult> {
  const { seat, context, request, env } = input;
  const refused = (message: string): SeatLaunchResult => ({
    ok: false,
    error: sanitizeError(message, secretsFromEnv(env)),
  });
  const label = input.label ?? input.name;
  let seatEnv: Record<string, string>;
  let sandbox: SeatSandbox;
  try {
    seatEnv = resolveSeatEnv(seat.env, env);
    // The program runs in a folder of its own (or the seat's workspace), never the caller's.
    sandbox = await openSeatSandbox(seat, {
      debateDir: context.debateDir,
      key: request.step?.role ?? input.name,
      env,
    });
  } catch (error) {
    if (error instanceof SandboxError) return refused(`${label}: ${error.message}`);
    throw error;
  }
  const callerEnv = { ...env, ...seatEnv };
  const endpoint = seatEndpoint(seat, callerEnv);
  const why = input.refuse?.(callerEnv, endpoint);
  if (why !== undefined) return refused(why);
  const map = context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
  const effort = resolveEffort(map, input.name, {
    model: request.model ?? seat.model,
    effort: request.effort ?? seat.effort,
  });
  const baseEnv = input.buildEnv(callerEnv, effort.env);
  let plan: LaunchPlan;
  try {
    plan = await input.launch({
      sandbox,
      env: baseEnv,
      endpoint,
      ...(input.command ? { command: input.command } : {}),
      ...(effort.model ? { model: effort.model } : {}),
    });
  } catch (error) {
    // A seat the program cannot run safely (e.g. `tools: read` where it has no read-only tools).
    if (error instanceof SandboxError) return refused(`${label}: ${error.message}`);
    throw error;
  }
  const childEnv = applyEnvChanges(baseEnv, plan.env);
  const secrets = [
    ...secretsFromEnv(childEnv),
    ...(endpoint.apiKey?.value && endpoint.apiKey.value.length >= 8 ? [endpoint.apiKey.value] : []),
  ];
  const cleanup = await materializePlan(sandbox, plan);
  return { ok: true, setup: { sandbox, env: childEnv, endpoint, effort, plan, secrets, cleanup } };
}
