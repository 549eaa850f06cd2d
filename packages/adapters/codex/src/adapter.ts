import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type {
  Adapter,
  AdapterContext,
  Detection,
  ProcessOutcome,
  SeatCall,
  SeatRequest,
} from "@debatekit/adapter-kit";
import {
  envelopeFromProcess,
  findEffortOverrides,
  loadEffortMap,
  resolveEffort,
  runProcess,
  sanitizeError,
  secretsFromEnv,
} from "@debatekit/adapter-kit";
import type { SeatConfig } from "@debatekit/schema";
import { buildCodexArgs } from "./args.js";
import { parseCodexOutput } from "./parse.js";

const detectTimeoutMs = 15_000;

/** The child's environment: the caller's plus the effort level's variables. */
export function buildCodexEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...base, ...extra };
  return env;
}

/** Turns one finished `codex` process into the §6 envelope (pure: used on recorded fixtures too). */
export function readCodexOutcome(
  outcome: ProcessOutcome,
  options: { timeoutMs: number; secrets?: readonly string[] },
): SeatCall {
  const parsed = parseCodexOutput(outcome.stdout, outcome.stderr);
  const result = envelopeFromProcess(outcome, parsed, { ...options, program: "codex" });
  if (!parsed.failed || (result.status !== "parse_error" && result.status !== "exit")) return result;
  // The CLI reported why it failed (an API error, a refused login): that is the program failing,
  // and its own message says more than the last line of stderr.
  const how = outcome.exitCode === null ? "failed" : `exited with ${outcome.exitCode}`;
  return {
    ...result,
    // No login or key: the CLI cannot answer at all until someone sets it up.
    status: parsed.unusable ? "unavailable" : "exit",
    error: sanitizeError(`codex ${how}: ${parsed.parseError ?? "error"}`, options.secrets ?? []),
  };
}

/** A seat answered by the Codex CLI (`codex exec --json`) (prompt on stdin, never in argv). */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const env = context.env ?? process.env;
  const [command = "codex", ...baseArgs] = seat.command ?? [];

  async function call(request: SeatRequest): Promise<SeatCall> {
    const map =
      context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
    const effort = resolveEffort(map, "codex", {
      model: request.model ?? seat.model,
      effort: request.effort ?? seat.effort,
    });
    const childEnv = buildCodexEnv(env, effort.env);
    const args = [
      ...baseArgs,
      ...buildCodexArgs({
        ...(effort.model ? { model: effort.model } : {}),
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        extra: effort.args,
      }),
    ];
    const outcome = await runProcess({
      command,
      args,
      stdin: request.prompt,
      env: childEnv,
      cwd: request.cwd,
      timeoutMs: request.timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return readCodexOutcome(outcome, { timeoutMs: request.timeoutMs, secrets: secretsFromEnv(childEnv) });
  }

  async function detect(): Promise<Detection> {
    const outcome = await runProcess({
      command,
      args: [...baseArgs, "--version"],
      env: buildCodexEnv(env, {}),
      timeoutMs: detectTimeoutMs,
    });
    const base = { adapter: "codex", path: command };
    if (outcome.spawnError) {
      return {
        ...base,
        installed: false,
        usable: false,
        hint: "install the Codex CLI: npm install -g @openai/codex, then `codex login`",
      };
    }
    const version = /\d+\.\d+\.\d+/.exec(outcome.stdout)?.[0];
    if (outcome.exitCode !== 0 || !version) {
      const why = (outcome.stderr || outcome.stdout).trim().slice(0, 150);
      return { ...base, installed: true, usable: false, hint: `\`codex --version\` failed: ${why}` };
    }
    const hasCredentials =
      Boolean(env.OPENAI_API_KEY || env.CODEX_API_KEY) ||
      existsSync(join(env.CODEX_HOME ?? join(env.HOME ?? homedir(), ".codex"), "auth.json")) ||
      existsSync(join(env.CODEX_HOME ?? join(env.HOME ?? homedir(), ".codex"), "config.toml"));
    return {
      ...base,
      installed: true,
      version,
      usable: true,
      ...(hasCredentials
        ? {}
        : { hint: "installed; it answers only after `codex login` or with OPENAI_API_KEY set" }),
    };
  }

  return { name: "codex", call, detect };
}
