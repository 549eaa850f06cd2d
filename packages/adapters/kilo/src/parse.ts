import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/** What `kilo run --format json` reported. `failed`: an `error` event arrived and no text did. */
export type ParsedKiloOutput = ParsedCliOutput;

type Usage = NonNullable<ParsedCliOutput["usage"]>;

/** One event of kilo 7.7.7's NDJSON (OpenCode's event shapes, cut to the fields read). */
interface KiloEvent {
  type?: string;
  sessionID?: string;
  part?: {
    text?: string;
    tool?: string;
    state?: { status?: string };
    cost?: number;
    tokens?: { input?: number; output?: number; cache?: { read?: number; write?: number } };
  };
  /** An object like OpenCode's, or (kilo's own failures, e.g. an empty answer) a plain string. */
  error?: string | { name?: string; data?: { message?: string; statusCode?: number } };
}

/** The text of an `error` event: kilo's plain string, or OpenCode's `name statusCode: message`. */
function errorText(error: KiloEvent["error"]): string {
  if (typeof error === "string") return error;
  const status = error?.data?.statusCode ? ` ${error.data.statusCode}` : "";
  return `${error?.name ?? "error"}${status}: ${error?.data?.message ?? ""}`;
}

/** Adds one `step_finish` to the usage so far: cache reads and writes are input too. */
function addStep(usage: Usage | undefined, part: NonNullable<KiloEvent["part"]>): Usage {
  const cache = part.tokens?.cache;
  const sum: Usage = {
    inputTokens:
      (usage?.inputTokens ?? 0) + (part.tokens?.input ?? 0) + (cache?.read ?? 0) + (cache?.write ?? 0),
    cachedInputTokens: (usage?.cachedInputTokens ?? 0) + (cache?.read ?? 0),
    outputTokens: (usage?.outputTokens ?? 0) + (part.tokens?.output ?? 0),
  };
  const cost = typeof part.cost === "number" ? (usage?.costUsd ?? 0) + part.cost : usage?.costUsd;
  return cost === undefined ? sum : { ...sum, costUsd: cost };
}

/**
 * Reads kilo's NDJSON: `text` parts (joined, in order), `step_finish` tokens and cost (summed),
 * `sessionID` on every event, `tool_use` parts (the tools the model asked for: one the seat does
 * not have arrives in state `error`, "Model tried to call unavailable tool"), and `error` events.
 * A call whose model asked only for tools and never answered is a failure that names them.
 */
export function parseKiloOutput(stdout: string, _stderr = ""): ParsedKiloOutput {
  const events = readJsonLines<KiloEvent>(stdout);
  if (events.length === 0)
    return {
      parseError: `kilo printed no JSON events (expected {"type":"text",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  const texts: string[] = [];
  const toolCalls = new Set<string>();
  let sessionId: string | undefined;
  let usage: Usage | undefined;
  let failure: string | undefined;
  for (const event of events) {
    sessionId ??= event.sessionID;
    if (event.type === "text" && typeof event.part?.text === "string") texts.push(event.part.text);
    else if (event.type === "tool_use" && event.part?.tool) toolCalls.add(event.part.tool);
    else if (event.type === "step_finish" && event.part) usage = addStep(usage, event.part);
    else if (event.type === "error") failure ??= errorText(event.error);
  }
  const names = [...toolCalls];
  const meta = {
    ...(sessionId ? { sessionId } : {}),
    ...(usage ? { usage } : {}),
    ...(names.length ? { toolCalls: names } : {}),
  };
  const text = texts.join("\n");
  // Kilo prints an empty text part before failing an empty answer: only real text outweighs an error.
  if (failure && text.trim() === "")
    return { ...meta, failed: true, parseError: `kilo reported ${sanitizeError(failure, [], 160)}` };
  if (text.trim() === "" && names.length > 0)
    return {
      ...meta,
      failed: true,
      parseError: `the model asked for tools (${sanitizeError(names.join(", "), [], 80)}) and gave no answer`,
    };
  return { ...meta, text };
}
