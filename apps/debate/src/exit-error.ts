/** An error that ends the command with a one-line message and a chosen exit code. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExitError";
  }
}

/** The exit code an error asks for: its own `exitCode` when it carries one, else 1. */
export function exitCodeOf(error: unknown): number {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === "number" && Number.isInteger(code) && code > 0 ? code : 1;
}
