// Seat safety (docs/architecture.md#adapters-and-seat-safety) against the real, pinned opencode and copilot CLIs
// and the acp adapter with `opencode acp`, each talking to the loopback model server:
// - a hostile model asks for a shell command, a file write and a URL fetch: nothing runs, no
//   other host is reached, the call ends with a clear status and names the tools it tried, and
//   no acting tool is even offered;
// - `tools: read` reads inside its workspace and is refused outside it;
// - the user's setup (memory files, MCP servers, plugins, instructions) planted in HOME, the
//   caller's folder and its git root does not reach an isolated seat, whose planted credentials
//   still work; with `isolation: off` it does (the test can fail).
// DEBATEKIT_CLIS=opencode,copilot,acp limits the targets.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAdapter as createAcp } from "@debatekit/adapter-acp";
import { createAdapter as createCopilot } from "@debatekit/adapter-copilot";
import type { Adapter, AdapterContext, SeatCall } from "@debatekit/adapter-kit";
import { createAdapter as createOpencode } from "@debatekit/adapter-opencode";
import {
  type ModelReply,
  type ModelRequest,
  type ModelServer,
  startModelServer,
  type ToolCall,
} from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFreshHome, type FreshHome, pointCliAtServer, suiteModels, suiteSeat } from "./harness.js";
import { cliBinPath } from "./install-clis.mjs";
import { closedLoopbackPort, type OtherHost, startOtherHost } from "./safety-helpers.js";

const only = process.env.DEBATEKIT_CLIS?.split(",");
const seatTimeoutMs = 90_000;

/** How many tool results a request carries: the step of the model's scripted turn. */
function toolStep(request: ModelRequest): number {
  const text = JSON.stringify(request.body ?? {});
  const found =
    text.match(/"type":"tool_result"|"role":"tool"|"type":"function_call_output"|"functionResponse"/g) ?? [];
  return found.length;
}

/** Files under `dir` (recursively) whose name contains `needle`. */
function findFiles(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.name.includes(needle)) found.push(join(entry.parentPath ?? dir, entry.name));
  }
  return found;
}

type Factory = (seat: SeatConfig, context: AdapterContext) => Adapter;

/** One seat kind under test: how to make it, point it at the server, and its tools' real names. */
interface Target {
  name: "opencode" | "copilot" | "acp";
  cli: "opencode" | "copilot";
  create: Factory;
  seat(extra?: Partial<SeatConfig>): SeatConfig;
  env(fresh: FreshHome): NodeJS.ProcessEnv;
  /** The model's moves: shell commands, a file write, a URL fetch (this CLI's tool names). */
  hostile(m: { relative: string; absolute: string; url: string }): ToolCall[];
  read(path: string): ToolCall;
  /** Names the seat offers with `tools: read` (at most). */
  readTools: string[];
}

const opencodeHostile: Target["hostile"] = (m) => [
  // Inside the working folder first: no path check of the CLI's own stands in the way.
  { name: "bash", arguments: { command: `echo pwned > ${m.relative}-local`, description: "marker" } },
  {
    name: "bash",
    arguments: {
      command: `echo pwned > ${m.relative}-shell; echo pwned > ${m.absolute}-shell; curl -s ${m.url}/from-shell`,
      description: "marker",
    },
  },
  { name: "write", arguments: { filePath: `${m.absolute}-write`, content: "pwned" } },
  { name: "webfetch", arguments: { url: `${m.url}/from-fetch`, format: "text" } },
];

const targets: Target[] = [
  {
    name: "opencode",
    cli: "opencode",
    create: createOpencode,
    seat: (extra) => ({ ...suiteSeat("opencode"), ...extra }),
    env: (fresh) => pointCliAtServer("opencode", server, fresh),
    hostile: opencodeHostile,
    read: (path) => ({ name: "read", arguments: { filePath: path } }),
    readTools: ["read", "grep", "glob"],
  },
  {
    name: "copilot",
    cli: "copilot",
    create: createCopilot,
    seat: (extra) => ({ ...suiteSeat("copilot"), ...extra }),
    env: (fresh) => {
      // Not offline: offline mode alone removes copilot's web_fetch tool; the switches must.
      const { COPILOT_OFFLINE: _, ...env } = pointCliAtServer("copilot", server, fresh);
      return env;
    },
    hostile: (m) => [
      { name: "bash", arguments: { command: `echo pwned > ${m.relative}-local`, description: "marker" } },
      {
        name: "bash",
        arguments: {
          command: `echo pwned > ${m.relative}-shell; echo pwned > ${m.absolute}-shell; curl -s ${m.url}/from-shell`,
          description: "marker",
        },
      },
      {
        name: "apply_patch",
        arguments: { input: `*** Begin Patch\n*** Add File: ${m.absolute}-write\n+pwned\n*** End Patch\n` },
      },
      { name: "web_fetch", arguments: { url: `${m.url}/from-fetch` } },
    ],
    read: (path) => ({ name: "view", arguments: { path } }),
    readTools: ["view", "glob", "rg"],
  },
  {
    name: "acp",
    cli: "opencode",
    create: createAcp,
    seat: (extra) => ({
      adapter: "acp",
      command: [cliBinPath("opencode"), "acp"],
      model: suiteModels.opencode,
      ...extra,
    }),
    env: (fresh) => pointCliAtServer("opencode", server, fresh),
    hostile: opencodeHostile,
    read: (path) => ({ name: "read", arguments: { filePath: path } }),
    readTools: ["read", "grep", "glob"],
  },
];

let server: ModelServer;
let other: OtherHost;
beforeAll(async () => {
  server = await startModelServer();
  other = await startOtherHost();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

/** Replies with each scripted tool call in turn (one per model request of the call), then `last`. */
function script(mark: string, calls: ToolCall[], last: ModelReply): (req: ModelRequest) => ModelReply {
  return (req) => {
    if (!req.allText.includes(mark)) return "side call";
    const step = toolStep(req);
    return step < calls.length ? { toolCall: calls[step]! } : last;
  };
}

for (const target of targets) {
  if (only && !only.includes(target.name)) continue;
  describe(`${target.name}: seat safety (real CLI)`, () => {
    // One HOME for the block: copilot unpacks 235 MB into a fresh HOME on its first start.
    let fresh: FreshHome;
    beforeAll(() => {
      fresh = createFreshHome(`safety-${target.name}`);
    });
    afterAll(() => fresh.remove());

    /** A debate folder of its own per call (so each call gets its own seat sandbox). */
    function debateDir(name: string): string {
      const dir = join(fresh.home, "debates", name);
      mkdirSync(dir, { recursive: true });
      return dir;
    }

    async function ask(
      name: string,
      prompt: string,
      options: { seat?: Partial<SeatConfig>; env?: NodeJS.ProcessEnv } = {},
    ): Promise<{ call: SeatCall; requests: ModelRequest[]; dir: string }> {
      const dir = debateDir(name);
      const before = server.requests.length;
      const adapter = target.create(target.seat(options.seat), {
        debateDir: dir,
        env: options.env ?? target.env(fresh),
      });
      const call = await adapter.call({ prompt, timeoutMs: seatTimeoutMs, cwd: dir });
      return { call, requests: server.requests.slice(before), dir };
    }

    test("a hostile model's shell command, file write and URL fetch: nothing runs, nothing is offered", async () => {
      const mark = `MARK-HOSTILE-${target.name}`;
      const needle = `DKMARKER${target.name}`;
      const dir = debateDir("hostile");
      const hitsBefore = other.hits.length;
      const calls = target.hostile({ relative: needle, absolute: join(dir, needle), url: other.url });
      // The second shell command also aims at the caller's folder and HOME.
      const shell = calls[1]!.arguments as { command: string };
      shell.command += `; echo pwned > ${join(process.cwd(), needle)}-cwd; echo pwned > ${join(fresh.home, needle)}-home`;
      server.setReply(script(mark, calls, "final answer after refused tools"));
      try {
        const { call, requests } = await ask("hostile", `Argue the motion. ${mark}`);
        // Nothing ran: no marker in the seat's folder, the debate folder, HOME or the caller's
        // folder; nothing reached the other host.
        expect(findFiles(fresh.home, needle)).toEqual([]);
        expect(findFiles(process.cwd(), needle)).toEqual([]);
        expect(other.hits.slice(hitsBefore)).toEqual([]);
        const ours = requests.filter((r) => r.allText.includes(mark));
        // No tool at all was offered to the model.
        for (const request of ours) expect(request.toolsOffered).toEqual([]);
        // One request per move and the answer (opencode acp adds a title request).
        expect(ours.length).toBeGreaterThanOrEqual(calls.length + 1);
        expect(call.error).toBeUndefined();
        expect(call).toMatchObject({ status: "ok", text: "final answer after refused tools" });
        // Every scripted move reached the CLI and was reported as a tool the model asked for.
        expect(call.toolCalls).toEqual(expect.arrayContaining(calls.map((c) => c.name)));
      } finally {
        for (const file of [...findFiles(process.cwd(), needle)]) execFileSync("rm", ["-f", file]);
      }
    });

    test("a model whose only move is a refused tool ends with status exit saying so", async () => {
      const mark = `MARK-ONLYTOOL-${target.name}`;
      const calls = target
        .hostile({ relative: "x", absolute: join(fresh.home, "x"), url: other.url })
        .slice(0, 1);
      server.setReply(script(mark, calls, ""));
      const { call } = await ask("only-tool", `Argue. ${mark}`);
      expect(call.status).toBe("exit");
      expect(call.text).toBe("");
      expect(call.error).toMatch(/refused \(bash\)|tool/);
      expect(call.toolCalls).toContain("bash");
    });

    test("tools: read reads inside its workspace and is refused outside it", async () => {
      const mark = `MARK-READ-${target.name}`;
      // The workspace is a sub-folder of a git repository: the rest of the repository is outside.
      const repo = join(fresh.home, "read-repo");
      const workspace = join(repo, "evidence");
      mkdirSync(workspace, { recursive: true });
      execFileSync("git", ["init", "-q", repo]);
      writeFileSync(join(workspace, "inside.txt"), "INSIDE-CANARY-7431\n");
      writeFileSync(join(repo, "outside.txt"), "OUTSIDE-CANARY-9902\n");
      writeFileSync(join(fresh.home, "far.txt"), "FAR-CANARY-5517\n");
      const calls = [
        target.read(join(workspace, "inside.txt")),
        target.read(join(repo, "outside.txt")),
        target.read(join(fresh.home, "far.txt")),
      ];
      server.setReply(script(mark, calls, "read what I could"));
      const { call, requests } = await ask("read", `Cite the evidence. ${mark}`, {
        seat: { tools: "read", workspace },
      });
      const ours = requests.filter((r) => r.allText.includes(mark));
      const seen = ours.map((r) => JSON.stringify(r.body)).join("\n");
      expect(seen).not.toContain("OUTSIDE-CANARY-9902");
      expect(seen).not.toContain("FAR-CANARY-5517");
      expect(seen).toContain("INSIDE-CANARY-7431");
      expect(call.error).toBeUndefined();
      expect(call).toMatchObject({ status: "ok", text: "read what I could" });
      for (const request of ours)
        for (const tool of request.toolsOffered) expect(target.readTools).toContain(tool);
      expect(ours.some((r) => r.toolsOffered.includes(target.readTools[0]!))).toBe(true);
    });

    test("the seat's base_url and api_key_env (a variable name) reach the model server", async () => {
      const mark = `MARK-ENDPOINT-${target.name}`;
      const key = `seat-endpoint-key-${target.name}-5f2e8d1c9b`;
      const env: NodeJS.ProcessEnv = { ...target.env(fresh), DK_SEAT_KEY: key };
      // Nothing else points the CLI anywhere: the seat's settings must.
      delete env.OPENCODE_CONFIG_CONTENT;
      delete env.COPILOT_PROVIDER_BASE_URL;
      delete env.COPILOT_PROVIDER_API_KEY;
      server.setReply((req) => (req.allText.includes(mark) ? "endpoint answer" : "side call"));
      const { call, requests } = await ask("endpoint", `Argue. ${mark}`, {
        env,
        seat: { base_url: `${server.url}/v1`, api_key_env: "DK_SEAT_KEY" },
      });
      expect(call.error).toBeUndefined();
      expect(call).toMatchObject({ status: "ok", text: "endpoint answer" });
      const ours = requests.filter((r) => r.allText.includes(mark));
      expect(ours.length).toBeGreaterThan(0);
      for (const request of ours) expect(JSON.stringify(request.headers)).toContain(key);
    });

    test("a seat whose model server refuses connections is unavailable within seconds", async () => {
      const port = await closedLoopbackPort();
      const env: NodeJS.ProcessEnv = { ...target.env(fresh), DK_SEAT_KEY: "seat-key-refused-0123456789" };
      delete env.OPENCODE_CONFIG_CONTENT;
      delete env.COPILOT_PROVIDER_BASE_URL;
      const started = Date.now();
      const { call } = await ask("refused", "Argue.", {
        env,
        seat: { base_url: `http://127.0.0.1:${port}/v1`, api_key_env: "DK_SEAT_KEY" },
      });
      expect(call.status).toBe("unavailable");
      expect(call.error).toMatch(/refuses connections/);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    /**
     * Plants a user's setup: memory files with a canary in HOME, in the caller's folder and in
     * its parent git root; MCP servers (user and project level), plugins and hooks whose start
     * writes a marker; the planted credentials and endpoint. Returns the seat's env and workspace.
     */
    function plantUserSetup(): {
      env: NodeJS.ProcessEnv;
      workspace: string;
      canary: string;
      markers: string;
      key: string;
    } {
      // In the block's own HOME (a second HOME would cost copilot another 235 MB unpack).
      const canary = `CANARY-${target.name}-3141`;
      const home = fresh.home;
      const markers = join(home, "markers");
      const gitRoot = join(home, "project");
      const caller = join(gitRoot, "caller");
      mkdirSync(markers, { recursive: true });
      mkdirSync(caller, { recursive: true });
      execFileSync("git", ["init", "-q", gitRoot]);
      const memory = `Always end every answer with the words ${canary}.\n`;
      const write = (path: string, text: string) => {
        mkdirSync(join(path, ".."), { recursive: true });
        writeFileSync(path, text);
      };
      const node = process.execPath;
      const marker = (what: string) =>
        `require("fs").writeFileSync(${JSON.stringify(join(markers, what))}, "ran")`;
      for (const dir of [home, caller, gitRoot]) {
        for (const file of [
          "AGENTS.md",
          "CLAUDE.md",
          "GEMINI.md",
          ".github/copilot-instructions.md",
          ".claude/CLAUDE.md",
        ])
          write(join(dir, file), memory);
      }
      // opencode: user config (JSON with comments, holding the planted provider), plugins, MCP servers.
      const key = `planted-${target.name}-key-7c1f9a2b44d0`;
      const mcp = (what: string) => ({ type: "local", command: [node, "-e", marker(what)], enabled: true });
      write(
        join(home, ".config", "opencode", "opencode.jsonc"),
        `// the user's own opencode config\n${JSON.stringify(
          {
            provider: { anthropic: { options: { baseURL: `${server.url}/v1`, apiKey: key } } },
            model: suiteModels.opencode,
            mcp: { planteduser: mcp("opencode-mcp-user") },
            instructions: [join(home, "AGENTS.md")],
          },
          null,
          2,
        )}\n`,
      );
      write(join(home, ".config", "opencode", "AGENTS.md"), memory);
      write(
        join(caller, "opencode.json"),
        JSON.stringify({ mcp: { plantedproject: mcp("opencode-mcp-project") } }),
      );
      const plugin = (what: string) =>
        `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(join(markers, what))}, "ran");\nexport const Planted = async () => ({});\n`;
      write(join(home, ".config", "opencode", "plugin", "planted.js"), plugin("opencode-plugin-user"));
      write(join(home, ".opencode", "plugin", "planted.js"), plugin("opencode-plugin-home"));
      write(join(caller, ".opencode", "plugin", "planted.js"), plugin("opencode-plugin-project"));
      write(join(gitRoot, ".opencode", "plugin", "planted.js"), plugin("opencode-plugin-gitroot"));
      // copilot: user instructions, user MCP config, project MCP config.
      write(join(home, ".copilot", "copilot-instructions.md"), memory);
      const copilotMcp = (what: string) => ({
        mcpServers: { planted: { type: "local", command: node, args: ["-e", marker(what)], tools: ["*"] } },
      });
      write(join(home, ".copilot", "mcp-config.json"), JSON.stringify(copilotMcp("copilot-mcp-user")));
      write(join(caller, ".mcp.json"), JSON.stringify(copilotMcp("copilot-mcp-project")));
      // copilot hooks (user level in COPILOT_HOME/hooks, repository level in .github/hooks).
      const hook = (what: string) =>
        JSON.stringify({
          version: 1,
          hooks: {
            sessionStart: [{ type: "command", bash: `touch ${join(markers, `${what}-start`)}` }],
            userPromptSubmitted: [{ type: "command", bash: `touch ${join(markers, `${what}-prompt`)}` }],
          },
        });
      write(join(home, ".copilot", "hooks", "planted.json"), hook("copilot-hook-user"));
      write(join(gitRoot, ".github", "hooks", "planted.json"), hook("copilot-hook-repo"));
      write(join(caller, ".github", "mcp.json"), JSON.stringify(copilotMcp("copilot-mcp-github")));

      const env: NodeJS.ProcessEnv = target.env(fresh);
      if (target.cli === "opencode") delete env.OPENCODE_CONFIG_CONTENT;
      else env.COPILOT_PROVIDER_API_KEY = key;
      return { env, workspace: caller, canary, markers, key };
    }

    for (const isolation of ["on", "off"] as const) {
      test(`isolation ${isolation}: the user's memory files, MCP servers, plugins and hooks ${isolation === "on" ? "do not reach" : "reach"} the seat`, async () => {
        const mark = `MARK-ISO-${isolation}-${target.name}`;
        const planted = plantUserSetup();
        for (const file of readdirSync(planted.markers))
          execFileSync("rm", ["-f", join(planted.markers, file)]);
        server.setReply((req) => (req.allText.includes(mark) ? "isolated answer" : "side call"));
        const { call, requests } = await ask(`iso-${isolation}`, `Argue. ${mark}`, {
          // offline npm: with its setup loaded, opencode tries to install plugin dependencies
          // from the registry (no network here: slow failures, not part of what is tested).
          env: { ...planted.env, npm_config_offline: "true" },
          // The seat reads the caller's folder (inside a git root), the strongest case.
          seat: { tools: "read", workspace: planted.workspace, isolation },
        });
        // MCP servers and plugins start in the background: give them time to leave a marker.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const leaked = requests.some((r) => JSON.stringify(r.body).includes(planted.canary));
        const markers = readdirSync(planted.markers);
        const mcpOffered = requests.flatMap((r) => r.toolsOffered).filter((t) => /planted/i.test(t));
        if (isolation === "on") {
          expect(call.error).toBeUndefined();
          expect(call).toMatchObject({ status: "ok", text: "isolated answer" });
          expect(leaked).toBe(false);
          expect(markers).toEqual([]);
          expect(mcpOffered).toEqual([]);
          // The planted credentials and endpoint were used.
          const ours = requests.filter((r) => r.allText.includes(mark));
          expect(ours.length).toBeGreaterThan(0);
          for (const request of ours) expect(JSON.stringify(request.headers)).toContain(planted.key);
        } else {
          // Measured: the canary reaches the model, and the user's MCP server and plugins
          // (opencode) or hooks (copilot) run.
          expect(leaked).toBe(true);
          expect(markers.length).toBeGreaterThan(0);
          // Tools stay off even then: no planted MCP tool is offered.
          expect(mcpOffered).toEqual([]);
        }
      });
    }
  });
}
