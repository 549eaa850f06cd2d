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
import { buildClaudeArgs } from "./args.js";
import { parseClaudeOutput } from "./parse.js";

const detectTimeoutMs = 15_000;

/** The child's environment: the caller's plus the effort level's variables, minus CLAUDECODE. */
export function buildClaudeEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...base, ...extra };
  // Claude Code refuses to start inside another Claude Code session while this is set.
  delete env.CLAUDECODE;
  return env;
}

/** Turns one finished `claude` process into the §6 envelope (pure: used on recorded fixtures too). */
export function readClaudeOutcome(
  outcome: ProcessOutcome,
  options: { timeoutMs: number; secrets?: readonly string[] },
): SeatCall {
  const parsed = parseClaudeOutput(outcome.stdout, outcome.stderr);
  const result = envelopeFromProcess(outcome, parsed, { ...options, program: "claude" });
  if (!parsed.failed || (result.status !== "parse_error" && result.status !== "exit")) return result;
  // The CLI reported why it failed (an API error, a refused login): that is the program failing,
  // and its own message says more than the last line of stderr.
  const how = outcome.exitCode === null ? "failed" : `exited with ${outcome.exitCode}`;
  return {
    ...result,
    // No login or key: the CLI cannot answer at all until someone sets it up.
    status: parsed.unusable ? "unavailable" : "exit",
    error: sanitizeError(`claude ${how}: ${parsed.parseError ?? "error"}`, options.secrets ?? []),
  };
}

/** A seat answered by Claude Code (`claude -p --output-format json`) (prompt on stdin, never in argv). */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const env = context.env ?? process.env;
  const [command = "claude", ...baseArgs] = seat.command ?? [];

  async function call(request: SeatRequest): Promise<SeatCall> {
    const map =
      context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
    const effort = resolveEffort(map, "claude", {
      model: request.model ?? seat.model,
      effort: request.effort ?? seat.effort,
    });
    const childEnv = buildClaudeEnv(env, effort.env);
    const args = [
      ...baseArgs,
      ...buildClaudeArgs({
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
    return readClaudeOutcome(outcome, { timeoutMs: request.timeoutMs, secrets: secretsFromEnv(childEnv) });
  }

  async function detect(): Promise<Detection> {
    const outcome = await runProcess({
      command,
      args: [...baseArgs, "--version"],
      env: buildClaudeEnv(env, {}),
      timeoutMs: detectTimeoutMs,
    });
    const base = { adapter: "claude", path: command };
    if (outcome.spawnError) {
      return {
        ...base,
        installed: false,
        usable: false,
        hint: "install Claude Code: npm install -g @anthropic-ai/claude-code, then run `claude` once to log in",
      };
    }
    const version = /\d+\.\d+\.\d+/.exec(outcome.stdout)?.[0];
    if (outcome.exitCode !== 0 || !version) {
      const why = (outcome.stderr || outcome.stdout).trim().slice(0, 150);
      return { ...base, installed: true, usable: false, hint: `\`claude --version\` failed: ${why}` };
    }
    const hasCredentials = Boolean(
      env.ANTHROPIC_API_KEY ||
        env.ANTHROPIC_AUTH_TOKEN ||
        env.CLAUDE_CODE_OAUTH_TOKEN ||
        env.ANTHROPIC_BASE_URL,
    );
    return {
      ...base,
      installed: true,
      version,
      usable: true,
      ...(hasCredentials
        ? {}
        : {
            hint: "installed; it answers only when logged in (run `claude`, then /login) or with ANTHROPIC_API_KEY set",
          }),
    };
  }

  return { name: "claude", call, detect };
}
