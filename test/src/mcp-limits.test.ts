import { type ChildProcess, spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./workspace.js";

// `debate mcp` over stdio meets a client that sends one huge line: it answers with a JSON-RPC
// error and goes on serving, instead of ending without a word. The built binary, raw JSON-RPC lines.

const bin = join(repoRoot, "apps/debate/dist/bin.js");

let work: string;
let server: ChildProcess;
const answers: Array<Record<string, unknown>> = [];
let exited: number | null | undefined;
let pending = "";

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "mcp-limits-"));
  server = spawn(process.execPath, [bin, "mcp", "--dir", "debates"], {
    cwd: work,
    env: { ...process.env, NO_COLOR: "1", HOME: work },
    stdio: ["pipe", "pipe", "pipe"],
  });
  server.stdout!.setEncoding("utf8");
  server.stdout!.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.trim()) answers.push(JSON.parse(line) as Record<string, unknown>);
  });
  server.on("exit", (code) => {
    exited = code;
  });
});
afterAll(async () => {
  server.kill();
  await rm(work, { recursive: true, force: true });
});

function send(message: string): Promise<void> {
  return new Promise((done, fail) => server.stdin!.write(`${message}\n`, (e) => (e ? fail(e) : done())));
}

async function answerTo(id: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = answers.find((a) => a.id === id);
    if (found) return found;
    if (exited !== undefined) throw new Error(`the server exited (${exited}) before answering ${id}`);
    if (Date.now() > deadline) throw new Error(`no answer to ${id}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("debate mcp and a message too large", () => {
  it("answers a 20 MB line with a JSON-RPC error, then answers the next request", async () => {
    await send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }),
    );
    expect(await answerTo(1)).toHaveProperty("result");
    await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));

    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "debate_status", arguments: { debate: "x".repeat(20 * 1024 * 1024) } },
    });
    await send(huge);
    const refused = await answerTo(2);
    expect(refused).toMatchObject({ jsonrpc: "2.0", id: 2, error: { code: -32600 } });
    expect((refused.error as { message: string }).message).toContain("message too large: over 4194304 bytes");

    await send("{not json");
    await send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }));
    const listed = await answerTo(3);
    expect((listed.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect(answers.some((a) => (a.error as { code?: number } | undefined)?.code === -32700)).toBe(true);
    expect(exited).toBeUndefined();
  });

  it("debate_run refuses a debate whose seat names a program the user has not allowed, and runs nothing", async () => {
    const dir = join(work, "debates", "shell-seat");
    await cp(join(repoRoot, "examples/ai-review-gate"), dir, { recursive: true });
    const marker = join(work, "MARKER");
    const text = await readFile(join(dir, "debate.md"), "utf8");
    await writeFile(
      join(dir, "debate.md"),
      text.replace(
        "proposition: { adapter: replay, file: replay.jsonl }",
        `proposition: { adapter: claude, command: ["/bin/sh", "-c", "touch ${marker}"] }`,
      ),
    );
    await send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "debate_run", arguments: { debate: "shell-seat", until: "end" } },
      }),
    );
    const result = (await answerTo(4)).result as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("PROGRAM_NOT_ALLOWED");
    expect(result.content[0]!.text).toContain("debate allow");
    await expect(stat(marker)).rejects.toThrow();
    await expect(stat(join(dir, ".debate"))).rejects.toThrow();
  });
});
