import { existsSync } from "node:fs";
import { homedir } from "node:os";
import type { SeatConfig } from "@debatekit/schema";
import type { ParsedCliOutput } from "./cli-output.js";
import { envelopeFromProcess } from "./envelope.js";
import { mergeChildEnv, prepareSeatLaunch } from "./launch.js";
import type { ProcessOutcome } from "./process.js";
import { findOnPath, runProcess } from "./process.js";
import { sanitizeError, secretsFromEnv } from "./redact.js";
import { type LaunchInput, type LaunchPlan, resolveSeatEnv, seatSafety } from "./sandbox.js";
import type { Adapter, AdapterContext, Detection, SeatCall, SeatRequest, SeatSafetyReport } from "./types.js";

// Kept importable from here, where they were first defined.
export { applyEnvChanges, mergeChildEnv } from "./launch.js";

/** What one call needs on the CLI's command line (never the prompt: that goes to stdin). */
export interface CliArgsInput {
  model?: string;
  /** Resume this session instead of starting a new one. */
  sessionId?: string;
  /** Extra flags from the effort map. */
  extra?: readonly string[];
}

/** Where a CLI finds a login or key; any one of them present counts. */
export interface CliCredentials {
  /** Environment variables, any of which set (non-empty) means the CLI can authenticate. */
  env: readonly string[];
  /** Files a login leaves behind; `home` is `$HOME`, else the user's home directory. */
  files?: (home: string, env: NodeJS.ProcessEnv) => readonly string[];
  /**
   * What a call does when none of them is found (`detect()` always hints):
   * - `"before-call"`: returns `unavailable` with the login hint without starting the CLI, for a
   *   CLI that otherwise goes looking for a model it cannot reach (codex retries the OpenAI API
   *   until the seat times out);
   * - `"on-failure"`: starts the CLI (its own config may hold a key we cannot see) but reports a
   *   failure as `unavailable` with the login hint (opencode only says "Unexpected server error");
   * - absent: nothing; the CLI's own message says it (claude, gemini and copilot name the login,
   *   and may hold one in a keychain).
   */
  whenMissing?: "before-call" | "on-failure";
}

/** Everything that differs between two CLI adapters; {@link defineCliAdapter} does the rest. */
export interface CliAdapterSpec {
  /** The adapter's name: its key in the effort map, `Detection.adapter`, and the word in messages. */
  name: string;
  /** The program run when the seat has no `command` (looked up on PATH). */
  program: string;
  /** argv after the program (and after the seat's own `command` arguments). */
  buildArgs(input: CliArgsInput): string[];
  /** The child's environment from the caller's and the effort level's (default: the two merged). */
  buildEnv?(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv;
  /** Reads the program's output; pure, so recorded fixtures go through the same code. */
  parseOutput(stdout: string, stderr: string): ParsedCliOutput;
  /** `detect()` hint when the program is not installed: how to install it. */
  installHint: string;
  /** `detect()` hint when it is installed but no credential is found: how to log in. */
  loginHint: string;
  credentials: CliCredentials;
  /**
   * The switches of one call that keep the seat safe and isolated (docs/architecture.md#adapters-and-seat-safety): tools off (or
   * read-only inside the workspace), the user's memory files, hooks, plugins and MCP servers not
   * loaded (unless `isolation: off`), the seat's endpoint. Runs before every call.
   */
  launch(input: LaunchInput): LaunchPlan | Promise<LaunchPlan>;
  /**
   * The base URL the CLI calls when the seat sets no `base_url`, as the user's environment or
   * config decides it (undefined: the CLI's own default, its provider's API).
   */
  defaultEndpoint?(env: NodeJS.ProcessEnv): string | undefined;
  /** What `launch` does, in words, for `debate doctor` and the README: one phrase each. */
  safety: {
    /** How tools are turned off (`tools: none`), e.g. "--tools \"\" (no tool offered)". */
    toolsOff: string;
    /** How `tools: read` is confined to the workspace. */
    readOnly: string;
    /** Set when the CLI cannot offer `tools: read` at all: why (such a seat is unavailable). */
    readUnavailable?: string;
    /** What of the user's setup is kept away from the seat (isolation on). */
    isolated: string;
    /** What of the user's setup still reaches the seat (credentials, provider settings). */
    passedThrough: string;
  };
}

/** What {@link defineCliAdapter} gives a CLI package to export. */
export interface CliAdapterDefinition {
  readonly name: string;
  /** The package's `createAdapter(seat, context)`. */
  createAdapter(seat: SeatConfig, context: AdapterContext): Adapter;
  /** The spec's `safety` description (for `debate doctor`). */
  readonly safety: CliAdapterSpec["safety"];
  /** Turns one finished process into the seat result envelope (pure: used on recorded fixtures too). */
  readOutcome(outcome: ProcessOutcome, options: { timeoutMs: number; secrets?: readonly string[] }): SeatCall;
  /** The child's environment (the spec's `buildEnv`, or the two merged). */
  buildEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv;
}

/** `--version` answers at once; a CLI that takes longer is stuck (a login prompt, a lock). */
const detectTimeoutMs = 15_000;

/** True when any of the credential variables is set or any credential file exists. */
export function hasCliCredentials(credentials: CliCredentials, env: NodeJS.ProcessEnv): boolean {
  if (credentials.env.some((name) => Boolean(env[name]))) return true;
  const files = credentials.files?.(env.HOME ?? homedir(), env) ?? [];
  return files.some((file) => existsSync(file));
}

/**
 * Builds a whole CLI adapter (run, redact, envelope, effort, detect) from what differs per CLI:
 * the program, its argv and env, how to read its output, and its install and login hints.
 */
export function defineCliAdapter(spec: CliAdapterSpec): CliAdapterDefinition {
  const buildEnv = spec.buildEnv ?? mergeChildEnv;

  function readOutcome(
    outcome: ProcessOutcome,
    options: { timeoutMs: number; secrets?: readonly string[] },
  ): SeatCall {
    const parsed = spec.parseOutput(outcome.stdout, outcome.stderr);
    const result = envelopeFromProcess(outcome, parsed, { ...options, program: spec.name });
    if (!parsed.failed || (result.status !== "parse_error" && result.status !== "exit")) return result;
    // The CLI reported why it failed (an API error, a refused login): that is the program failing,
    // and its own message says more than the last line of stderr.
    const how = outcome.exitCode === null ? "failed" : `exited with ${outcome.exitCode}`;
    return {
      ...result,
      status: parsed.unusable ? "unavailable" : "exit",
      error: sanitizeError(`${spec.name} ${how}: ${parsed.parseError ?? "error"}`, options.secrets ?? []),
    };
  }

  function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
    const env = context.env ?? process.env;
    const [command = spec.program, ...baseArgs] = seat.command ?? [];
    const notInstalled = `${spec.name}: not installed (no \`${command}\` on PATH); ${spec.installHint}`;

    async function call(request: SeatRequest): Promise<SeatCall> {
      const unavailable = (error: string): SeatCall => ({
        status: "unavailable",
        text: "",
        error: sanitizeError(error, secretsFromEnv(env)),
        durationMs: 0,
        transport: "cli",
      });
      // The program before the login: a login hint for a CLI that is not there sends the user to a
      // command they do not have (a path in `command` is left to the spawn to find).
      let loggedIn = true;
      const notLoggedIn = `${spec.name}: no login or key found; ${spec.loginHint}`;
      const prepared = await prepareSeatLaunch({
        name: spec.name,
        seat,
        context,
        request,
        env,
        buildEnv,
        command: [command, ...baseArgs],
        launch: (input) => spec.launch(input),
        refuse: (callerEnv, endpoint) => {
          if (!command.includes("/") && !findOnPath(command, callerEnv)) return notInstalled;
          loggedIn =
            !spec.credentials.whenMissing ||
            Boolean(endpoint.apiKey?.value || endpoint.baseUrl) ||
            hasCliCredentials(spec.credentials, callerEnv);
          return !loggedIn && spec.credentials.whenMissing === "before-call" ? notLoggedIn : undefined;
        },
      });
      if (!prepared.ok) return unavailable(prepared.error);
      const { sandbox, env: childEnv, effort, plan, secrets, cleanup } = prepared.setup;
      const args = [
        ...baseArgs,
        ...spec.buildArgs({
          ...(effort.model ? { model: effort.model } : {}),
          ...(request.sessionId ? { sessionId: request.sessionId } : {}),
          extra: [...(plan.args ?? []), ...effort.args],
        }),
      ];
      let outcome: ProcessOutcome;
      try {
        outcome = await runProcess({
          command,
          args,
          stdin: request.prompt,
          env: childEnv,
          cwd: sandbox.cwd,
          timeoutMs: request.timeoutMs,
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } finally {
        await cleanup();
      }
      const result = readOutcome(outcome, { timeoutMs: request.timeoutMs, secrets });
      const failed = result.status === "exit" || result.status === "parse_error";
      return !loggedIn && failed
        ? { ...result, status: "unavailable", error: sanitizeError(notLoggedIn, secrets) }
        : result;
    }

    async function detect(): Promise<Detection> {
      const outcome = await runProcess({
        command,
        args: [...baseArgs, "--version"],
        env: buildEnv(env, {}),
        timeoutMs: detectTimeoutMs,
      });
      const base = { adapter: spec.name, path: command };
      if (outcome.spawnError) return { ...base, installed: false, usable: false, hint: spec.installHint };
      const version = /\d+\.\d+\.\d+/.exec(outcome.stdout)?.[0];
      if (outcome.exitCode !== 0 || !version) {
        const why = sanitizeError(outcome.stderr || outcome.stdout, secretsFromEnv(env), 150);
        return { ...base, installed: true, usable: false, hint: `\`${spec.name} --version\` failed: ${why}` };
      }
      return {
        ...base,
        installed: true,
        version,
        usable: true,
        ...(hasCliCredentials(spec.credentials, env) ? {} : { hint: spec.loginHint }),
      };
    }

    function safety(): SeatSafetyReport {
      const { tools, isolation, workspace } = seatSafety(seat);
      let seatEnv: Record<string, string> = {};
      try {
        seatEnv = resolveSeatEnv(seat.env, env);
      } catch {
        // An unset reference: the call reports it; the endpoint is then the environment's.
      }
      const callerEnv = { ...env, ...seatEnv };
      return {
        tools,
        ...(workspace ? { workspace } : {}),
        isolation,
        endpoint:
          seat.base_url ?? spec.defaultEndpoint?.(callerEnv) ?? `${spec.name}'s default (its provider's API)`,
        toolsSwitches: tools === "read" ? spec.safety.readOnly : spec.safety.toolsOff,
        ...(tools === "read" && spec.safety.readUnavailable
          ? { unavailable: spec.safety.readUnavailable }
          : {}),
        isolated:
          isolation === "on" ? spec.safety.isolated : "nothing: `isolation: off` loads the user's own setup",
        passedThrough:
          isolation === "on"
            ? spec.safety.passedThrough
            : "everything the CLI reads from HOME and the environment",
      };
    }

    return { name: spec.name, call, detect, safety };
  }

  return { name: spec.name, safety: spec.safety, createAdapter, readOutcome, buildEnv };
}
