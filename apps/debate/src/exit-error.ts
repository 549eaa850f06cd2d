// The secrets module alone: every command loads this file, most never need the rest of core.
import { type LabelledSecret, redactMessage, secretEnvValues } from "@debatekit/core/secrets";

/** An error that ends the command with a one-line message and a chosen exit code. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    // Messages quote what people typed: a URL's password or a key never leaves in one.
    super(redactMessage(message), options);
    this.name = "ExitError";
  }
}

/** The exit code an error asks for: its own `exitCode` when it carries one, else 1. */
export function exitCodeOf(error: unknown): number {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === "number" && Number.isInteger(code) && code > 0 ? code : 1;
}

/**
 * `text` as the CLI may print or write it (an error, a gate's outputs): core's redactMessage, with
 * `env`'s secrets (secretEnvValues: secret-named variables, URL passwords) and `more` (the
 * secrets of the seats the command asked: seatSecretValues) too. The last net before anything leaves the process.
 */
export function redactOutput(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  more: readonly LabelledSecret[] = [],
): string {
  return redactMessage(text, [...secretEnvValues(env), ...more]);
}

/** The first line of `error`'s message, redacted before it is cut (a PEM key spans lines). */
export function firstLineOf(error: unknown): string {
  return redactMessage(error instanceof Error ? error.message : String(error)).split("\n")[0]!;
}
