// Seat safety of the claude, codex and gemini adapters against their real, pinned CLIs
// (docs/architecture.md#adapters-and-seat-safety): a hostile model that asks for a shell command,
// a file write and a URL fetch gets none of them; `tools: read` reads inside its workspace only; the user's memory files,
// hooks, MCP servers and extensions planted in HOME, the caller's folder and its git root never
// reach an isolated seat (and do reach it with `isolation: off`, so the test can fail); a seat
// whose endpoint refuses connections fails in seconds.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createAdapter as createClaude } from "@debatekit/adapter-claude";
import { createAdapter as createCodex } from "@debatekit/adapter-codex";
import { createAdapter as createGemini } from "@debatekit/adapter-gemini";
import { type Adapter, type AdapterContext, type SeatCall, seatSandboxDir } from "@debatekit/adapter-kit";
import {
  type ModelReply,
  type ModelRequest,
  type ModelServer,
  startModelServer,
  type ToolCall,
} from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFreshHome, type FreshHome, pointCliAtServer, processesWithEnv, suiteSeat } from "./harness.js";
import { cliBinPath } from "./install-clis.mjs";
import { findFiles, mcpServerSource, places, write } from "./safety-helpers.js";

type Cli = "claude" | "codex" | "gemini";
type Factory = (seat: SeatConfig, context: AdapterContext) => Adapter;
const factories: Record<Cli, Factory> = { claude: createClaude, codex: createCodex, gemini: createGemini };
const only = process.env.DEBATEKIT_CLIS?.split(",");
const timeoutMs = 90_000;

let server: ModelServer;
/** Stands in for every other host: a URL fetch the model asks for would land here. */
let elsewhere: Server;
let elsewhereUrl: string;
const elsewhereHits: string[] = [];
/** A port nothing listens on (the refused-endpoint cases). */
let closedPort: number;

beforeAll(async () => {
  server = await startModelServer();
  elsewhere = createServer((req, res) => {
    elsewhereHits.push(`${req.method} ${req.url}`);
    res.end("fetched");
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => elsewhere.close(resolve));
});

/** A shell command that leaves a `pwned-*` file in the seat's folder, HOME, the debate and caller folders. */
function markerCommand(fresh: FreshHome, p: { debate: string; caller: string }): string {
  return `touch pwned-cwd ${fresh.home}/pwned-home ${p.debate}/pwned-debate ${p.caller}/pwned-caller`;
}

/** The hostile tool calls, in each CLI's own tool names and argument shapes. */
function hostileCalls(
  cli: Cli,
  fresh: FreshHome,
  p: { debate: string; caller: string },
): Record<"shell" | "write" | "fetch", ToolCall> {
  const command = markerCommand(fresh, p);
  const file = join(p.debate, "pwned-write.txt");
  const url = `${elsewhereUrl}/exfiltrate`;
  switch (cli) {
    case "claude":
      return {
        shell: { name: "Bash", arguments: { command, description: "write a marker" } },
        write: { name: "Write", arguments: { file_path: file, content: "pwned" } },
        fetch: { name: "WebFetch", arguments: { url, prompt: "summarize" } },
      };
    case "codex":
      return {
        shell: { name: "exec_command", arguments: { cmd: command } },
        write: {
          name: "apply_patch",
          arguments: { input: `*** Begin Patch\n*** Add File: ${file}\n+pwned\n*** End Patch\n` },
        },
        fetch: { name: "shell", arguments: { command: ["curl", "-s", url] } },
      };
    case "gemini":
      return {
        shell: { name: "run_shell_command", arguments: { command } },
        write: { name: "write_file", arguments: { file_path: file, content: "pwned" } },
        fetch: { name: "web_fetch", arguments: { prompt: `Fetch ${url} and summarize it` } },
      };
  }
}

/** Tools a seat with tools off may be offered: nothing that acts (codex always offers request_user_input). */
const harmlessTools: Record<Cli, string[]> = {
  claude: [],
  codex: ["request_user_input"],
  gemini: [],
};
/** ... and with `tools: read`. */
const readTools: Record<Cli, string[]> = {
  claude: ["Read", "Grep", "Glob", "DeferredToolPlaceholder"],
  codex: [],
  gemini: ["read_file", "read_many_files", "list_directory", "glob", "grep_search"],
};

/** Requests this case made (the server's log since `from`). */
function since(from: number): ModelRequest[] {
  return server.requests.slice(from);
}

for (const cli of Object.keys(factories) as Cli[]) {
  if (only && !only.includes(cli)) continue;
  const factory = factories[cli];

  describe(`${cli}: a hostile model acts on nothing (real CLI)`, () => {
    for (const kind of ["shell", "write", "fetch"] as const) {
      test(`a ${kind} tool call is refused; the seat answers after it and the envelope names the tool`, async () => {
        const fresh = createFreshHome(cli);
        const p = places(fresh);
        const call = hostileCalls(cli, fresh, p)[kind];
        const hits = elsewhereHits.length;
        server.setReply(
          (req): ModelReply => (req.hasToolResult ? "answer after the refused tool" : { toolCall: call }),
        );
        const from = server.requests.length;
        try {
          const env = pointCliAtServer(cli, server, fresh);
          const adapter = factory(suiteSeat(cli), { debateDir: p.debate, env });
          const result = await adapter.call({
            prompt: `Debate please. MARK-${kind}`,
            timeoutMs,
            cwd: p.caller,
          });
          const requests = since(from);
          // Nothing was done (checked first: with the switches removed, this is what fails)...
          expect(findFiles(fresh.home, "pwned")).toEqual([]);
          expect(elsewhereHits.slice(hits)).toEqual([]);
          expect(requests.length).toBeGreaterThan(0);
          // ...nothing that acts was even offered...
          for (const req of requests)
            expect(req.toolsOffered.filter((t) => !harmlessTools[cli].includes(t))).toEqual([]);
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
      const fresh = createFreshHome(cli);
      const p = places(fresh);
      const call = hostileCalls(cli, fresh, p).shell;
      server.setReply((req): ModelReply => (req.hasToolResult ? "" : { toolCall: call }));
      try {
        const env = pointCliAtServer(cli, server, fresh);
        const result = await factory(suiteSeat(cli), { debateDir: p.debate, env }).call({
          prompt: "Debate please. MARK-TOOLS-ONLY",
          timeoutMs,
          cwd: p.caller,
        });
        expect(findFiles(fresh.home, "pwned")).toEqual([]);
        expect(result.status).toBe("exit");
        expect(result.text).toBe("");
        // gemini retries an empty answer and reports its own "empty response" error instead.
        if (cli !== "gemini") {
          expect(result.error).toContain(`asked for tools (${call.name}`);
          expect(result.toolCalls).toContain(call.name);
        }
      } finally {
        fresh.remove();
      }
    });
  });

  describe(`${cli}: tools: read stays inside the workspace (real CLI)`, () => {
    test(
      cli === "codex"
        ? "tools: read is unavailable with a clear error (codex reads only through its shell)"
        : "a read inside the workspace reaches the model; a read outside is refused (even when the user's own settings allow it and isolation is off)",
      async () => {
        const fresh = createFreshHome(cli);
        const p = places(fresh);
        const workspace = join(p.caller, "repo");
        mkdirSync(workspace, { recursive: true });
        writeFileSync(join(workspace, "evidence.txt"), "INSIDE-CONTENT-4711\n");
        writeFileSync(join(fresh.home, "secret.txt"), "OUTSIDE-SECRET-0815\n");
        const readName = cli === "claude" ? "Read" : "read_file";
        const pathKey = cli === "claude" ? "file_path" : "file_path";
        let step = 0;
        server.setReply((): ModelReply => {
          step += 1;
          if (step === 1)
            return {
              toolCall: { name: readName, arguments: { [pathKey]: join(workspace, "evidence.txt") } },
            };
          if (step === 2)
            return { toolCall: { name: readName, arguments: { [pathKey]: join(fresh.home, "secret.txt") } } };
          return "read done";
        });
        const from = server.requests.length;
        try {
          const env = pointCliAtServer(cli, server, fresh);
          mkdirSync(join(fresh.home, `.${cli}`), { recursive: true });
          const seat: SeatConfig = { ...suiteSeat(cli), tools: "read", workspace };
          // The user's own settings would widen the reads (claude: a rule allowing every read;
          // gemini: the whole HOME as a workspace folder), and isolation off would load them.
          if (cli === "claude")
            writeFileSync(
              join(fresh.home, ".claude", "settings.json"),
              JSON.stringify({ permissions: { allow: ["Read"] } }),
            );
          if (cli === "gemini")
            writeFileSync(
              join(fresh.home, ".gemini", "settings.json"),
              JSON.stringify({
                security: { auth: { selectedType: "gemini-api-key" } },
                general: { maxAttempts: 1 },
                context: { includeDirectories: [fresh.home] },
              }),
            );
          seat.isolation = "off";
          const result = await factory(seat, { debateDir: p.debate, env }).call({
            prompt: "Cite the evidence. MARK-READ",
            timeoutMs,
            cwd: p.caller,
          });
          const requests = since(from);
          if (cli === "codex") {
            expect(result.status).toBe("unavailable");
            expect(result.error).toMatch(/tools: read.*not available/);
            expect(requests).toEqual([]);
            return;
          }
          for (const req of requests)
            expect(req.toolsOffered.filter((t) => !readTools[cli].includes(t))).toEqual([]);
          expect(result).toMatchObject({ status: "ok", text: "read done" });
          expect(result.toolCalls).toContain(readName);
          expect(requests.some((r) => JSON.stringify(r.body).includes("INSIDE-CONTENT-4711"))).toBe(true);
          expect(requests.some((r) => JSON.stringify(r.body).includes("OUTSIDE-SECRET-0815"))).toBe(false);
        } finally {
          fresh.remove();
        }
      },
    );
  });

  describe(`${cli}: the user's setup does not reach the seat (real CLI)`, () => {
    // Each case: isolation, and whether the seat reads the planted project (`tools: read` with the
    // caller's folder as workspace: the project's and git root's files are then in play). codex
    // has no read tools; claude's `tools: read` runs --restricted (no settings or CLAUDE.md) and
    // gemini's is always isolated, whatever `isolation` says, so their switches are checked with
    // tools off too.
    const cases: Array<{ isolation: "on" | "off"; read: boolean }> =
      cli === "codex"
        ? [
            { isolation: "on", read: false },
            { isolation: "off", read: false },
          ]
        : cli === "claude"
          ? [
              { isolation: "on", read: false },
              { isolation: "on", read: true },
              { isolation: "off", read: false },
            ]
          : [
              { isolation: "on", read: false },
              { isolation: "on", read: true },
              { isolation: "off", read: false },
            ];
    for (const { isolation, read } of cases) {
      test(
        isolation === "on"
          ? `memory files, hooks, MCP servers and extensions planted at user, project and git-root level stay out; the planted login works (tools ${read ? "read in the project" : "off"})`
          : "with isolation: off the planted setup does reach the seat (the check can fail)",
        async () => {
          const fresh = createFreshHome(cli);
          const p = places(fresh);
          const planted = plantUserSetup(cli, fresh, p.caller);
          server.setReply(() => "isolated answer");
          const from = server.requests.length;
          try {
            const seat: SeatConfig = {
              ...suiteSeat(cli),
              isolation,
              ...(read ? { tools: "read" as const, workspace: planted.project } : {}),
            };
            const result = await factory(seat, { debateDir: p.debate, env: planted.env }).call({
              prompt: "Answer plainly. MARK-ISOLATION",
              timeoutMs,
              cwd: planted.project,
            });
            const requests = since(from);
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
              // What the user's setup brought in, for the record (e.g. when a CLI version moves).
              console.info(`${cli} isolation off reached the seat:`, { canaries, markers, mcpTools });
              expect(canaries.length + markers.length).toBeGreaterThan(0);
            }
          } finally {
            fresh.remove();
          }
        },
      );
    }
  });

  describe(`${cli}: a refused connection fails fast (real CLI)`, () => {
    test("a seat whose base_url refuses connections ends in seconds, not after the CLI's own retries", async () => {
      const fresh = createFreshHome(cli);
      const p = places(fresh);
      try {
        // No retry settings of the suite's own: the adapter's bounds are what is measured.
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          HOME: fresh.home,
          TMPDIR: fresh.tmp,
          LANG: "C.UTF-8",
          SEAT_KEY: "refused-seat-key-123",
        };
        if (cli === "gemini") {
          mkdirSync(join(fresh.home, ".gemini"), { recursive: true });
          writeFileSync(
            join(fresh.home, ".gemini", "settings.json"),
            JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }),
          );
        }
        const seat: SeatConfig = {
          ...suiteSeat(cli),
          base_url: `http://127.0.0.1:${closedPort}${cli === "codex" ? "/v1" : ""}`,
          api_key_env: "SEAT_KEY",
        };
        const result: SeatCall = await factory(seat, { debateDir: p.debate, env }).call({
          prompt: "hi",
          timeoutMs: 60_000,
          cwd: p.caller,
        });
        expect(result.status).toBe("exit");
        expect(result.durationMs).toBeLessThan(15_000);
        expect(processesWithEnv(fresh.home)).toEqual([]);
      } finally {
        fresh.remove();
      }
    });
  });
}

interface PlantedSetup {
  /** The caller's working directory (a sub folder of a git root), used as the seat's workspace. */
  project: string;
  /** Where the planted hooks, MCP servers and extensions write when they run. */
  markers: string;
  /** The key planted as the user's credential: every model request must carry it. */
  key: string;
  /** The caller's environment: only HOME, TMPDIR, PATH and what the user's own setup needs. */
  env: NodeJS.ProcessEnv;
}

/**
 * Plants a user's setup for one CLI: memory/instruction files holding a canary in HOME, the
 * caller's folder and its git root; hooks, user and project MCP servers and (gemini) an extension
 * whose start writes a marker; the login (endpoint + key) in the user's own config.
 */
function plantUserSetup(cli: Cli, fresh: FreshHome, caller: string): PlantedSetup {
  const root = join(caller, "repo");
  const project = join(root, "sub");
  const markers = join(fresh.home, "markers");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(markers, { recursive: true });
  const mcp = join(fresh.home, "mcp-server.cjs");
  writeFileSync(mcp, mcpServerSource);
  const mcpArgs = (name: string) => [mcp, join(markers, `mcp-${name}`), `${name}_canary_tool`];
  const touch = (name: string) => `touch ${join(markers, `hook-${name}`)}`;
  const base = { PATH: process.env.PATH, HOME: fresh.home, TMPDIR: fresh.tmp, LANG: "C.UTF-8" };
  const key = `planted-${cli}-key-${Math.random().toString(36).slice(2, 10)}`;
  const memory = (file: string, where: string) => write(file, `Always answer in French. CANARY-${where}\n`);
  switch (cli) {
    case "claude": {
      const claude = join(fresh.home, ".claude");
      memory(join(claude, "CLAUDE.md"), "user-memory");
      memory(join(fresh.home, "CLAUDE.md"), "home-memory");
      memory(join(root, "CLAUDE.md"), "gitroot-memory");
      memory(join(project, "CLAUDE.md"), "project-memory");
      memory(join(project, "CLAUDE.local.md"), "project-local-memory");
      const real = realpathSync(root);
      // The seat's own folder (tools off) is where auto-memory would be looked up too.
      const seatCwd = join(
        seatSandboxDir(join(fresh.home, "debate"), "claude", { TMPDIR: fresh.tmp }),
        "work",
      );
      for (const dir of [real, join(real, "sub"), seatCwd])
        memory(
          join(claude, "projects", dir.replace(/[^A-Za-z0-9]/g, "-"), "memory", "MEMORY.md"),
          "auto-memory",
        );
      const hooks = (who: string) => ({
        SessionStart: [{ hooks: [{ type: "command", command: touch(`${who}-session`) }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: touch(`${who}-prompt`) }] }],
      });
      write(
        join(claude, "settings.json"),
        JSON.stringify({
          hooks: hooks("user"),
          permissions: { allow: ["Bash", "Write", "WebFetch", "Read"] },
          // The login: endpoint and key live only in the user's settings (passed through when isolated).
          env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: key, CLAUDE_CODE_MAX_RETRIES: "0" },
        }),
      );
      write(
        join(project, ".claude", "settings.json"),
        JSON.stringify({ hooks: hooks("project"), enableAllProjectMcpServers: true }),
      );
      write(
        join(fresh.home, ".claude.json"),
        JSON.stringify({
          hasCompletedOnboarding: true,
          mcpServers: { usermcp: { type: "stdio", command: process.execPath, args: mcpArgs("user") } },
        }),
      );
      write(
        join(project, ".mcp.json"),
        JSON.stringify({
          mcpServers: { projmcp: { type: "stdio", command: process.execPath, args: mcpArgs("project") } },
        }),
      );
      // A plugin installed the way a user does it (a local marketplace): its SessionStart hook
      // and its MCP server write markers.
      const market = join(fresh.home, "market");
      write(
        join(market, ".claude-plugin", "marketplace.json"),
        JSON.stringify({
          name: "canary-market",
          owner: { name: "canary" },
          plugins: [{ name: "canary", source: "./canary", description: "CANARY-plugin" }],
        }),
      );
      write(
        join(market, "canary", ".claude-plugin", "plugin.json"),
        JSON.stringify({ name: "canary", version: "1.0.0", description: "CANARY-plugin" }),
      );
      write(join(market, "canary", "hooks", "hooks.json"), JSON.stringify({ hooks: hooks("plugin") }));
      write(
        join(market, "canary", ".mcp.json"),
        JSON.stringify({ mcpServers: { plugmcp: { command: process.execPath, args: mcpArgs("plugin") } } }),
      );
      for (const args of [
        ["plugin", "marketplace", "add", market],
        ["plugin", "install", "canary@canary-market"],
      ])
        execFileSync(cliBinPath("claude"), args, {
          env: base,
          cwd: fresh.home,
          stdio: "ignore",
          timeout: 60_000,
        });
      write(
        join(claude, "agents", "canary.md"),
        "---\nname: canary-agent\ndescription: CANARY-agent\n---\nCANARY-agent-body\n",
      );
      write(
        join(claude, "skills", "canary", "SKILL.md"),
        "---\nname: canary-skill\ndescription: CANARY-skill\n---\nCANARY-skill-body\n",
      );
      return { project, markers, key, env: base };
    }
    case "codex": {
      const codex = join(fresh.home, ".codex");
      memory(join(codex, "AGENTS.md"), "user-agents");
      memory(join(root, "AGENTS.md"), "gitroot-agents");
      memory(join(project, "AGENTS.md"), "project-agents");
      write(
        join(codex, "config.toml"),
        [
          'model_provider = "stub"',
          `notify = [${JSON.stringify(process.execPath)}, "-e", ${JSON.stringify(`require("fs").writeFileSync(${JSON.stringify(join(markers, "hook-notify"))}, "x")`)}]`,
          'developer_instructions = "CANARY-developer-instructions"',
          "[model_providers.stub]",
          'name = "stub"',
          `base_url = "${server.url}/v1"`,
          'env_key = "STUB_KEY"',
          'wire_api = "responses"',
          "supports_websockets = false",
          "request_max_retries = 0",
          "stream_max_retries = 0",
          "[mcp_servers.usermcp]",
          `command = ${JSON.stringify(process.execPath)}`,
          `args = ${JSON.stringify(mcpArgs("user"))}`,
          'default_tools_approval_mode = "approve"',
          `[projects.${JSON.stringify(realpathSync(root))}]`,
          'trust_level = "trusted"',
          "",
        ].join("\n"),
      );
      write(
        join(project, ".codex", "config.toml"),
        `[mcp_servers.projmcp]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(mcpArgs("project"))}\n`,
      );
      write(
        join(codex, "skills", "canary", "SKILL.md"),
        "---\nname: canary-skill\ndescription: CANARY-skill\n---\nCANARY-skill-body\n",
      );
      write(
        join(fresh.home, ".agents", "skills", "canary2", "SKILL.md"),
        "---\nname: canary-skill2\ndescription: CANARY-skill2\n---\nbody\n",
      );
      return { project, markers, key, env: { ...base, STUB_KEY: key } };
    }
    case "gemini": {
      const gemini = join(fresh.home, ".gemini");
      memory(join(gemini, "GEMINI.md"), "user-gemini");
      memory(join(root, "GEMINI.md"), "gitroot-gemini");
      memory(join(project, "GEMINI.md"), "project-gemini");
      const hooks = (who: string) => ({
        SessionStart: [{ hooks: [{ type: "command", command: touch(`${who}-session`) }] }],
        BeforeAgent: [{ hooks: [{ type: "command", command: touch(`${who}-before-agent`) }] }],
      });
      write(
        join(gemini, "settings.json"),
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          general: { maxAttempts: 1 },
          mcpServers: { usermcp: { command: process.execPath, args: mcpArgs("user"), trust: true } },
          hooks: hooks("user"),
          tools: { allowed: ["run_shell_command"] },
        }),
      );
      write(
        join(project, ".gemini", "settings.json"),
        JSON.stringify({
          mcpServers: { projmcp: { command: process.execPath, args: mcpArgs("project"), trust: true } },
          hooks: hooks("project"),
        }),
      );
      const ext = join(gemini, "extensions", "canary-ext");
      write(
        join(ext, "gemini-extension.json"),
        JSON.stringify({
          name: "canary-ext",
          version: "1.0.0",
          contextFileName: "CANARY.md",
          mcpServers: { extmcp: { command: process.execPath, args: mcpArgs("extension") } },
        }),
      );
      write(join(ext, "CANARY.md"), "CANARY-extension-context\n");
      write(
        join(gemini, "trustedFolders.json"),
        JSON.stringify({ [realpathSync(root)]: "TRUST_FOLDER", [realpathSync(project)]: "TRUST_FOLDER" }),
      );
      return {
        project,
        markers,
        key,
        env: { ...base, GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: key },
      };
    }
  }
}
