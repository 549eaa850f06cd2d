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
import { buildOpencodeArgs } from "./args.js";
import { parseOpencodeOutput } from "./parse.js";

const detectTimeoutMs = 15_000;

/** The child's environment: the caller's plus the effort level's variables. */
export function buildOpencodeEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...base, ...extra };
  return env;
}

/** Turns one finished `opencode` process into the §6 envelope (pure: used on recorded fixtures too). */
export function readOpencodeOutcome(
  outcome: ProcessOutcome,
  options: { timeoutMs: number; secrets?: readonly string[] },
): SeatCall {
  const parsed = parseOpencodeOutput(outcome.stdout, outcome.stderr);
  const result = envelopeFromProcess(outcome, parsed, { ...options, program: "opencode" });
  if (!parsed.failed || (result.status !== "parse_error" && result.status !== "exit")) return result;
  // The CLI reported why it failed (an API error, a refused login): that is the program failing,
  // and its own message says more than the last line of stderr.
  const how = outcome.exitCode === null ? "failed" : `exited with ${outcome.exitCode}`;
  return {
    ...result,
    // No login or key: the CLI cannot answer at all until someone sets it up.
    status: parsed.unusable ? "unavailable" : "exit",
    error: sanitizeError(`opencode ${how}: ${parsed.parseError ?? "error"}`, options.secrets ?? []),
  };
}

/** A seat answered by OpenCode (`opencode run --format json`) (prompt on stdin, never in argv). */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const env = context.env ?? process.env;
  const [command = "opencode", ...baseArgs] = seat.command ?? [];

  async function call(request: SeatRequest): Promise<SeatCall> {
    const map =
      context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
    const effort = resolveEffort(map, "opencode", {
      model: request.model ?? seat.model,
      effort: request.effort ?? seat.effort,
    });
    const childEnv = buildOpencodeEnv(env, effort.env);
    const args = [
      ...baseArgs,
      ...buildOpencodeArgs({
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
    return readOpencodeOutcome(outcome, { timeoutMs: request.timeoutMs, secrets: secretsFromEnv(childEnv) });
  }

  async function detect(): Promise<Detection> {
    const outcome = await runProcess({
      command,
      args: [...baseArgs, "--version"],
      env: buildOpencodeEnv(env, {}),
      timeoutMs: detectTimeoutMs,
    });
    const base = { adapter: "opencode", path: command };
    if (outcome.spawnError) {
      return {
        ...base,
        installed: false,
        usable: false,
        hint: "install OpenCode: npm install -g opencode-ai, then `opencode auth login`",
      };
    }
    const version = /\d+\.\d+\.\d+/.exec(outcome.stdout)?.[0];
    if (outcome.exitCode !== 0 || !version) {
      const why = (outcome.stderr || outcome.stdout).trim().slice(0, 150);
      return { ...base, installed: true, usable: false, hint: `\`opencode --version\` failed: ${why}` };
    }
    const hasCredentials =
      Boolean(env.ANTHROPIC_API_KEY || env.OPENAI_API_KEY || env.OPENCODE_CONFIG_CONTENT) ||
      existsSync(join(env.HOME ?? homedir(), ".local", "share", "opencode", "auth.json"));
    return {
      ...base,
      installed: true,
      version,
      usable: true,
      ...(hasCredentials
        ? {}
        : {
            hint: "installed; it answers only after `opencode auth login` or with a provider key (e.g. ANTHROPIC_API_KEY)",
          }),
    };
  }

  return { name: "opencode", call, detect };
}
