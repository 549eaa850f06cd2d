// The acp adapter against a real ACP agent: the pinned `opencode acp`, whose model provider is
// the loopback model server. A plain answer, a resumed session (session/load in a new process),
// an empty answer, model errors (400, 401) and a hang that the per-seat timeout ends
// with the process group gone. DEBATEKIT_RECORD_FIXTURES=1 saves each run as a fixture of the
// acp package (packages/adapters/acp/fixtures/opencode-<version>/), replayed by its fast tests.
import { createAdapter } from "@debatekit/adapter-acp";
import type { SeatCall } from "@debatekit/adapter-kit";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createFreshHome,
  type FreshHome,
  pointCliAtServer,
  processesWithEnv,
  recordAcpFixture,
} from "./harness.js";
import { cliBinPath, pinnedClis } from "./install-clis.mjs";

const seatTimeoutMs = 90_000;
const hangTimeoutMs = 6_000;
const seat = { adapter: "acp" as const, command: [cliBinPath("opencode"), "acp"] };

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

const fixtureFolder = `opencode-${pinnedClis.opencode.version}`;

async function ask(
  scenario: string,
  prompt: string,
  options: { fresh?: FreshHome; sessionId?: string; timeoutMs?: number } = {},
): Promise<{ call: SeatCall; fresh: FreshHome }> {
  const fresh = options.fresh ?? createFreshHome("acp-opencode");
  const env = pointCliAtServer("opencode", server, fresh);
  const adapter = createAdapter(seat, { debateDir: fresh.cwd, env });
  const timeoutMs = options.timeoutMs ?? seatTimeoutMs;
  const sessionId = options.sessionId ? { sessionId: options.sessionId } : {};
  const call = await adapter.call({ prompt, timeoutMs, cwd: fresh.cwd, ...sessionId });
  recordAcpFixture(fixtureFolder, scenario, call, { prompt, timeoutMs, ...sessionId });
  return { call, fresh };
}

describe(`acp adapter with opencode ${pinnedClis.opencode.version} (real agent)`, () => {
  test("detect() finds opencode and its version", async () => {
    const fresh = createFreshHome("acp-opencode");
    const detection = await createAdapter(seat, {
      debateDir: fresh.cwd,
      env: pointCliAtServer("opencode", server, fresh),
    }).detect();
    fresh.remove();
    expect(detection).toMatchObject({
      adapter: "acp",
      installed: true,
      usable: true,
      version: pinnedClis.opencode.version,
    });
  });

  test("a plain answer: the agent's message chunks, session id, model and usage", async () => {
    server.setReply((req) =>
      req.allText.includes("MARK-ACP-PLAIN")
        ? {
            text: "plain answer over acp",
            usage: { inputTokens: 5000, cachedInputTokens: 4096, outputTokens: 321 },
          }
        : "side call",
    );
    const before = server.requests.length;
    const { call, fresh } = await ask("plain", "Say hello. MARK-ACP-PLAIN");
    fresh.remove();
    expect(call.error).toBeUndefined();
    expect(call).toMatchObject({
      status: "ok",
      text: "plain answer over acp",
      transport: "acp",
      model: "anthropic/claude-sonnet-4-5",
      // opencode reports 904 uncached + 4096 cache reads: the envelope counts all input.
      usage: { inputTokens: 5000, cachedInputTokens: 4096, outputTokens: 321 },
    });
    expect(call.sessionId).toMatch(/^ses_/);
    expect(call.raw?.stdout).toContain('"sessionUpdate":"agent_message_chunk"');
    expect(server.requests.slice(before).some((r) => r.allText.includes("MARK-ACP-PLAIN"))).toBe(true);
  });

  test("a resumed session (session/load in a new agent process) sends the earlier turn back", async () => {
    server.setReply((req) =>
      req.lastUserText.includes("MARK-ACP-SECOND")
        ? req.allText.includes("first-acp-answer")
          ? "remembered over acp"
          : "forgot"
        : req.allText.includes("MARK-ACP-FIRST")
          ? "first-acp-answer"
          : "side call",
    );
    const first = await ask("resume-first", "Remember this. MARK-ACP-FIRST");
    try {
      expect(first.call).toMatchObject({ status: "ok", text: "first-acp-answer" });
      const second = await ask("resume-second", "What did you answer? MARK-ACP-SECOND", {
        fresh: first.fresh,
        sessionId: first.call.sessionId!,
      });
      expect(second.call.error).toBeUndefined();
      // Only this turn's text: the history session/load replays is not part of the answer.
      expect(second.call).toMatchObject({
        status: "ok",
        text: "remembered over acp",
        sessionId: first.call.sessionId,
      });
    } finally {
      first.fresh.remove();
    }
  });

  for (const status of [400, 401] as const) {
    test(`an HTTP ${status} from the model is status exit with the model's message`, async () => {
      server.setReply(() => ({ error: status, message: `scripted failure ${status}` }));
      const { call, fresh } = await ask(`error-${status}`, `Fail please. MARK-ACP-${status}`);
      fresh.remove();
      expect(call.status).toBe("exit");
      expect(call.text).toBe("");
      expect(call.error).toContain(`scripted failure ${status}`);
      expect(call.error!.length).toBeLessThanOrEqual(200);
    });
  }

  test("an empty model answer is status empty, not ok with no text", async () => {
    server.setReply((req) => (req.allText.includes("MARK-ACP-EMPTY") ? "" : "side call"));
    const { call, fresh } = await ask("empty", "Say nothing. MARK-ACP-EMPTY");
    fresh.remove();
    expect(call).toMatchObject({ status: "empty", text: "", transport: "acp" });
    expect(call.error).toMatch(/answered nothing \(stopReason end_turn\)$/);
  });

  test("a model that never answers ends in status timeout with no process left behind", async () => {
    server.setReply(() => ({ hang: true }));
    const { call, fresh } = await ask("hang", "Hang please. MARK-ACP-HANG", { timeoutMs: hangTimeoutMs });
    try {
      expect(call.status).toBe("timeout");
      expect(call.error).toBe(`no answer within ${hangTimeoutMs} ms; process group terminated`);
      expect(call.durationMs).toBeGreaterThanOrEqual(hangTimeoutMs);
      expect(call.durationMs).toBeLessThan(hangTimeoutMs + 15_000);
      expect(processesWithEnv(fresh.home)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});
