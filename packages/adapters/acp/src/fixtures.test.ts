import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { createAdapter } from "./adapter.js";

// Runs of the real `opencode acp` recorded by the real-agent suite (test/src/cli/acp-opencode,
// `pnpm test:cli` with DEBATEKIT_RECORD_FIXTURES=1), one folder per agent and version. Each is
// replayed by a script agent that writes the recorded lines back in answer to the adapter's
// requests: the adapter (real, spawning a real process) must reach the envelope of the real run.
const root = fileURLToPath(new URL("../fixtures/", import.meta.url));
const replayAgent = fileURLToPath(new URL("./test-helpers/replay-agent.mjs", import.meta.url));
const fixtures = readdirSync(root).flatMap((agent) =>
  readdirSync(join(root, agent)).map((file) => ({ agent, file, path: join(root, agent, file) })),
);
// The replay runs under the recorded agent's program name (an executable copy of the script
// named after the folder's agent), so the adapter treats it exactly as the real one: the same
// known-agent environment, the same program name in its messages.
const binDir = mkdtempSync(join(tmpdir(), "acp-replay-"));
afterAll(() => rmSync(binDir, { recursive: true, force: true }));
function replayProgram(agent: string): string {
  const program = join(binDir, agent.replace(/-\d+\.\d+\.\d+$/, ""));
  copyFileSync(replayAgent, program);
  chmodSync(program, 0o755);
  return program;
}

/** A recorded hang is replayed with a short limit; its error names the limit, so it is swapped in. */
const replayHangMs = 1500;

describe("recorded ACP agent runs", () => {
  test("there are recordings of plain, resume, empty, 400, 401 and hang", () => {
    const names = fixtures.map((f) => f.file);
    for (const n of ["plain", "resume-second", "empty", "error-400", "error-401", "hang"])
      expect(names).toContain(`${n}.json`);
  });

  for (const { agent, file, path } of fixtures) {
    test(`${agent}/${file} replays to the envelope the real run produced`, async () => {
      const fx = JSON.parse(readFileSync(path, "utf8"));
      const hang = fx.expected.status === "timeout";
      const timeoutMs = hang ? replayHangMs : fx.request.timeoutMs;
      const adapter = createAdapter(
        { adapter: "acp", command: [replayProgram(agent), "acp"] },
        { debateDir: ".", env: { PATH: process.env.PATH ?? "", REPLAY_FIXTURE: path } },
        { killGraceMs: 300 },
      );
      const call = await adapter.call({
        prompt: fx.request.prompt,
        timeoutMs,
        cwd: process.cwd(),
        ...(fx.request.sessionId ? { sessionId: fx.request.sessionId } : {}),
      });
      const expected = hang
        ? {
            ...fx.expected,
            error: fx.expected.error.replace(String(fx.request.timeoutMs), String(timeoutMs)),
          }
        : fx.expected;
      const { status, text, sessionId, model, usage, error } = call;
      expect({
        status,
        text,
        ...(sessionId ? { sessionId } : {}),
        ...(model ? { model } : {}),
        ...(usage ? { usage } : {}),
        ...(error ? { error } : {}),
      }).toEqual(expected);
      expect(call.transport).toBe("acp");
    });
  }
});
