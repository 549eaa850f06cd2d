import { appendFile } from "node:fs/promises";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type { Adapter, AdapterContext, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { sanitizeError } from "@debatekit/adapter-kit";
import { DebatekitError } from "@debatekit/core";
import { resolveInside } from "@debatekit/files";
import type { SeatConfig } from "@debatekit/schema";
import { createRecordingReader, replayKey } from "./recording.js";

/** The recording used when a replay seat names no `file`. */
export const defaultReplayFile = "replay.jsonl";
/** When set, every request is appended to this file as one JSON line (tests count calls with it). */
export const replayLogEnv = "DEBATEKIT_REPLAY_LOG";

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((done) => {
    if (signal?.aborted) return done(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      done(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      done(false);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A seat that answers from a recorded JSONL file (see ReplayEntry), keyed by exchange, role and attempt. */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const name = seat.file ?? defaultReplayFile;
  const file = resolve(context.debateDir, name);
  // Named as the seat names it (relative to the debate folder), so messages are the same from any cwd.
  const shownAs = name;
  const readRecording = createRecordingReader(context.debateDir, name);
  /** A `file:` that leaves the folder, named as the seat's field in debate.md; other errors as they are. */
  const named = (error: unknown, role?: string): unknown =>
    error instanceof DebatekitError && error.code === "PATH_ESCAPE"
      ? new DebatekitError(
          "PATH_ESCAPE",
          `debate.md: \`file: ${name}\` of the ${role ?? "replay"} seat must name a file inside the debate folder (relative, no \`..\`, no symlink out): ${error.message}`,
          { file: "debate.md", field: role ? `seats.${role}.file` : "seats", cause: error },
        )
      : error;
  // A path out of the folder is a configuration error: refused when the seat is made, before any call.
  try {
    resolveInside(context.debateDir, name);
  } catch (error) {
    throw named(error, context.role);
  }
  /** The recording; a `file:` that leaves the folder (a symlink made since) is named as the seat's field. */
  const read = async (role?: string) => {
    try {
      return await readRecording();
    } catch (error) {
      throw named(error, role);
    }
  };
  const logFile = (context.env ?? process.env)[replayLogEnv];

  const call = async (request: SeatRequest): Promise<SeatCall> => {
    const started = performance.now();
    const envelope = (status: SeatCall["status"], text: string, error?: string): SeatCall => ({
      status,
      text,
      durationMs: Math.round(performance.now() - started),
      transport: "file",
      ...(error ? { error: sanitizeError(error) } : {}),
    });
    const step = request.step;
    if (!step) return envelope("unavailable", "", "a replay seat needs the step (exchange, role, attempt)");
    if (logFile) {
      const line = { ...step, pid: process.pid, file: shownAs };
      await appendFile(logFile, `${JSON.stringify(line)}\n`);
    }
    if (request.signal?.aborted) return envelope("cancelled", "", "stopped by the user");
    const recording = await read(step.role);
    if (!recording.ok) return envelope("unavailable", "", recording.error);
    const entry = recording.entries.get(replayKey(step.exchange, step.role, step.attempt));
    if (!entry) {
      return envelope(
        "unavailable",
        "",
        `${shownAs} has no answer for exchange ${step.exchange}, role ${step.role}, attempt ${step.attempt}`,
      );
    }
    if (entry.delay_ms && !(await sleep(entry.delay_ms, request.signal))) {
      return envelope("cancelled", "", "stopped by the user");
    }
    const result = envelope(entry.text.trim() === "" ? "empty" : "ok", entry.text);
    return entry.model ? { ...result, model: entry.model } : result;
  };

  return {
    name: "replay",
    call,
    async detect() {
      let problem: string | undefined;
      try {
        const recording = await read();
        if (!recording.ok) problem = recording.error;
      } catch (error) {
        if (!(error instanceof DebatekitError)) throw error;
        problem = sanitizeError(`${error.code}: ${error.message}`);
      }
      return {
        adapter: "replay",
        installed: true,
        path: file,
        usable: problem === undefined,
        ...(problem === undefined ? {} : { hint: problem }),
      };
    },
  };
}
