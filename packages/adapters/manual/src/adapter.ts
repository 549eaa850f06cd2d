import { mkdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Adapter, AdapterContext, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { redactSecrets, sanitizeError } from "@debatekit/adapter-kit";
import { DebatekitError } from "@debatekit/core";
import { MAX_MARKDOWN_BYTES, readTextInside, resolveInside, sleepUnlessAborted } from "@debatekit/files";
import type { SeatConfig } from "@debatekit/schema";
import { inboxDir, promptsDir, stepStem } from "./names.js";

const pollMs = 200;
/** Largest answer read from inbox/: far more than any answer, far less than memory. */
export const MAX_ANSWER_BYTES = MAX_MARKDOWN_BYTES;

/**
 * A text file inside the debate folder (undefined when absent), through files' checks: never through
 * a symlink out, only a regular file (a FIFO would hang the run, a directory or device has no text),
 * at most `MAX_ANSWER_BYTES`. Anything else throws a DebatekitError naming the file: the folder is
 * broken, which is not the same as a seat that has not answered yet.
 */
async function readInside(debateDir: string, file: string): Promise<string | undefined> {
  const read = await readTextInside(debateDir, file, MAX_ANSWER_BYTES);
  if (read.ok) return read.value;
  const first = read.errors[0]!;
  throw new DebatekitError(first.code, first.message, { file, field: "(file)" });
}

/** `rel` inside the debate folder; a path that leads out is PATH_ESCAPE naming the file, field `(file)`. */
function inside(debateDir: string, rel: string): string {
  try {
    return resolveInside(debateDir, rel);
  } catch (error) {
    if (!(error instanceof DebatekitError)) throw error;
    throw new DebatekitError(error.code, error.message, { file: rel, field: "(file)", cause: error });
  }
}

/** A folder of the debate (prompts/, inbox/), created when missing; never one that a symlink takes outside. */
async function ensureFolder(debateDir: string, name: string): Promise<void> {
  const target = inside(debateDir, name);
  try {
    await mkdir(target, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    throw new DebatekitError("FILE_NOT_FOLDER", `${name}/: expected a folder, found a file`, {
      file: `${name}/`,
      field: "(file)",
      cause: error,
    });
  }
}

/** Writes the prompt unless the same text is already there (a watcher must not see a change). */
async function writePrompt(debateDir: string, file: string, prompt: string): Promise<void> {
  // Checked before anything is written: the prompt must land inside the folder, whatever links it holds.
  const target = inside(debateDir, file);
  if ((await readInside(debateDir, file)) === prompt) return;
  const temp = `${target}.${process.pid}.tmp`;
  // Exclusive create: a planted symlink at the temp name is replaced, never followed out.
  await writeFile(temp, prompt, { flag: "wx" }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
    await unlink(temp);
    await writeFile(temp, prompt, { flag: "wx" });
  });
  await rename(temp, target);
}

/** The answer in inbox/<stem>.md or inbox/<stem>.json; blank files count as not there yet (still being written). */
async function readAnswer(
  debateDir: string,
  stem: string,
  changedAfterMs?: number,
): Promise<{ file: string; text: string } | undefined> {
  for (const ext of [".md", ".json"]) {
    const file = `${inboxDir}/${stem}${ext}`;
    if (changedAfterMs !== undefined) {
      // Only an answer edited after the retry was asked for counts: the rejected one is still there.
      const info = await stat(inside(debateDir, file)).catch(() => undefined);
      if (!info || info.mtimeMs <= changedAfterMs) continue;
    }
    const text = await readInside(debateDir, file);
    if (text !== undefined && text.trim() !== "") return { file, text };
  }
  return undefined;
}

/**
 * A seat answered by a person or another agent: the prompt goes to prompts/<stem>.md and the
 * answer is read from inbox/<stem>.md (or .json). Without `timeout_ms` on the seat the call returns
 * `pending` at once when there is no answer yet; with it, the call waits up to that long.
 */
export function createAdapter(seat: SeatConfig, context: AdapterContext): Adapter {
  const waitMs = seat.timeout_ms ?? 0;

  const call = async (request: SeatRequest): Promise<SeatCall> => {
    const started = performance.now();
    const envelope = (status: SeatCall["status"], text: string, error?: string): SeatCall => ({
      status,
      text,
      durationMs: Math.round(performance.now() - started),
      transport: "file",
      ...(error ? { error: sanitizeError(error) } : {}),
    });
    if (!request.step)
      return envelope("unavailable", "", "a manual seat needs the step (exchange, role, attempt)");
    const stem = stepStem(request.step);
    const first = stepStem({ ...request.step, attempt: 1 });
    const promptFile = `${promptsDir}/${stem}.md`;
    await ensureFolder(context.debateDir, promptsDir);
    await ensureFolder(context.debateDir, inboxDir);
    // The prompt file says where its answer goes; a retry also takes the first answer fixed in place.
    const where =
      stem === first
        ? `Write your answer to ${inboxDir}/${stem}.md.`
        : `Your earlier answer was rejected (the errors are below). Write the new one to ${inboxDir}/${stem}.md, or fix ${inboxDir}/${first}.md in place.`;
    await writePrompt(context.debateDir, promptFile, `<!-- ${where} -->\n\n${redactSecrets(request.prompt)}`);
    const askedAt = (await stat(inside(context.debateDir, promptFile))).mtimeMs;

    const deadline = performance.now() + waitMs;
    for (;;) {
      const answer =
        (await readAnswer(context.debateDir, stem)) ??
        (stem === first ? undefined : await readAnswer(context.debateDir, first, askedAt));
      if (answer) return envelope("ok", answer.text);
      if (request.signal?.aborted) return envelope("cancelled", "", "stopped by the user");
      if (performance.now() >= deadline) {
        return envelope("pending", "", `waiting for ${inboxDir}/${stem}.md (prompt in ${promptFile})`);
      }
      await sleepUnlessAborted(Math.min(pollMs, Math.max(1, deadline - performance.now())), request.signal);
    }
  };

  return {
    name: "manual",
    call,
    async detect() {
      return { adapter: "manual", installed: true, usable: true, path: join(context.debateDir, inboxDir) };
    },
  };
}
