import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/** What `opencode run --format json` reported. `failed`: an `error` event arrived and no text did. */
export type ParsedOpencodeOutput = ParsedCliOutput;

interface OpencodeEvent {
  type?: string;
  sessionID?: string;
  part?: {
    text?: string;
    tokens?: { input?: number; output?: number; cache?: { read?: number; write?: number } };
    cost?: number;
    tool?: string;
    state?: { status?: string; input?: { tool?: unknown }; error?: string };
  };
  error?: { name?: string; data?: { message?: string; statusCode?: number } };
}

/**
 * The tool a `tool_use` event names. A tool the seat does not have comes back as opencode's
 * `invalid` tool, whose input names the one the model asked for.
 */
function toolOf(part: NonNullable<OpencodeEvent["part"]>): string | undefined {
  if (part.tool === "invalid" && typeof part.state?.input?.tool === "string") return part.state.input.tool;
  return part.tool;
}

/**
 * Reads opencode's NDJSON: `text` parts (joined, in order), `step_finish` tokens and cost
 * (summed over steps; the event may be missing), `sessionID` on every event, `tool_use` parts
 * (the tools the model asked for), and `error` events. A call whose model asked only for tools
 * and never answered is a failure that names them, not an empty answer.
 */
export function parseOpencodeOutput(stdout: string, _stderr = ""): ParsedOpencodeOutput {
  const events = readJsonLines<OpencodeEvent>(stdout);
  if (events.length === 0) {
    // Bad flags make opencode print its usage text only, with no error line.
    return {
      parseError: `opencode printed no JSON events (expected {"type":"text",...}); got: ${sanitizeError(stdout) || "nothing"}`,
    };
  }
  const texts: string[] = [];
  let sessionId: string | undefined;
  let usage:
    | { inputTokens: number; cachedInputTokens: number; outputTokens: number; costUsd?: number }
    | undefined;
  let failure: string | undefined;
  const toolCalls: string[] = [];
  const refused: string[] = [];
  for (const event of events) {
    sessionId ??= event.sessionID;
    if (event.type === "text" && typeof event.part?.text === "string") texts.push(event.part.text);
    else if (event.type === "tool_use" && event.part) {
      const tool = toolOf(event.part);
      if (tool && !toolCalls.includes(tool)) toolCalls.push(tool);
      if (tool && (event.part.tool === "invalid" || event.part.state?.status === "error")) refused.push(tool);
    } else if (event.type === "step_finish" && event.part) {
      usage ??= { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
      // `input` is the uncached part; cache reads and writes are input too.
      const cache = event.part.tokens?.cache;
      usage.inputTokens += (event.part.tokens?.input ?? 0) + (cache?.read ?? 0) + (cache?.write ?? 0);
      usage.cachedInputTokens += cache?.read ?? 0;
      usage.outputTokens += event.part.tokens?.output ?? 0;
      if (typeof event.part.cost === "number") usage.costUsd = (usage.costUsd ?? 0) + event.part.cost;
    } else if (event.type === "error" && !failure) {
      const status = event.error?.data?.statusCode ? ` ${event.error.data.statusCode}` : "";
      failure = `${event.error?.name ?? "error"}${status}: ${event.error?.data?.message ?? ""}`;
    }
  }
  const meta = {
    ...(sessionId ? { sessionId } : {}),
    ...(usage ? { usage } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
  };
  if (failure && texts.length === 0) {
    return { ...meta, failed: true, parseError: `opencode reported ${sanitizeError(failure, [], 160)}` };
  }
  const text = texts.join("\n");
  if (text.trim() === "" && toolCalls.length > 0) {
    const names = toolCalls.join(", ");
    return {
      ...meta,
      failed: true,
      parseError: refused.length
        ? `the model asked for tools the seat refused (${sanitizeError(refused.join(", "), [], 80)}) and gave no answer`
        : `the model used tools (${sanitizeError(names, [], 80)}) and gave no answer`,
    };
  }
  return { ...meta, text };
}
