// Each adapter against its real, pinned CLI talking to the loopback model server: a plain
// answer, a resumed session, an empty answer, HTTP 400, 401, 429 and 500, no login, and a hang
// that the per-seat timeout must end with the whole process group gone.

import { spawn } from "node:child_process";
import { createAdapter as createClaude } from "@debatekit/adapter-claude";
import { createAdapter as createCodex } from "@debatekit/adapter-codex";
import { createAdapter as createCopilot } from "@debatekit/adapter-copilot";
import { createAdapter as createGemini } from "@debatekit/adapter-gemini";
import { createAdapter as createKilo } from "@debatekit/adapter-kilo";
import type { Adapter, AdapterContext } from "@debatekit/adapter-kit";
import { createAdapter as createOpencode } from "@debatekit/adapter-opencode";
import { type ModelServer, startModelServer } from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv, recordFixture, suiteSeat } from "./harness.js";
import type { CliName } from "./install-clis.mjs";

type Factory = (seat: SeatConfig, context: AdapterContext) => Adapter;

const only = process.env.DEBATEKIT_CLIS?.split(",");
/** The CLIs this suite covers (qwen is proven by safety-qwen.cli.test.ts; its error cases are not measured yet). */
type ConformanceCli = Exclude<CliName, "qwen">;
const factories: Record<ConformanceCli, Factory> = {
  claude: createClaude,
  codex: createCodex,
  gemini: createGemini,
  opencode: createOpencode,
  copilot: createCopilot,
  kilo: createKilo,
};

/** How long a seat may take in the suite (generous: two shared cores, cold CLI start-up). */
const seatTimeoutMs = 90_000;
const hangTimeoutMs = 6_000;
/** A missing login must be reported without a model call: well within this. */
const noLoginTimeoutMs = 30_000;
/**
 * Kilo finds no provider only once its whole server has started (its own model gateway, indexing,
 * location services): 42 s measured with the machine's load average at 20, so it gets more room.
 */
const noLoginTimeouts: Partial<Record<ConformanceCli, number>> = { kilo: 90_000 };

/**
 * What each pinned CLI makes of an empty answer (measured): claude, codex and opencode finish
 * the turn with no text; gemini retries the call, then fails it ("empty response", exit 0 with
 * an error object); copilot fails the turn ("No response was returned"); kilo fails it too ("the
 * model returned no output", exit 1).
 */
const emptyAnswer: Record<ConformanceCli, { status: "empty" | "exit"; error: RegExp }> = {
  claude: { status: "empty", error: /answered nothing/ },
  codex: { status: "empty", error: /answered nothing/ },
  opencode: { status: "empty", error: /answered nothing/ },
  gemini: { status: "exit", error: /empty response/ },
  copilot: { status: "exit", error: /No response was returned/ },
  kilo: { status: "exit", error: /returned no output/ },
};

/** How each CLI words a 429/500 it gave up on (codex says "high demand" for a 5xx). */
const retryableError: Record<ConformanceCli, (status: number) => RegExp> = {
  claude: (status) => new RegExp(`API Error.*${status}.*scripted failure ${status}`),
  codex: (status) => (status === 429 ? /429 Too Many Requests/ : /high demand/),
  gemini: (status) => new RegExp(`${status}|scripted failure ${status}`),
  opencode: (status) => new RegExp(`scripted failure ${status}`),
  copilot: (status) => new RegExp(`${status}.*scripted failure ${status}`),
  kilo: (status) => new RegExp(`scripted failure ${status}`),
};

/** What the model server reports for the plain answer: cached input on top of fresh input. */
const plainUsage = { inputTokens: 5000, cachedInputTokens: 4096, outputTokens: 321 };

/**
 * What each pinned CLI passes on of `plainUsage` (measured): all but copilot report the tokens
 * (each in its own split of cached and uncached input); copilot's `result` event has no token
 * counts (only `premiumRequests`), so the runner estimates its usage.
 */
const reportedUsage: Record<ConformanceCli, typeof plainUsage | undefined> = {
  claude: plainUsage,
  codex: plainUsage,
  gemini: plainUsage,
  opencode: plainUsage,
  copilot: undefined,
  kilo: plainUsage,
};

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

test("the leftover-process check sees a live process of a fresh HOME, and not once it is gone", async () => {
  const fresh = createFreshHome("probe");
  const child = spawn("sleep", ["30"], {
    env: { PATH: process.env.PATH, HOME: fresh.home },
    stdio: "ignore",
  });
  await new Promise((resolve) => child.once("spawn", resolve));
  expect(processesWithEnv(fresh.home)).toEqual([child.pid]);
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  expect(leftovers(fresh)).toEqual([]);
  fresh.remove();
});

/** Processes a test left behind: found by the fresh HOME, or by its TMPDIR for a seat that moves HOME (kilo). */
function leftovers(fresh: ReturnType<typeof createFreshHome>): number[] {
  return [...new Set([...processesWithEnv(fresh.home), ...processesWithEnv(fresh.tmp, "TMPDIR")])];
}

for (const [cli, factory] of Object.entries(factories) as [ConformanceCli, Factory][]) {
  if (only && !only.includes(cli)) continue;
  describe(`${cli} (real CLI)`, () => {
    async function run(
      scenario: string,
      prompt: string,
      options: { sessionId?: string; timeoutMs?: number; keepHome?: ReturnType<typeof createFreshHome> } = {},
    ) {
      const fresh = options.keepHome ?? createFreshHome(cli);
      const env = pointCliAtServer(cli, server, fresh);
      const adapter = factory(suiteSeat(cli), { debateDir: fresh.cwd, env });
      const timeoutMs = options.timeoutMs ?? seatTimeoutMs;
      const call = await adapter.call({
        prompt,
        timeoutMs,
        cwd: fresh.cwd,
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
      });
      recordFixture(cli, scenario, call, { timeoutMs });
      return { call, fresh };
    }

    test("detect() finds the pinned binary and its version", async () => {
      const fresh = createFreshHome(cli);
      const detection = await factory(suiteSeat(cli), {
        debateDir: fresh.cwd,
        env: pointCliAtServer(cli, server, fresh),
      }).detect();
      fresh.remove();
      expect(detection).toMatchObject({ adapter: cli, installed: true, usable: true });
      expect(detection.version).toMatch(/^\d+\.\d+\.\d+$/);
    });

    test("a plain answer comes back as status ok with the model's exact text, session id and usage", async () => {
      server.setReply((req) =>
        req.lastUserText.includes("MARK-PLAIN")
          ? { text: `plain answer from ${cli}`, usage: plainUsage }
          : "side call",
      );
      const before = server.requests.length;
      const { call, fresh } = await run("plain", `Say hello. MARK-PLAIN`);
      fresh.remove();
      expect(call.error).toBeUndefined();
      expect(call).toMatchObject({
        status: "ok",
        text: `plain answer from ${cli}`,
        transport: "cli",
        exitCode: 0,
      });
      expect(call.sessionId).toMatch(/\S{6,}/);
      // Tokens as the server reported them, cached input counted in input whatever the API's split.
      const tokens = reportedUsage[cli];
      if (tokens) expect(call.usage).toMatchObject(tokens);
      else expect(call.usage).toBeUndefined();
      // claude, opencode and kilo price the call themselves (list prices of the model they think it is).
      if (cli === "claude" || cli === "opencode" || cli === "kilo")
        expect(call.usage?.costUsd).toBeGreaterThan(0);
      else expect(call.usage?.costUsd).toBeUndefined();
      // The prompt reached the model through stdin, never through argv.
      expect(server.requests.slice(before).some((r) => r.allText.includes("MARK-PLAIN"))).toBe(true);
    });

    test("a resumed session sends the earlier turn back to the model", async () => {
      server.setReply((req) =>
        req.lastUserText.includes("MARK-SECOND")
          ? req.allText.includes("first-answer-xyz")
            ? "remembered"
            : "forgot"
          : req.lastUserText.includes("MARK-FIRST")
            ? "first-answer-xyz"
            : "side call",
      );
      const first = await run("resume-first", "Remember this. MARK-FIRST");
      expect(first.call.status).toBe("ok");
      expect(first.call.sessionId).toBeDefined();
      const second = await run("resume-second", "What did you answer? MARK-SECOND", {
        sessionId: first.call.sessionId!,
        keepHome: first.fresh,
      });
      first.fresh.remove();
      expect(second.call.error).toBeUndefined();
      expect(second.call).toMatchObject({ status: "ok", text: "remembered" });
      // Two whole calls: kilo took about 55 s per call with the machine's load average at 20.
    }, 240_000);

    for (const status of [400, 401] as const) {
      test(`an HTTP ${status} from the model is status exit with the cause in error`, async () => {
        server.setReply(() => ({ error: status, message: `scripted failure ${status}` }));
        const { call, fresh } = await run(`error-${status}`, `Fail please. MARK-${status}`);
        fresh.remove();
        expect(call.status).toBe("exit");
        expect(call.text).toBe("");
        expect(call.error?.length).toBeLessThanOrEqual(200);
        expect(call.error).toMatch(new RegExp(`${status}|scripted failure|nvalid|uthenticat|ejected`));
      });
    }

    test(`an empty model answer is status ${emptyAnswer[cli].status}, never ok with no text`, async () => {
      server.setReply(() => "");
      const { call, fresh } = await run("empty", "Say nothing. MARK-EMPTY");
      fresh.remove();
      expect(call.status).toBe(emptyAnswer[cli].status);
      expect(call.text).toBe("");
      expect(call.error).toMatch(emptyAnswer[cli].error);
    });

    for (const status of [429, 500] as const) {
      test(`an HTTP ${status} from the model ends on its own as status exit naming the cause`, async () => {
        // retry-after-ms 0: CLIs that retry a 429/5xx themselves do it at once (see README).
        server.setReply(() => ({ error: status, message: `scripted failure ${status}`, retryAfterMs: 0 }));
        const { call, fresh } = await run(`error-${status}`, `Fail please. MARK-${status}`);
        try {
          expect(call.status).toBe("exit");
          expect(call.text).toBe("");
          expect(call.error?.length).toBeLessThanOrEqual(200);
          expect(call.error).toMatch(retryableError[cli](status));
          expect(leftovers(fresh)).toEqual([]);
        } finally {
          fresh.remove();
        }
      });
    }

    test("without a login or key the call is status unavailable, says how to log in, asks no model", async () => {
      const fresh = createFreshHome(cli);
      const env = { PATH: process.env.PATH, HOME: fresh.home, TMPDIR: fresh.tmp };
      const adapter = factory(suiteSeat(cli), { debateDir: fresh.cwd, env });
      const before = server.requests.length;
      const timeoutMs = noLoginTimeouts[cli] ?? noLoginTimeoutMs;
      const call = await adapter.call({ prompt: "hi", timeoutMs, cwd: fresh.cwd });
      recordFixture(cli, "not-logged-in", call, { timeoutMs });
      try {
        expect(call.error).toMatch(/log ?in|Auth method|authentication/i);
        expect(call.status).toBe("unavailable");
        expect(server.requests.length).toBe(before);
        expect(leftovers(fresh)).toEqual([]);
      } finally {
        fresh.remove();
      }
    });

    test("a model that never answers ends in status timeout with no process left behind", async () => {
      server.setReply(() => ({ hang: true }));
      const { call, fresh } = await run("hang", "Hang please. MARK-HANG", { timeoutMs: hangTimeoutMs });
      try {
        expect(call.status).toBe("timeout");
        expect(call.durationMs).toBeGreaterThanOrEqual(hangTimeoutMs);
        expect(call.durationMs).toBeLessThan(hangTimeoutMs + 15_000);
        expect(leftovers(fresh)).toEqual([]);
      } finally {
        fresh.remove();
      }
    });
  });
}
