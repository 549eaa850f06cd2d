import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SeatConfig } from "@debatekit/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAdapter } from "./adapter.js";

// The adapter is real and spawns a real process; the agent behind it is a small script standing
// in for a model-backed ACP agent (the real one, opencode, runs in test/src/cli/acp-*.test.ts).
const fakeAgent = fileURLToPath(new URL("./test-helpers/fake-agent.mjs", import.meta.url));
const seat: SeatConfig = { adapter: "acp", command: [process.execPath, fakeAgent] };
const effortMap = { adapters: {} };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acp-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function adapter(
  mode: string,
  extraEnv: Record<string, string> = {},
  seatOverride: Partial<SeatConfig> = {},
) {
  return createAdapter(
    { ...seat, ...seatOverride },
    { debateDir: dir, env: { PATH: process.env.PATH ?? "", FAKE_MODE: mode, ...extraEnv }, effortMap },
    { killGraceMs: 300 },
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("acp adapter against a scripted agent", () => {
  it("runs initialize -> session/new -> session/prompt and joins the message chunks", async () => {
    const result = await adapter("ok").call({ prompt: "hello", timeoutMs: 10_000, cwd: dir });
    expect(result).toMatchObject({
      status: "ok",
      text: "You said: hello",
      sessionId: "sess-new",
      model: "m1",
      usage: { inputTokens: 11, outputTokens: 4, costUsd: 0.25 },
      transport: "acp",
    });
    const sent = result.raw!.stdout.split("\n").map((l) => JSON.parse(l));
    expect(sent.at(-1)).toMatchObject({ id: 2, result: { stopReason: "end_turn" } });
  });

  it("resumes with session/load, without the replayed history in the answer, counting only this turn's cost", async () => {
    const result = await adapter("ok").call({
      prompt: "again",
      timeoutMs: 10_000,
      cwd: dir,
      sessionId: "sess-old",
    });
    expect(result).toMatchObject({ status: "ok", text: "You said: again", sessionId: "sess-old" });
    expect(result.usage?.costUsd).toBe(0.25);
  });

  it("starts a new session when the old one cannot be loaded", async () => {
    const result = await adapter("ok").call({ prompt: "x", timeoutMs: 10_000, cwd: dir, sessionId: "gone" });
    expect(result).toMatchObject({ status: "ok", sessionId: "sess-new" });
  });

  it("selects the seat's model when the agent offers it, and refuses one it does not offer", async () => {
    const record = join(dir, "set.json");
    const ok = await adapter("ok", { FAKE_RECORD: record }, { model: "m2" }).call({
      prompt: "x",
      timeoutMs: 10_000,
      cwd: dir,
    });
    expect(ok).toMatchObject({ status: "ok", model: "m2" });
    expect(JSON.parse(await readFile(record, "utf8"))).toEqual({
      sessionId: "sess-new",
      configId: "model",
      value: "m2",
    });
    const bad = await adapter("ok", {}, { model: "m9" }).call({ prompt: "x", timeoutMs: 10_000, cwd: dir });
    expect(bad).toMatchObject({
      status: "exit",
      error: "the agent does not offer model m9 (offers: m1, m2)",
    });
  });

  it("refuses every permission request by default (tools: none), and fs requests it never offered", async () => {
    const result = await adapter("permission").call({ prompt: "x", timeoutMs: 10_000, cwd: dir });
    expect(result.status).toBe("ok");
    expect(JSON.parse(result.text)).toEqual({
      exec: { outcome: { outcome: "selected", optionId: "no" } },
      read: { outcome: { outcome: "selected", optionId: "no" } },
      fs: -32601,
    });
    // The tools the model asked for are in the envelope.
    expect(result.toolCalls).toEqual(["rm -rf /", "read README"]);
  });

  it("with tools: read, allows a read inside the workspace once and still refuses the command", async () => {
    const workspace = join(dir, "ws");
    await mkdir(workspace);
    const result = await adapter("permission", {}, { tools: "read", workspace }).call({
      prompt: "x",
      timeoutMs: 10_000,
      cwd: dir,
    });
    expect(JSON.parse(result.text)).toEqual({
      exec: { outcome: { outcome: "selected", optionId: "no" } },
      read: { outcome: { outcome: "selected", optionId: "yes" } },
      fs: -32601,
    });
  });

  it("reports an agent error on session/prompt as exit, with the agent's message", async () => {
    const result = await adapter("error").call({ prompt: "x", timeoutMs: 10_000, cwd: dir });
    expect(result).toMatchObject({
      status: "exit",
      error: "session/prompt failed: Internal error: upstream 400 prompt is too long (code -32603)",
    });
  });

  it("reports a crash before answering with the exit code and the last stderr line", async () => {
    const result = await adapter("crash").call({ prompt: "x", timeoutMs: 10_000, cwd: dir });
    expect(result).toMatchObject({
      status: "exit",
      exitCode: 3,
      error: `${basename(process.execPath)} exited with 3 before answering: fatal: config broken`,
    });
  });

  it("ignores log lines on stdout", async () => {
    const result = await adapter("noise").call({ prompt: "x", timeoutMs: 10_000, cwd: dir });
    expect(result).toMatchObject({ status: "ok", text: "You said: x" });
    expect(result.raw!.stdout).toContain("warming up the model...");
  });

  it("times out a hang and leaves no process behind, even one ignoring SIGTERM and its child", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const result = await adapter("hang", { FAKE_PIDFILE: pidFile }).call({
      prompt: "x",
      timeoutMs: 5000,
      cwd: dir,
    });
    expect(result).toMatchObject({
      status: "timeout",
      error: "no answer within 5000 ms; process group terminated",
    });
    const grandchild = Number(await readFile(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(false);
  });

  it("is cancelled by the caller's signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 800);
    const result = await adapter("hang").call({
      prompt: "x",
      timeoutMs: 20_000,
      cwd: dir,
      signal: controller.signal,
    });
    expect(result.status).toBe("cancelled");
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it("redacts the secrets the seat's own env and api_key_env give the agent, as the CLI adapters do", async () => {
    const token = "Hq4mZ8vR2nX7pK1sWd3T";
    const key = "Lb7cN2xQ9wE4rT6yU1iO";
    const result = await adapter(
      "ok",
      { PLAIN: token, PLAIN_VALUE: key },
      { env: { SERVICE_TOKEN: "$" + "{PLAIN}" }, api_key_env: "PLAIN_VALUE" },
    ).call({ prompt: `${token} and ${key}`, timeoutMs: 10_000, cwd: dir });
    expect(result).toMatchObject({ status: "ok", text: "You said: [REDACTED] and [REDACTED]" });
    expect(result.raw!.stdout).not.toContain(token);
    expect(result.raw!.stdout).not.toContain(key);
  });

  it("reports a missing program as unavailable with a setup hint", async () => {
    const result = await createAdapter(
      { adapter: "acp", command: ["kiro-cli", "acp"] },
      { debateDir: dir, env: { PATH: dir }, effortMap },
    ).call({ prompt: "x", timeoutMs: 5000, cwd: dir });
    expect(result).toMatchObject({ status: "unavailable" });
    expect(result.error).toContain("kiro-cli is not installed or not on PATH: install Kiro CLI");
  });
});

describe("acp detect", () => {
  it("finds the program and its version", async () => {
    const d = await createAdapter(
      { adapter: "acp", command: [process.execPath, fakeAgent] },
      { debateDir: dir },
    ).detect();
    expect(d).toMatchObject({
      adapter: "acp",
      installed: true,
      usable: true,
      path: process.execPath,
      version: process.versions.node,
    });
  });

  it("says how to install a known agent that is missing", async () => {
    const d = await createAdapter({ adapter: "acp" }, { debateDir: dir, env: { PATH: dir } }).detect();
    expect(d).toEqual({
      adapter: "acp",
      installed: false,
      usable: false,
      hint: "kiro-cli not found on PATH: install Kiro CLI and run `kiro-cli login`; or set the seat's `command`",
    });
  });
});
