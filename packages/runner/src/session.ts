import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import type { Adapter, SeatCall, SeatRequest } from "@debatekit/adapter-kit";
import { redactSecrets } from "@debatekit/adapter-kit";
import { resolveInside, writeFileAtomic } from "@debatekit/files";
import type { SeatConfig, SeatSession } from "@debatekit/schema";
import { validateSeatSession } from "@debatekit/schema";

/** Adapters whose CLI can resume a session (the others ignore `session: resume`). */
export const resumableAdapters: ReadonlySet<string> = new Set([
  "claude",
  "codex",
  "gemini",
  "opencode",
  "copilot",
  "kilo",
  "acp",
]);

/** Whether a seat resumes its CLI session between calls. */
export function resumesSession(seat: SeatConfig): boolean {
  return seat.session === "resume" && resumableAdapters.has(seat.adapter);
}

/**
 * The least share of the new prompt that must equal the last one's start for a resume to pay:
 * below it the layout moved (or the prompt was cut), and a resumed session would hold the old
 * prompt, its answer and most of the new one again, so a new session with the whole prompt is cheaper.
 */
export const minSharedPrefix = 0.5;

/** What a resumed call is told before the new part of its prompt. */
export const resumeHeader =
  "[debatekit] This continues the session. Your previous prompt holds up to the point where the " +
  "text below starts; the text below replaces the rest of it: the turns since your last answer, " +
  "the current values and your new request. Answer that request exactly as your instructions say.\n\n";

/**
 * What to send to a resumed session: the new prompt from the start of the line where it first
 * differs from the previous one (so the earlier part is in the session already), after
 * {@link resumeHeader}. Undefined when too little is shared ({@link minSharedPrefix}).
 */
export function resumeText(previous: string, next: string): string | undefined {
  const limit = Math.min(previous.length, next.length);
  let same = 0;
  while (same < limit && previous.charCodeAt(same) === next.charCodeAt(same)) same++;
  if (same === next.length && same === previous.length) return undefined; // nothing new: ask afresh
  const lineStart = next.lastIndexOf("\n", same - 1) + 1;
  if (lineStart < next.length * minSharedPrefix) return undefined;
  return `${resumeHeader}${next.slice(lineStart)}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const sessionFile = (role: string) => `.debate/sessions/${role}.json`;

/** The seat's stored session, or undefined when there is none usable for this adapter and model. */
export async function readSeatSession(
  dir: string,
  role: string,
  seat: SeatConfig,
): Promise<SeatSession | undefined> {
  const text = await readFile(resolveInside(dir, sessionFile(role)), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined; // a torn or edited file: the next call starts a new session
  }
  const checked = validateSeatSession(data);
  if (!checked.ok) return undefined;
  const session = checked.value;
  // Another CLI or model sits in the seat now: its sessions are not this one's.
  if (session.role !== role || session.adapter !== seat.adapter || session.model !== seat.model)
    return undefined;
  return session;
}

/** Stores the session a call used and the whole prompt it stood for (redacted), atomically. */
export async function writeSeatSession(
  dir: string,
  role: string,
  seat: SeatConfig,
  sessionId: string,
  prompt: string,
  secrets: readonly string[],
): Promise<void> {
  const kept = redactSecrets(prompt, secrets);
  const session: SeatSession = {
    version: 1,
    role,
    adapter: seat.adapter,
    ...(seat.model ? { model: seat.model } : {}),
    session_id: sessionId,
    prompt_sha256: sha256(kept),
    prompt: kept,
  };
  await mkdir(resolveInside(dir, ".debate/sessions"), { recursive: true });
  await writeFileAtomic(resolveInside(dir, sessionFile(role)), `${JSON.stringify(session, null, 2)}\n`);
}

/** One call as it was made: what was sent, whether it resumed a session, and the answer. */
export interface SentCall {
  sent: string;
  session: "new" | "resumed";
  answer: SeatCall;
}

/**
 * Calls a seat that resumes sessions: with a usable stored session and a prompt that extends the
 * last one, only the new part goes to the resumed session. When the session is gone (the CLI
 * fails or times out, or answers from a session other than the one resumed: it started a new one
 * that never saw the earlier part), that answer is discarded and the whole prompt goes to a new session.
 * Returns every call made, in order (one or two), for the journal.
 */
export async function callWithSession(
  adapter: Adapter,
  request: SeatRequest,
  stored: SeatSession | undefined,
): Promise<SentCall[]> {
  const text = stored ? resumeText(stored.prompt, request.prompt) : undefined;
  if (!stored || text === undefined) {
    const { sessionId: _none, ...fresh } = request;
    return [{ sent: request.prompt, session: "new", answer: await adapter.call(fresh) }];
  }
  const resumed = await adapter.call({ ...request, prompt: text, sessionId: stored.session_id });
  // `opencode acp` does not refuse a session/load of a session it no longer has: it waits until the
  // seat's timeout (measured with 1.18.33; `opencode run --session` fails at once). A resumed call
  // that times out is therefore taken as a gone session too, and the whole prompt is sent once more.
  const gone =
    resumed.status === "timeout" ||
    resumed.status === "exit" ||
    resumed.status === "parse_error" ||
    resumed.status === "empty" ||
    (resumed.status === "ok" && resumed.sessionId !== stored.session_id);
  if (!gone || request.signal?.aborted) return [{ sent: text, session: "resumed", answer: resumed }];
  // The answer of a new session that saw only the new part cannot be used: on record as a failure.
  const discarded: SeatCall = {
    ...resumed,
    status: resumed.status === "ok" ? "exit" : resumed.status,
    text: "",
    error:
      `session ${stored.session_id} could not be resumed (${resumed.status === "ok" ? `the CLI answered from session ${resumed.sessionId ?? "(none)"}` : (resumed.error ?? resumed.status)}); the whole prompt was sent to a new session`.slice(
        0,
        200,
      ),
  };
  const { sessionId: _gone, ...fresh } = request;
  const full = await adapter.call(fresh);
  return [
    { sent: text, session: "resumed", answer: discarded },
    { sent: request.prompt, session: "new", answer: full },
  ];
}
