import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Adapter, AdapterContext, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { redactSecrets, sanitizeError } from "@debatekit/adapter-kit";
import type { SeatConfig } from "@debatekit/schema";
import { inboxDir, promptsDir, stepStem } from "./names.js";

const pollMs = 200;

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes the prompt unless the same text is already there (a watcher must not see a change). */
async function writePrompt(file: string, prompt: string): Promise<void> {
  if ((await readIfPresent(file)) === prompt) return;
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, prompt);
  await rename(temp, file);
}

/** The answer in inbox/<stem>.md or inbox/<stem>.json; blank files count as not there yet (still being written). */
async function readAnswer(
  debateDir: string,
  stem: string,
): Promise<{ file: string; text: string } | undefined> {
  for (const ext of [".md", ".json"]) {
    const file = join(inboxDir, `${stem}${ext}`);
    const text = await readIfPresent(join(debateDir, file));
    if (text !== undefined && text.trim() !== "") return { file, text };
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });
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
    const promptFile = join(promptsDir, `${stem}.md`);
    await mkdir(join(context.debateDir, promptsDir), { recursive: true });
    await mkdir(join(context.debateDir, inboxDir), { recursive: true });
    await writePrompt(join(context.debateDir, promptFile), redactSecrets(request.prompt));

    const deadline = performance.now() + waitMs;
    for (;;) {
      const answer = await readAnswer(context.debateDir, stem);
      if (answer) return envelope("ok", answer.text);
      if (request.signal?.aborted) return envelope("cancelled", "", "stopped by the user");
      if (performance.now() >= deadline) {
        return envelope("pending", "", `waiting for ${inboxDir}/${stem}.md (prompt in ${promptFile})`);
      }
      await sleep(Math.min(pollMs, Math.max(1, deadline - performance.now())), request.signal);
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
