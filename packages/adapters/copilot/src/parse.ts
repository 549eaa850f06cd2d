import type { ParsedCliOutput } from "@debatekit/adapter-kit";
import { readJsonLines, sanitizeError } from "@debatekit/adapter-kit";

/**
 * What `copilot --output-format json` reported. `failed`: a `session.error` arrived or
 * `result.exitCode` is non-zero, and no answer did; `unusable`: not logged in.
 */
export type ParsedCopilotOutput = ParsedCliOutput;

interface CopilotEvent {
  type?: string;
  sessionId?: string;
  exitCode?: number;
  data?: {
    content?: string;
    model?: string;
    message?: string;
    errorType?: string;
    statusCode?: number;
    toolRequests?: Array<{ name?: unknown }>;
    toolName?: unknown;
    success?: boolean;
  };
}

/**
 * Reads copilot's JSONL: `assistant.message` (the last non-empty one is the answer; deltas are
 * ignored), `result` (session id, exit code), `session.error` (errorType, statusCode, message),
 * the tools the model asked for (`assistant.message` `toolRequests`, `tool.execution_start`) and
 * those that did not run (`tool.execution_complete` with `success: false`). A call whose model
 * asked only for tools and never answered is a failure that names them, not an empty answer.
 * Copilot reports no token counts, so there is no usage.
 */
export function parseCopilotOutput(stdout: string, stderr = ""): ParsedCopilotOutput {
  const events = readJsonLines<CopilotEvent>(stdout);
  if (events.length === 0) {
    // Not logged in: plain text on stderr ("Error: No authentication information found." and
    // a list of ways to log in), nothing on stdout.
    const stated = /^Error: (.+)$/m.exec(stderr)?.[1];
    if (stated) {
      return {
        failed: true,
        ...(/authentication|log ?in|token/i.test(stated) ? { unusable: true } : {}),
        parseError: `copilot: ${sanitizeError(stated, [], 120)} (log in with \`copilot\` then /login, or set GH_TOKEN)`,
      };
    }
    return { parseError: `copilot printed no JSON events; got: ${sanitizeError(stdout) || "nothing"}` };
  }
  let text: string | undefined;
  let model: string | undefined;
  let sessionId: string | undefined;
  let exitCode: number | undefined;
  let failure: string | undefined;
  const toolCalls: string[] = [];
  let refused = 0;
  const noteTool = (name: unknown) => {
    if (typeof name === "string" && name && !toolCalls.includes(name)) toolCalls.push(name);
  };
  for (const event of events) {
    if (event.type === "assistant.message") {
      for (const request of event.data?.toolRequests ?? []) noteTool(request?.name);
      if (event.data?.content) {
        text = event.data.content;
        model = event.data.model ?? model;
      }
    } else if (event.type === "tool.execution_start") noteTool(event.data?.toolName);
    else if (event.type === "tool.execution_complete" && event.data?.success === false) refused += 1;
    else if (event.type === "result") {
      sessionId = event.sessionId ?? sessionId;
      exitCode = event.exitCode;
    } else if (event.type === "session.error" && !failure) {
      const status = event.data?.statusCode ? ` ${event.data.statusCode}` : "";
      failure = `${event.data?.errorType ?? "error"}${status}: ${event.data?.message ?? ""}`;
    }
  }
  const meta = {
    ...(sessionId ? { sessionId } : {}),
    ...(model ? { model } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
  };
  if (!text?.trim() && toolCalls.length > 0) {
    const names = sanitizeError(toolCalls.join(", "), [], 80);
    return {
      ...meta,
      failed: true,
      parseError: refused
        ? `the model asked for tools the seat refused (${names}) and gave no answer`
        : `the model used tools (${names}) and gave no answer`,
    };
  }
  if ((failure || (exitCode !== undefined && exitCode !== 0)) && !text) {
    return {
      ...meta,
      failed: true,
      parseError: `copilot reported ${sanitizeError(failure ?? `exit code ${exitCode}`, [], 160)}`,
    };
  }
  return { ...meta, text: text ?? "" };
}
