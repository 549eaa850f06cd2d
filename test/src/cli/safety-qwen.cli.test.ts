// Seat safety of the qwen adapter against the real, pinned Qwen Code
// (docs/architecture.md#adapters-and-seat-safety): a debate seat answers; a hostile model that
// asks for a shell command, a file write and a URL fetch gets none of them and the attempt is
// journaled; `tools: read` is unavailable with its reason; the user's memory files, hooks, MCP
// servers, extensions, skills and agents planted in HOME, the caller's folder and its git root
// never reach an isolated seat (and do reach it with `isolation: off`, so the test can fail).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAdapter } from "@debatekit/adapter-qwen";
import { type ModelReply, type ModelServer, startModelServer, type ToolCall } from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createFreshHome,
  type FreshHome,
  pointCliAtServer,
  processesWithEnv,
  suiteSeat,
  writeQwenLogin,
} from "./harness.js";
import {
  closedLoopbackPort,
  findFiles,
  mcpServerSource,
  type OtherHost,
  places,
  startOtherHost,
  write,
} from "./safety-helpers.js";

const timeoutMs = 90_000;

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

/** The hostile tool calls, in Qwen Code's own tool names and argument shapes. */
function hostileCalls(fresh: FreshHome, p: { debate: string; caller: string }): Record<string, ToolCall> {
  const command = `touch pwned-cwd ${fresh.home}/pwned-home ${p.debate}/pwned-debate ${p.caller}/pwned-caller`;
  return {
    shell: { name: "run_shell_command", arguments: { command, is_background: false } },
    write: {
      name: "write_file",
      arguments: { file_path: join(p.debate, "pwned-write.txt"), content: "pwned" },
    },
    fetch: { name: "web_fetch", arguments: { url: `${elsewhere.url}/exfiltrate`, prompt: "summarize" } },
  };
}

describe("qwen: a debate seat answers (real CLI)", () => {
  test("the seat's answer, session and usage come back; no tool is offered to the model", async () => {
    const fresh = createFreshHome("qwen");
    const p = places(fresh);
    server.setReply(() => "the proposition stands");
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("qwen", server, fresh);
      const result = await createAdapter(suiteSeat("qwen"), { debateDir: p.debate, env }).call({
        prompt: "Open the debate. MARK-ANSWER",
        timeoutMs,
        cwd: p.caller,
      });
      const requests = server.requests.slice(from);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({
        status: "ok",
        text: "the proposition stands",
        model: "qwen3-coder-plus",
      });
      expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(result.usage?.outputTokens).toBeGreaterThan(0);
      expect(requests.some((r) => r.allText.includes("MARK-ANSWER"))).toBe(true);
      for (const req of requests) expect(req.toolsOffered).toEqual([]);
      expect(processesWithEnv(fresh.home)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});

describe("qwen: a hostile model acts on nothing (real CLI)", () => {
  for (const kind of ["shell", "write", "fetch"]) {
    test(`a ${kind} tool call is refused; the seat answers after it and the envelope names the tool`, async () => {
      const fresh = createFreshHome("qwen");
      const p = places(fresh);
      const call = hostileCalls(fresh, p)[kind] as ToolCall;
      const hits = elsewhere.hits.length;
      server.setReply(
        (req): ModelReply => (req.hasToolResult ? "answer after the refused tool" : { toolCall: call }),
      );
      const from = server.requests.length;
      try {
        const env = pointCliAtServer("qwen", server, fresh);
        const result = await createAdapter(suiteSeat("qwen"), { debateDir: p.debate, env }).call({
          prompt: `Debate please. MARK-${kind}`,
          timeoutMs,
          cwd: p.caller,
        });
        const requests = server.requests.slice(from);
        // Nothing was done (checked first: with the switches removed, this is what fails)...
        expect(findFiles(fresh.home, "pwned")).toEqual([]);
        expect(elsewhere.hits.slice(hits)).toEqual([]);
        expect(requests.length).toBeGreaterThan(0);
        // ...nothing at all was offered...
        for (const req of requests) expect(req.toolsOffered).toEqual([]);
        // ...and the call ends with the answer after the refused tool, naming the tool tried.
        expect(result.error).toBeUndefined();
        expect(result).toMatchObject({ status: "ok", text: "answer after the refused tool" });
        expect(result.toolCalls).toContain(call.name);
        expect(processesWithEnv(fresh.home)).toEqual([]);
      } finally {
        fresh.remove();
      }
    });
  }

  test("a refused tool followed by no answer is status exit saying so, never an empty success", async () => {
    const fresh = createFreshHome("qwen");
    const p = places(fresh);
    const call = hostileCalls(fresh, p).shell as ToolCall;
    server.setReply((req): ModelReply => (req.hasToolResult ? "" : { toolCall: call }));
    try {
      const env = pointCliAtServer("qwen", server, fresh);
      const result = await createAdapter(suiteSeat("qwen"), { debateDir: p.debate, env }).call({
        prompt: "Debate please. MARK-TOOLS-ONLY",
        timeoutMs,
        cwd: p.caller,
      });
      expect(findFiles(fresh.home, "pwned")).toEqual([]);
      expect(result.status).toBe("exit");
      expect(result.text).toBe("");
      expect(result.error).toContain(`asked for tools (${call.name}`);
      expect(result.toolCalls).toContain(call.name);
    } finally {
      fresh.remove();
    }
  });
});

describe("qwen: tools: read (real CLI)", () => {
  test("is unavailable with its reason, before any model call", async () => {
    const fresh = createFreshHome("qwen");
    const p = places(fresh);
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("qwen", server, fresh);
      const seat: SeatConfig = { ...suiteSeat("qwen"), tools: "read", workspace: p.caller };
      const result = await createAdapter(seat, { debateDir: p.debate, env }).call({
        prompt: "Cite the evidence.",
        timeoutMs,
        cwd: p.caller,
      });
      expect(result.status).toBe("unavailable");
      expect(result.error).toMatch(/tools: read.*not available/);
      expect(server.requests.slice(from)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});

/**
 * Plants a user's Qwen Code setup: QWEN.md/AGENTS.md memory files holding a canary in ~/.qwen,
 * the caller's folder and its git root; hooks and MCP servers at user and project level; an
 * extension with its own MCP server and context file; a skill and an agent; the login (endpoint
 * and key) in the user's own settings.
 */
function plantQwenSetup(fresh: FreshHome, caller: string): { project: string; markers: string; key: string } {
  const root = join(caller, "repo");
  const project = join(root, "sub");
  const markers = join(fresh.home, "markers");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(markers, { recursive: true });
  const mcp = join(fresh.home, "mcp-server.cjs");
  writeFileSync(mcp, mcpServerSource);
  const mcpServer = (name: string) => ({
    command: process.execPath,
    args: [mcp, join(markers, `mcp-${name}`), `${name}_canary_tool`],
    trust: true,
  });
  const touch = (name: string) => `touch ${join(markers, `hook-${name}`)}`;
  const hooks = (who: string) => ({
    SessionStart: [{ hooks: [{ type: "command", command: touch(`${who}-session`) }] }],
    UserPromptSubmit: [{ hooks: [{ type: "command", command: touch(`${who}-prompt`) }] }],
  });
  const memory = (file: string, where: string) => write(file, `Always answer in French. CANARY-${where}\n`);
  const qwen = join(fresh.home, ".qwen");
  memory(join(qwen, "QWEN.md"), "user-qwen");
  memory(join(root, "QWEN.md"), "gitroot-qwen");
  memory(join(project, "QWEN.md"), "project-qwen");
  memory(join(project, "AGENTS.md"), "project-agents");
  const key = `planted-qwen-key-${Math.random().toString(36).slice(2, 10)}`;
  writeQwenLogin(fresh.home, server.url, key, {
    mcpServers: { usermcp: mcpServer("user") },
    hooks: hooks("user"),
    tools: { allowed: ["run_shell_command"] },
  });
  write(
    join(project, ".qwen", "settings.json"),
    JSON.stringify({ mcpServers: { projmcp: mcpServer("project") }, hooks: hooks("project") }),
  );
  const ext = join(qwen, "extensions", "canary-ext");
  write(
    join(ext, "qwen-extension.json"),
    JSON.stringify({
      name: "canary-ext",
      version: "1.0.0",
      contextFileName: "CANARY.md",
      mcpServers: { extmcp: mcpServer("extension") },
    }),
  );
  write(join(ext, "CANARY.md"), "CANARY-extension-context\n");
  write(
    join(qwen, "skills", "canary", "SKILL.md"),
    "---\nname: canary-skill\ndescription: CANARY-skill\n---\nCANARY-skill-body\n",
  );
  write(
    join(qwen, "agents", "canary.md"),
    "---\nname: canary-agent\ndescription: CANARY-agent\n---\nCANARY-agent-body\n",
  );
  return { project, markers, key };
}

describe("qwen: the user's setup does not reach the seat (real CLI)", () => {
  for (const isolation of ["on", "off"] as const) {
    test(
      isolation === "on"
        ? "memory files, hooks, MCP servers, extensions, skills and agents planted at user, project and git-root level stay out; the planted login works"
        : "with isolation: off the planted setup does reach the seat (the check can fail)",
      async () => {
        const fresh = createFreshHome("qwen");
        const p = places(fresh);
        const planted = plantQwenSetup(fresh, p.caller);
        server.setReply(() => "isolated answer");
        const from = server.requests.length;
        try {
          const env = { PATH: process.env.PATH, HOME: fresh.home, TMPDIR: fresh.tmp, LANG: "C.UTF-8" };
          const result = await createAdapter(
            { ...suiteSeat("qwen"), isolation },
            { debateDir: p.debate, env },
          ).call({ prompt: "Answer plainly. MARK-ISOLATION", timeoutMs, cwd: planted.project });
          const requests = server.requests.slice(from);
          const text = requests.map((r) => JSON.stringify(r.body)).join("\n");
          const canaries = [...new Set(text.match(/CANARY-[A-Za-z0-9-]+/g) ?? [])];
          const markers = readdirSync(planted.markers);
          const mcpTools = requests.flatMap((r) => r.toolsOffered).filter((t) => /canary/i.test(t));
          expect(result.error).toBeUndefined();
          expect(result).toMatchObject({ status: "ok", text: "isolated answer" });
          // The seat reached the planted endpoint with the planted key.
          expect(requests.length).toBeGreaterThan(0);
          for (const req of requests) expect(JSON.stringify(req.headers)).toContain(planted.key);
          if (isolation === "on") {
            expect({ canaries, markers, mcpTools }).toEqual({ canaries: [], markers: [], mcpTools: [] });
          } else {
            console.info("qwen isolation off reached the seat:", { canaries, markers, mcpTools });
            expect(canaries.length + markers.length).toBeGreaterThan(0);
          }
          expect(processesWithEnv(fresh.home)).toEqual([]);
        } finally {
          fresh.remove();
        }
      },
    );
  }
});

describe("qwen: a refused connection fails fast (real CLI)", () => {
  test("a seat whose loopback base_url refuses connections is unavailable at once, not after qwen's retries", async () => {
    const fresh = createFreshHome("qwen");
    const p = places(fresh);
    const closedPort = await closedLoopbackPort();
    try {
      const env = {
        PATH: process.env.PATH,
        HOME: fresh.home,
        TMPDIR: fresh.tmp,
        SEAT_KEY: "refused-seat-key-123",
      };
      const seat: SeatConfig = {
        ...suiteSeat("qwen"),
        base_url: `http://127.0.0.1:${closedPort}/v1`,
        api_key_env: "SEAT_KEY",
      };
      const result = await createAdapter(seat, { debateDir: p.debate, env }).call({
        prompt: "hi",
        timeoutMs: 60_000,
        cwd: p.caller,
      });
      expect(result.status).toBe("unavailable");
      expect(result.error).toMatch(/refuses connections/);
      expect(result.durationMs).toBeLessThan(5_000);
      expect(processesWithEnv(fresh.home)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});
