// The acp adapter with Qwen Code's ACP mode (`qwen --acp`, the pinned version) against the
// loopback model server: the seat answers, and a hostile model asking for a shell command, a file
// write and a URL fetch (Qwen Code's own tool names) gets none of them, since the ACP adapter's
// table of known agents gives qwen the qwen adapter's switches.
import { join } from "node:path";
import { createAdapter } from "@debatekit/adapter-acp";
import { type ModelReply, type ModelServer, startModelServer, type ToolCall } from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFreshHome, pointCliAtServer, processesWithEnv } from "./harness.js";
import { cliBinPath } from "./install-clis.mjs";
import { findFiles, type OtherHost, places, startOtherHost } from "./safety-helpers.js";

const timeoutMs = 90_000;
// No model: qwen's ACP mode names its models its own way (`$runtime|openai|<model>(openai)`), and
// its default (the login's) is the loopback server's.
const seat: SeatConfig = { adapter: "acp", command: [cliBinPath("qwen"), "--acp"] };

let server: ModelServer;
/** Stands in for every other host: a URL fetch the model asks for would land here. */
let elsewhere: OtherHost;

beforeAll(async () => {
  server = await startModelServer();
  elsewhere = await startOtherHost();
});
afterAll(async () => {
  await server.close();
  await elsewhere.close();
});

describe("acp adapter with qwen --acp (real agent)", () => {
  test("an ACP seat of qwen answers through the loopback server, offered no tool", async () => {
    const fresh = createFreshHome("acp-qwen");
    const p = places(fresh);
    server.setReply(() => "the acp proposition stands");
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("qwen", server, fresh);
      const result = await createAdapter(seat, { debateDir: p.debate, env }).call({
        prompt: "Open the debate. MARK-ACP-ANSWER",
        timeoutMs,
        cwd: p.caller,
      });
      const requests = server.requests.slice(from);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ status: "ok", text: "the acp proposition stands" });
      expect(requests.some((r) => r.allText.includes("MARK-ACP-ANSWER"))).toBe(true);
      for (const req of requests) expect(req.toolsOffered).toEqual([]);
      expect(processesWithEnv(fresh.home)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });

  test("a hostile shell command, file write and URL fetch leave no marker and are reported", async () => {
    const fresh = createFreshHome("acp-qwen");
    const p = places(fresh);
    const calls: ToolCall[] = [
      {
        name: "run_shell_command",
        arguments: {
          command: `touch pwned-cwd ${fresh.home}/pwned-home ${p.debate}/pwned-debate`,
          is_background: false,
        },
      },
      { name: "write_file", arguments: { file_path: join(p.debate, "pwned-write.txt"), content: "pwned" } },
      { name: "web_fetch", arguments: { url: `${elsewhere.url}/exfiltrate`, prompt: "summarize" } },
    ];
    let step = 0;
    // One scripted move per model request, then the answer.
    server.setReply((): ModelReply => {
      const call = calls[step++];
      return call ? { toolCall: call } : "answer after the refused tools";
    });
    const hits = elsewhere.hits.length;
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("qwen", server, fresh);
      const result = await createAdapter(seat, { debateDir: p.debate, env }).call({
        prompt: "Debate please. MARK-ACP-HOSTILE",
        timeoutMs,
        cwd: p.caller,
      });
      const requests = server.requests.slice(from);
      expect(findFiles(fresh.home, "pwned")).toEqual([]);
      expect(elsewhere.hits.slice(hits)).toEqual([]);
      for (const req of requests) expect(req.toolsOffered).toEqual([]);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ status: "ok", text: "answer after the refused tools" });
      expect(result.toolCalls).toEqual(expect.arrayContaining(calls.map((c) => c.name)));
      expect(processesWithEnv(fresh.home)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});
