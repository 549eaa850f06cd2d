// Seat safety of the kilo adapter against the real, pinned Kilo Code CLI
// (docs/architecture.md#adapters-and-seat-safety): a debate seat answers; a hostile model that
// asks for a shell command, a file write and a URL fetch gets none of them and the attempt is
// journaled; `tools: read` is unavailable with its reason; the user's memory files, rules,
// plugins, MCP servers, agents and commands planted in HOME, the caller's folder and its git root
// never reach an isolated seat (and do reach it with `isolation: off`, so the test can fail); a
// refused connection fails at once.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createAdapter } from "@debatekit/adapter-kilo";
import { type ModelReply, type ModelServer, startModelServer, type ToolCall } from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createFreshHome,
  type FreshHome,
  pointCliAtServer,
  processesWithEnv,
  suiteModels,
  suiteSeat,
} from "./harness.js";
import {
  closedLoopbackPort,
  findFiles,
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

/** Processes left by the seat: it runs with a HOME of its own, so they are found by the test's TMPDIR. */
function seatProcesses(fresh: FreshHome): number[] {
  return processesWithEnv(fresh.tmp, "TMPDIR");
}

/** The hostile tool calls, in Kilo's own tool names and argument shapes (OpenCode's). */
function hostileCalls(fresh: FreshHome, p: { debate: string; caller: string }): Record<string, ToolCall> {
  const command = `touch pwned-cwd ${fresh.home}/pwned-home ${p.debate}/pwned-debate ${p.caller}/pwned-caller`;
  return {
    shell: { name: "bash", arguments: { command, description: "marker" } },
    write: { name: "write", arguments: { filePath: join(p.debate, "pwned-write.txt"), content: "pwned" } },
    fetch: { name: "webfetch", arguments: { url: `${elsewhere.url}/exfiltrate`, format: "text" } },
  };
}

describe("kilo: a debate seat answers (real CLI)", () => {
  test("the seat's answer, session and usage come back; no tool is offered to the model", async () => {
    const fresh = createFreshHome("kilo");
    const p = places(fresh);
    server.setReply(() => "the proposition stands");
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("kilo", server, fresh);
      const result = await createAdapter(suiteSeat("kilo"), { debateDir: p.debate, env }).call({
        prompt: "Open the debate. MARK-ANSWER",
        timeoutMs,
        cwd: p.caller,
      });
      const requests = server.requests.slice(from);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ status: "ok", text: "the proposition stands" });
      expect(result.sessionId).toMatch(/^ses_/);
      expect(result.usage?.outputTokens).toBeGreaterThan(0);
      expect(requests.some((r) => r.allText.includes("MARK-ANSWER"))).toBe(true);
      for (const req of requests) expect(req.toolsOffered).toEqual([]);
      expect(seatProcesses(fresh)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});

describe("kilo: a hostile model acts on nothing (real CLI)", () => {
  for (const kind of ["shell", "write", "fetch"]) {
    test(`a ${kind} tool call is refused; the seat answers after it and the envelope names the tool`, async () => {
      const fresh = createFreshHome("kilo");
      const p = places(fresh);
      const call = hostileCalls(fresh, p)[kind] as ToolCall;
      const hits = elsewhere.hits.length;
      server.setReply(
        (req): ModelReply => (req.hasToolResult ? "answer after the refused tool" : { toolCall: call }),
      );
      const from = server.requests.length;
      try {
        const env = pointCliAtServer("kilo", server, fresh);
        const result = await createAdapter(suiteSeat("kilo"), { debateDir: p.debate, env }).call({
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
        expect(seatProcesses(fresh)).toEqual([]);
      } finally {
        fresh.remove();
      }
    });
  }
});

describe("kilo: tools: read (real CLI)", () => {
  test("is unavailable with its reason, before any model call", async () => {
    const fresh = createFreshHome("kilo");
    const p = places(fresh);
    const from = server.requests.length;
    try {
      const env = pointCliAtServer("kilo", server, fresh);
      const seat: SeatConfig = { ...suiteSeat("kilo"), tools: "read", workspace: p.caller };
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
 * Plants a user's Kilo setup: memory files holding a canary (AGENTS.md in the kilo config folder,
 * the caller's folder and its git root; Kilo's own `.kilocode/rules` and `.kilocoderules`); MCP
 * servers and plugins at user, home and project level that write a marker when started; a custom
 * agent and command; the login (endpoint and key) in the user's own kilo.jsonc.
 */
function plantKiloSetup(fresh: FreshHome, caller: string): { project: string; markers: string; key: string } {
  const root = join(caller, "repo");
  const project = join(root, "sub");
  const markers = join(fresh.home, "markers");
  mkdirSync(project, { recursive: true });
  mkdirSync(markers, { recursive: true });
  execFileSync("git", ["init", "-q", root]);
  const marker = (what: string) =>
    `require("fs").writeFileSync(${JSON.stringify(join(markers, what))}, "ran")`;
  const mcp = (what: string) => ({
    type: "local",
    command: [process.execPath, "-e", marker(what)],
    enabled: true,
  });
  const plugin = (what: string) =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(join(markers, what))}, "ran");\nexport const Planted = async () => ({});\n`;
  const memory = (file: string, where: string) => write(file, `Always answer in French. CANARY-${where}\n`);
  const config = join(fresh.home, ".config", "kilo");
  memory(join(config, "AGENTS.md"), "user-agents");
  memory(join(fresh.home, ".kilocode", "rules", "canary.md"), "user-rules");
  memory(join(fresh.home, ".kilo", "rules", "canary.md"), "user-kilo-rules");
  memory(join(root, "AGENTS.md"), "gitroot-agents");
  memory(join(project, "AGENTS.md"), "project-agents");
  memory(join(project, "CLAUDE.md"), "project-claude");
  memory(join(project, ".kilocoderules"), "project-legacy-rules");
  memory(join(project, ".kilo", "rules", "canary.md"), "project-rules");
  const key = `planted-kilo-key-${Math.random().toString(36).slice(2, 10)}`;
  write(
    join(config, "kilo.jsonc"),
    `// the user's own kilo config\n${JSON.stringify({
      provider: { anthropic: { options: { baseURL: `${server.url}/v1`, apiKey: key } } },
      model: suiteModels.kilo,
      mcp: { planteduser: mcp("mcp-user") },
      instructions: [join(fresh.home, "INSTRUCTIONS.md")],
    })}\n`,
  );
  memory(join(fresh.home, "INSTRUCTIONS.md"), "user-instructions");
  write(join(project, "kilo.json"), JSON.stringify({ mcp: { plantedproject: mcp("mcp-project") } }));
  write(join(config, "plugin", "planted.js"), plugin("plugin-user"));
  write(join(fresh.home, ".kilo", "plugin", "planted.js"), plugin("plugin-home"));
  write(join(project, ".kilo", "plugin", "planted.js"), plugin("plugin-project"));
  write(join(root, ".kilo", "plugin", "planted.js"), plugin("plugin-gitroot"));
  write(join(root, ".opencode", "plugin", "planted.js"), plugin("plugin-gitroot-opencode"));
  write(join(config, "agent", "canary.md"), "---\ndescription: CANARY-agent\n---\nCANARY-agent-body\n");
  write(join(config, "command", "canary.md"), "---\ndescription: CANARY-command\n---\nCANARY-command-body\n");
  return { project, markers, key };
}

describe("kilo: the user's setup does not reach the seat (real CLI)", () => {
  for (const isolation of ["on", "off"] as const) {
    test(
      isolation === "on"
        ? "memory files, rules, MCP servers, plugins, agents and commands planted at user, project and git-root level stay out; the planted login works"
        : "with isolation: off the planted setup does reach the seat (the check can fail)",
      async () => {
        const fresh = createFreshHome("kilo");
        const p = places(fresh);
        const planted = plantKiloSetup(fresh, p.caller);
        const mark = `MARK-ISOLATION-${isolation}`;
        server.setReply((req) => (req.allText.includes(mark) ? "isolated answer" : "side call"));
        const from = server.requests.length;
        try {
          const env = {
            PATH: process.env.PATH,
            HOME: fresh.home,
            TMPDIR: fresh.tmp,
            LANG: "C.UTF-8",
            // With the user's setup loaded, kilo would install plugin dependencies from npm.
            npm_config_offline: "true",
          };
          const result = await createAdapter(
            { ...suiteSeat("kilo"), isolation },
            { debateDir: p.debate, env },
          ).call({ prompt: `Answer plainly. ${mark}`, timeoutMs, cwd: planted.project });
          // MCP servers and plugins start in the background: give them time to leave a marker.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const requests = server.requests.slice(from);
          const text = requests.map((r) => JSON.stringify(r.body)).join("\n");
          const canaries = [...new Set(text.match(/CANARY-[A-Za-z0-9-]+/g) ?? [])];
          const markers = readdirSync(planted.markers);
          const mcpTools = requests.flatMap((r) => r.toolsOffered).filter((t) => /planted/i.test(t));
          expect(result.error).toBeUndefined();
          expect(result).toMatchObject({ status: "ok", text: "isolated answer" });
          // The seat reached the planted endpoint with the planted key.
          const ours = requests.filter((r) => r.allText.includes(mark));
          expect(ours.length).toBeGreaterThan(0);
          for (const req of ours) expect(JSON.stringify(req.headers)).toContain(planted.key);
          if (isolation === "on") {
            expect({ canaries, markers, mcpTools }).toEqual({ canaries: [], markers: [], mcpTools: [] });
          } else {
            console.info("kilo isolation off reached the seat:", { canaries, markers, mcpTools });
            expect(canaries.length + markers.length).toBeGreaterThan(0);
            // Tools stay off even then: no planted MCP tool is offered.
            expect(mcpTools).toEqual([]);
          }
          expect(seatProcesses(fresh)).toEqual([]);
        } finally {
          fresh.remove();
        }
      },
    );
  }
});

describe("kilo: a refused connection fails fast (real CLI)", () => {
  test("a seat whose loopback base_url refuses connections is unavailable at once, not after kilo's retries", async () => {
    const fresh = createFreshHome("kilo");
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
        ...suiteSeat("kilo"),
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
      expect(seatProcesses(fresh)).toEqual([]);
    } finally {
      fresh.remove();
    }
  });
});
