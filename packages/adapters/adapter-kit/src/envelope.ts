import type { AdapterResult, Usage } from "@debatekit/schema";
import type { ProcessOutcome } from "./process.js";
import { dropCutTail, redactSecrets, sanitizeError } from "./redact.js";
import type { SeatCall } from "./types.js";

/** What an adapter read from the program's output, to be folded into the envelope. */
export interface ParsedOutput {
  /** The answer text; empty or absent means the program answered nothing. */
  text?: string;
  /** Set when the output could not be read in the CLI's format (or reported an error in it). */
  parseError?: string;
  sessionId?: string;
  model?: string;
  usage?: Usage;
  /** Tools the model asked for during the call, as the CLI reported them (refused: seats have none). */
  toolCalls?: string[];
}

/** Options of {@link envelopeFromProcess}. */
export interface EnvelopeOptions {
  transport?: AdapterResult["transport"];
  timeoutMs: number;
  /** Secret values to remove from everything returned (see `secretsFromEnv`). */
  secrets?: readonly string[];
  /** The adapter's name, used in the messages ("claude exited with 2: ..."). */
  program?: string;
}

function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? "";
}

/**
 * Turns a process outcome and what the adapter parsed from it into the seat result envelope:
 * one status, a sanitized error of at most 200 characters, the redacted raw output.
 */
export function envelopeFromProcess(
  outcome: ProcessOutcome,
  parsed: ParsedOutput,
  options: EnvelopeOptions,
): SeatCall {
  const secrets = options.secrets ?? [];
  const program = options.program ?? "the program";
  // A stream cut at its byte cap may end in half a secret, which redaction cannot recognize: its
  // last word goes before anything (raw output, messages) is taken from it.
  const stdout = outcome.truncated ? dropCutTail(outcome.stdout) : outcome.stdout;
  const stderr = outcome.truncated ? dropCutTail(outcome.stderr) : outcome.stderr;
  const base = {
    durationMs: outcome.durationMs,
    exitCode: outcome.exitCode,
    transport: options.transport ?? "cli",
    raw: {
      stdout: redactSecrets(stdout, secrets),
      stderr: redactSecrets(stderr, secrets),
      truncated: outcome.truncated,
    },
    ...(parsed.sessionId ? { sessionId: parsed.sessionId } : {}),
    ...(parsed.model ? { model: parsed.model } : {}),
    ...(parsed.usage ? { usage: parsed.usage } : {}),
    ...(parsed.toolCalls?.length
      ? { toolCalls: parsed.toolCalls.slice(0, 20).map((name) => redactSecrets(name, secrets).slice(0, 200)) }
      : {}),
  };
  const fail = (status: SeatCall["status"], error: string): SeatCall => ({
    ...base,
    status,
    text: "",
    error: sanitizeError(error, secrets),
  });

  if (outcome.spawnError) {
    const missing = outcome.spawnError.code === "ENOENT";
    return fail(
      missing ? "unavailable" : "exit",
      missing
        ? `${program} is not installed or not on PATH`
        : `${program} could not start: ${outcome.spawnError.message}`,
    );
  }
  if (outcome.cancelled) return fail("cancelled", `${program} was stopped by the user`);
  if (outcome.timedOut) {
    return fail("timeout", `no answer within ${options.timeoutMs} ms; process group terminated`);
  }
  if (outcome.exitCode !== 0) {
    const how =
      outcome.exitCode === null ? `was killed by ${outcome.signal}` : `exited with ${outcome.exitCode}`;
    const detail = lastLine(stderr) || parsed.parseError || lastLine(stdout);
    return fail("exit", detail ? `${program} ${how}: ${detail}` : `${program} ${how}`);
  }
  if (parsed.parseError) return fail("parse_error", parsed.parseError);
  const text = redactSecrets(parsed.text ?? "", secrets);
  if (text.trim() === "") {
    // A model whose only move was a tool: say so (its tools are off), not a bare "answered nothing".
    if (base.toolCalls)
      return fail(
        "exit",
        `${program}: the model asked only for tools (${base.toolCalls.join(", ")}), which seats may not use`,
      );
    const hint = lastLine(stderr);
    return fail("empty", hint ? `${program} answered nothing: ${hint}` : `${program} answered nothing`);
  }
  return { ...base, status: "ok", text };
}
