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
import { buildGeminiArgs } from "./args.js";
import { parseGeminiOutput } from "./parse.js";

const detectTimeoutMs = 15_000;

/** The child's environment: the caller's plus the effort level's variables. */
export function buildGeminiEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...base, ...extra };
  return env;
}

/** Turns one finished `gemini` process into the §6 envelope (pure: used on recorded fixtures too). */
export function readGeminiOutcome(
  outcome: ProcessOutcome,
  options: { timeoutMs: number; secrets?: readonly string[] },
): SeatCall {
  const parsed = parseGeminiOutput(outcome.stdout, outcome.stderr);
  const result = envelopeFromProcess(outcome, parsed, { ...options, program: "gemini" });
  if (!parsed.failed || (result.status !== "parse_error" && result.status !== "exit")) return result;
  // The CLI reported why it failed (an API error, a refused login): that is the program failing,
  // and its own message says more than the last line of stderr.
  const how = outcome.exitCode === null ? "failed" : `exited with ${outcome.exitCode}`;
  return {
    ...result,
    // No login or key: the CLI cannot answer at all until someone sets it up.
    status: parsed.unusable ? "unavailable" : "exit",
    error: sanitizeError(`gemini ${how}: ${parsed.parseError ?? "error"}`, options.secrets ?? []),
  };
}

/** A seat answered by the Gemini CLI (`gemini -p … -o json`) (prompt on stdin, never in argv). */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const env = context.env ?? process.env;
  const [command = "gemini", ...baseArgs] = seat.command ?? [];

  async function call(request: SeatRequest): Promise<SeatCall> {
    const map =
      context.effortMap ?? loadEffortMap(findEffortOverrides({ debateDir: context.debateDir, env }));
    const effort = resolveEffort(map, "gemini", {
      model: request.model ?? seat.model,
      effort: request.effort ?? seat.effort,
    });
    const childEnv = buildGeminiEnv(env, effort.env);
    const args = [
      ...baseArgs,
      ...buildGeminiArgs({
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
    return readGeminiOutcome(outcome, { timeoutMs: request.timeoutMs, secrets: secretsFromEnv(childEnv) });
  }

  async function detect(): Promise<Detection> {
    const outcome = await runProcess({
      command,
      args: [...baseArgs, "--version"],
      env: buildGeminiEnv(env, {}),
      timeoutMs: detectTimeoutMs,
    });
    const base = { adapter: "gemini", path: command };
    if (outcome.spawnError) {
      return {
        ...base,
        installed: false,
        usable: false,
        hint: "install the Gemini CLI: npm install -g @google/gemini-cli, then run `gemini` once to log in",
      };
    }
    const version = /\d+\.\d+\.\d+/.exec(outcome.stdout)?.[0];
    if (outcome.exitCode !== 0 || !version) {
      const why = (outcome.stderr || outcome.stdout).trim().slice(0, 150);
      return { ...base, installed: true, usable: false, hint: `\`gemini --version\` failed: ${why}` };
    }
    const hasCredentials =
      Boolean(env.GEMINI_API_KEY || env.GOOGLE_API_KEY || env.GOOGLE_GENAI_USE_VERTEXAI) ||
      existsSync(join(env.HOME ?? homedir(), ".gemini", "settings.json"));
    return {
      ...base,
      installed: true,
      version,
      usable: true,
      ...(hasCredentials
        ? {}
        : {
            hint: "installed; it answers only after a login (`gemini`) or with GEMINI_API_KEY set (exit 41 means no auth)",
          }),
    };
  }

  return { name: "gemini", call, detect };
}
