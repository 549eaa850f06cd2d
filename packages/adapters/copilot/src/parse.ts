import type { ParsedOutput } from "@debatekit/adapter-kit";

/** What `copilot --output-format json` reported, plus whether it reported an error. */
export interface ParsedCopilotOutput extends ParsedOutput {
  /** True when a `session.error` arrived or `result.exitCode` is non-zero, and no answer did. */
  failed?: boolean;
  /** True when the CLI says it has no login or key (status `unavailable`). */
  unusable?: boolean;
}

interface CopilotEvent {
  type?: string;
  sessionId?: string;
  exitCode?: number;
  data?: { content?: string; model?: string; message?: string; errorType?: string; statusCode?: number };
}

function cut(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Reads copilot's JSONL: `assistant.message` (the last non-empty one is the answer; deltas are
 * ignored), `result` (session id, exit code), `session.error` (errorType, statusCode, message).
 * Copilot reports no token counts, so there is no usage.
 */
export function parseCopilotOutput(stdout: string, stderr = ""): ParsedCopilotOutput {
  const events: CopilotEvent[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      events.push(JSON.parse(line) as CopilotEvent);
    } catch {
      // A partial line (killed mid-write): not an event.
    }
  }
  if (events.length === 0) {
    // Not logged in: plain text on stderr ("Error: No authentication information found." and
    // a list of ways to log in), nothing on stdout.
    const stated = /^Error: (.+)$/m.exec(stderr)?.[1];
    if (stated) {
      return {
        failed: true,
        ...(/authentication|log ?in|token/i.test(stated) ? { unusable: true } : {}),
        parseError: `copilot: ${cut(stated, 120)} (log in with \`copilot\` then /login, or set GH_TOKEN)`,
      };
    }
    return { parseError: `copilot printed no JSON events; got: ${cut(stdout) || "nothing"}` };
  }
  let text: string | undefined;
  let model: string | undefined;
  let sessionId: string | undefined;
  let exitCode: number | undefined;
  let failure: string | undefined;
  for (const event of events) {
    if (event.type === "assistant.message" && event.data?.content) {
      text = event.data.content;
      model = event.data.model ?? model;
    } else if (event.type === "result") {
      sessionId = event.sessionId ?? sessionId;
      exitCode = event.exitCode;
    } else if (event.type === "session.error" && !failure) {
      const status = event.data?.statusCode ? ` ${event.data.statusCode}` : "";
      failure = `${event.data?.errorType ?? "error"}${status}: ${event.data?.message ?? ""}`;
    }
  }
  const meta = { ...(sessionId ? { sessionId } : {}), ...(model ? { model } : {}) };
  if ((failure || (exitCode !== undefined && exitCode !== 0)) && !text) {
    return {
      ...meta,
      failed: true,
      parseError: `copilot reported ${cut(failure ?? `exit code ${exitCode}`, 160)}`,
    };
  }
  return { ...meta, text: text ?? "" };
}
