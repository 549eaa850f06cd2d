// `session: resume` measured with the real CLIs against the loopback model server: a seat's
// second turn sent through a resumed session (only what is new, the runner's callWithSession) and
// the same turn sent whole to a new session, for each CLI that can resume (claude, codex, gemini,
// opencode, copilot, and acp with `opencode acp`). Prints, per CLI, the bytes debatekit sent and the
// bytes the CLI then sent to the model; asserts that the resumed session really held the first
// turn, and that a session that is gone falls back to the whole prompt in a new session.
import { randomUUID } from "node:crypto";
import { createAdapter as createAcp } from "@debatekit/adapter-acp";
import { createAdapter as createClaude } from "@debatekit/adapter-claude";
import { createAdapter as createCodex } from "@debatekit/adapter-codex";
import { createAdapter as createCopilot } from "@debatekit/adapter-copilot";
import { createAdapter as createGemini } from "@debatekit/adapter-gemini";
import type { Adapter, AdapterContext } from "@debatekit/adapter-kit";
import { createAdapter as createOpencode } from "@debatekit/adapter-opencode";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { callWithSession } from "@debatekit/runner";
import type { SeatConfig, SeatSession } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, suiteSeat } from "./harness.js";
import { type CliName, cliBinPath } from "./install-clis.mjs";

type Factory = (seat: SeatConfig, context: AdapterContext) => Adapter;
const seats: Array<{ name: string; cli: CliName; factory: Factory; seat: SeatConfig; goneId: string }> = [
  { name: "claude", cli: "claude", factory: createClaude, seat: suiteSeat("claude"), goneId: randomUUID() },
  { name: "codex", cli: "codex", factory: createCodex, seat: suiteSeat("codex"), goneId: randomUUID() },
  { name: "gemini", cli: "gemini", factory: createGemini, seat: suiteSeat("gemini"), goneId: randomUUID() },
  {
    name: "opencode",
    cli: "opencode",
    factory: createOpencode,
    seat: suiteSeat("opencode"),
    goneId: "ses_0000000000000000000000gone",
  },
  {
    name: "copilot",
    cli: "copilot",
    factory: createCopilot,
    seat: suiteSeat("copilot"),
    goneId: randomUUID(),
  },
  {
    name: "acp (opencode acp)",
    cli: "opencode",
    factory: createAcp,
    seat: { adapter: "acp", command: [cliBinPath("opencode"), "acp"] },
    goneId: "ses_0000000000000000000000gone",
  },
];
const only = process.env.DEBATEKIT_CLIS?.split(",");

// A seat's prompt in the append-only layout (docs/architecture.md#prompts-and-cost): instructions, then the history in order,
// then the request. The second turn adds three entries and a new request.
const entry = (i: number) =>
  `- prop_${String(i).padStart(3, "0")}: Caching the prompt prefix cuts the cost of turn ${i}; ` +
  "grounds: the providers' pricing pages; warrant: a stable prefix is billed at the cached rate.";
const instructions = `You argue for the proposition in a formal debate. Answer with one JSON object.\n${"Rules: be precise, cite sources, attack the weakest warrant. ".repeat(20)}`;
const history = (n: number) => Array.from({ length: n }, (_, i) => entry(i)).join("\n");
const turn1 = `${instructions}\n\n# History\n${history(30)}\n\n# Request\nWrite your argument. MARK-TURN-1`;
const turn2 = `${instructions}\n\n# History\n${history(33)}\n\n# Request\nWrite your next argument. MARK-TURN-2`;

function reply(request: ModelRequest): string {
  if (!request.allText.includes("MARK-TURN")) return "side call";
  if (!request.allText.includes("MARK-TURN-2")) return "first-turn-answer";
  // The second turn was answered by a model that saw the first one: the session held it.
  return request.allText.includes("first-turn-answer")
    ? "answer with the first turn in context"
    : "answer afresh";
}

const bodyBytes = (r: ModelRequest) => Buffer.byteLength(JSON.stringify(r.body));

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(reply);
});
afterAll(async () => {
  await server.close();
});

const figures: string[] = [];
const goneFigures: string[] = [];
afterAll(() => {
  if (figures.length > 0)
    console.log(
      [
        "session: resume, second turn (bytes): sent by debatekit resumed / whole | sent by the CLI to the model resumed / whole",
        ...figures,
        "a session that is gone: the resumed call's status",
        ...goneFigures,
      ].join("\n"),
    );
});

for (const { name, cli, factory, seat, goneId } of seats) {
  if (only && !only.includes(cli) && !only.includes(seat.adapter)) continue;
  describe(`${name}: session resume`, () => {
    test("a resumed session gets only the new part and still answers with the first turn in context; a session that is gone gets the whole prompt", async () => {
      const fresh = createFreshHome(`resume-${seat.adapter}`);
      try {
        const env = pointCliAtServer(cli, server, fresh);
        const adapter = factory(seat, { debateDir: fresh.cwd, env });
        const request = (prompt: string, timeoutMs = 90_000) => ({ prompt, timeoutMs, cwd: fresh.cwd });
        const modelRequests = async (run: () => Promise<unknown>) => {
          const before = server.requests.length;
          await run();
          return server.requests.slice(before).filter((r) => r.allText.includes("MARK-TURN-2"));
        };

        const [first] = await callWithSession(adapter, request(turn1), undefined);
        expect(first!.answer).toMatchObject({ status: "ok", text: "first-turn-answer" });
        const stored: SeatSession = {
          version: 1,
          role: "proposition",
          adapter: seat.adapter,
          session_id: first!.answer.sessionId!,
          prompt_sha256: "0".repeat(64),
          prompt: turn1,
        };

        let resumed: Awaited<ReturnType<typeof callWithSession>> = [];
        const resumedSeen = await modelRequests(async () => {
          resumed = await callWithSession(adapter, request(turn2), stored);
        });
        expect(resumed.map((c) => c.session)).toEqual(["resumed"]);
        expect(resumed[0]!.answer).toMatchObject({
          status: "ok",
          text: "answer with the first turn in context",
          sessionId: stored.session_id,
        });

        let whole: Awaited<ReturnType<typeof callWithSession>> = [];
        const wholeSeen = await modelRequests(async () => {
          whole = await callWithSession(adapter, request(turn2), undefined);
        });
        expect(whole[0]!.answer).toMatchObject({ status: "ok", text: "answer afresh" });

        const sentResumed = Buffer.byteLength(resumed[0]!.sent);
        const sentWhole = Buffer.byteLength(whole[0]!.sent);
        expect(sentResumed).toBeLessThan(sentWhole / 5);
        const cliResumed = resumedSeen.reduce((n, r) => n + bodyBytes(r), 0);
        const cliWhole = wholeSeen.reduce((n, r) => n + bodyBytes(r), 0);
        figures.push(`${name}: ${sentResumed} / ${sentWhole} | ${cliResumed} / ${cliWhole}`);

        // A session the CLI no longer has: that call is on record as failed, the whole prompt goes out
        // anew. claude, codex, gemini, copilot and opencode run refuse an unknown session at once;
        // opencode acp waits for it until the seat's timeout, hence a shorter one for it here (the
        // same limit then applies to the fresh call after it, which takes 30 s and more on a loaded
        // CI machine: 10 s was too short there).
        const gone = await callWithSession(
          adapter,
          request(turn2, seat.adapter === "acp" ? 60_000 : 90_000),
          {
            ...stored,
            session_id: goneId,
          },
        );
        expect(gone.map((c) => c.session)).toEqual(["resumed", "new"]);
        expect(gone[0]!.answer.status).not.toBe("ok");
        goneFigures.push(
          `${name}: ${gone[0]!.answer.status} in ${Math.round(gone[0]!.answer.durationMs)} ms`,
        );
        expect(gone[1]!.answer).toMatchObject({ status: "ok", text: "answer afresh" });
        expect(gone[1]!.sent).toBe(turn2);
      } finally {
        fresh.remove();
      }
    });
  });
}
