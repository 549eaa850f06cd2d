#!/usr/bin/env node
// A stand-in ACP agent for the adapter's fast tests (the real agent, `opencode acp`, is exercised
// in test/src/cli/acp-*.test.ts). Behaviour by FAKE_MODE: ok | permission | crash | hang | error | noise.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const mode = process.env.FAKE_MODE ?? "ok";
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const update = (sessionId, update) => send({ method: "session/update", params: { sessionId, update } });
const chunk = (sessionId, text) =>
  update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
const waiting = new Map();
let nextId = 100;
const ask = (method, params) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    send({ id, method, params });
  });

async function handle(message) {
  const { id, method, params } = message;
  if (method === "initialize") {
    if (mode === "crash") {
      process.stderr.write("fatal: config broken\n");
      process.exit(3);
    }
    send({
      id,
      result: {
        protocolVersion: 1,
        agentCapabilities: { loadSession: true },
        agentInfo: { name: "fake", version: "9.9.9" },
      },
    });
  } else if (method === "session/new") {
    send({
      id,
      result: {
        sessionId: "sess-new",
        configOptions: [
          {
            id: "model",
            category: "model",
            type: "select",
            currentValue: "m1",
            options: [{ value: "m1" }, { value: "m2" }],
          },
        ],
      },
    });
  } else if (method === "session/load") {
    if (params.sessionId !== "sess-old")
      return send({ id, error: { code: -32002, message: "session not found" } });
    chunk("sess-old", "OLD ANSWER ");
    update("sess-old", {
      sessionUpdate: "usage_update",
      used: 1,
      size: 10,
      cost: { amount: 0.5, currency: "USD" },
    });
    send({ id, result: {} });
  } else if (method === "session/set_config_option") {
    if (process.env.FAKE_RECORD) writeFileSync(process.env.FAKE_RECORD, JSON.stringify(params));
    send({ id, result: { configOptions: [] } });
  } else if (method === "session/prompt") {
    const sid = params.sessionId;
    const text = params.prompt.map((b) => b.text).join("");
    if (mode === "hang") {
      // A grandchild in the same process group: the timeout must take it down too.
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      if (process.env.FAKE_PIDFILE) writeFileSync(process.env.FAKE_PIDFILE, String(child.pid));
      process.on("SIGTERM", () => {}); // ignores SIGTERM: SIGKILL must follow
      return;
    }
    if (mode === "error")
      return send({
        id,
        error: { code: -32603, message: "Internal error: upstream 400 prompt is too long" },
      });
    if (mode === "noise") process.stdout.write("warming up the model...\n");
    if (mode === "permission") {
      const options = [
        { optionId: "yes", kind: "allow_once", name: "Allow" },
        { optionId: "always", kind: "allow_always", name: "Always" },
        { optionId: "no", kind: "reject_once", name: "Reject" },
      ];
      const exec = await ask("session/request_permission", {
        sessionId: sid,
        toolCall: { toolCallId: "t1", kind: "execute", title: "rm -rf /" },
        options,
      });
      const read = await ask("session/request_permission", {
        sessionId: sid,
        toolCall: {
          toolCallId: "t2",
          kind: "read",
          title: "read README",
          locations: [{ path: `${process.cwd()}/README.md` }],
        },
        options,
      });
      const fsAnswer = await ask("fs/write_text_file", { sessionId: sid, path: "/tmp/x", content: "x" });
      chunk(sid, JSON.stringify({ exec: exec.result, read: read.result, fs: fsAnswer.error?.code }));
      return send({ id, result: { stopReason: "end_turn" } });
    }
    chunk(sid, "You said: ");
    chunk(sid, text);
    update(sid, {
      sessionUpdate: "usage_update",
      used: 5,
      size: 10,
      cost: { amount: (sid === "sess-old" ? 0.5 : 0) + 0.25, currency: "USD" },
    });
    send({
      id,
      result: { stopReason: "end_turn", usage: { inputTokens: 11, outputTokens: 4, totalTokens: 15 } },
    });
  } else if (id !== undefined && method === undefined) {
    waiting.get(id)?.(message);
    waiting.delete(id);
  }
}

let buffer = "";
process.stdin.on("data", (data) => {
  buffer += data;
  let i = buffer.indexOf("\n");
  while (i >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (line.trim()) void handle(JSON.parse(line));
    i = buffer.indexOf("\n");
  }
});
