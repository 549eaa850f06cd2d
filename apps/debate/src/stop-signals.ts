import type { CliIO } from "./output.js";

/** Exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells do). */
export const cancelledExitCode = 130;

/**
 * Turns Ctrl-C and SIGTERM into an abort signal for a long run: the first says `message` on stderr
 * and aborts (the run stops at its next safe point), a second exits at once. With `exitAfterMs`,
 * a process still alive that long after the first signal exits too (a close waiting on a Redis
 * that went away must not keep it). `dispose` removes the handlers.
 */
export function abortOnSignals(
  io: CliIO,
  message: string,
  options: { exitAfterMs?: number } = {},
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) process.exit(cancelledExitCode);
    io.stderr.write(`\n${signal}: ${message} (again to force)\n`);
    controller.abort();
    if (options.exitAfterMs !== undefined)
      setTimeout(() => process.exit(cancelledExitCode), options.exitAfterMs).unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
