// debatekit inside the coding agents, with the real pinned CLIs against the loopback model server:
// claude and opencode as MCP clients of `debate mcp` (the model answers with calls to our tools),
// the Claude Code plugin installed with the README's one command and loaded by claude, and the
// OpenCode commands written by `debate setup opencode` and run by opencode.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type ModelRequest, type ModelServer, startModelServer } from "@debatekit/model-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFreshHome, type FreshHome, pointCliAtServer } from "./harness.js";
import { cliBinPath, repoRoot } from "./install-clis.mjs";

const run = promisify(execFile);
const bin = join(repoRoot, "apps/debate/dist/bin.js");
const motion = "This house would require a second AI model's review before merging AI-written code.";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(() => "ok");
});
afterAll(async () => {
  await server.close();
});

/**
 * The model's side of a short agent session: create a debate with manual seats, advance it one
 * step, then say where it stands. Only requests that offer our tool get tool calls (a CLI's side
 * requests, such as a session title, get plain text).
 */
function agentModel(tool: (name: string) => string, slug: string) {
  return (request: ModelRequest) => {
    if (!request.toolsOffered.includes(tool("debate_new"))) return "ok";
    if (request.allText.includes('"status": "waiting"')) return "The debate now waits for both debaters.";
    if (request.allText.includes('"next": "debate_run"'))
      return { toolCall: { name: tool("debate_run"), arguments: { debate: slug, until: "step" } } };
    return {
      toolCall: {
        name: tool("debate_new"),
        arguments: {
          motion,
          slug,
          length: 1,
          seats: { proposition: "manual", opposition: "manual", judge: "manual" },
        },
      },
    };
  };
}

/** What the MCP server did, read from the folder it wrote (never from the CLI's exit code). */
function expectDebateStepped(debates: string, slug: string) {
  const dir = join(debates, slug);
  expect(readFileSync(join(dir, "debate.md"), "utf8")).toMatch(
    /^seats:\n {2}proposition:\n {4}adapter: manual$/m,
  );
  // debate_run went one step: the manual seats' prompts are written, waiting for their answers.
  expect(readdirSync(join(dir, "prompts")).sort()).toEqual(["e000-opposition.md", "e000-proposition.md"]);
}

describe("claude", () => {
  let fresh: FreshHome;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    fresh = createFreshHome("claude-agent");
    const { CLAUDECODE: _nested, ...pointed } = pointCliAtServer("claude", server, fresh);
    // MCP tools in the first request (no ToolSearch round trip), and a quick start-up wait.
    env = { ...pointed, ENABLE_TOOL_SEARCH: "false", MCP_TIMEOUT: "30000" };
  });
  afterAll(() => fresh.remove());

  it("calls debate mcp's tools (--mcp-config): creates a debate and advances it one step", async () => {
    const debates = join(fresh.cwd, "debates");
    const config = join(fresh.home, "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          debatekit: {
            type: "stdio",
            command: process.execPath,
            args: [bin, "mcp", "--dir", debates],
            env: {},
          },
        },
      }),
    );
    server.setReply(agentModel((t) => `mcp__debatekit__${t}`, "mcp-claude"));
    const before = server.requests.length;
    const child = run(
      cliBinPath("claude"),
      [
        "-p",
        "Start a debate on requiring a second model's review, then run its first step.",
        "--output-format",
        "json",
        "--model",
        "sonnet",
        "--mcp-config",
        config,
        "--strict-mcp-config",
        "--setting-sources",
        "",
        "--allowedTools",
        "mcp__debatekit__debate_new,mcp__debatekit__debate_run",
      ],
      { cwd: fresh.cwd, env, timeout: 90_000 },
    );
    const { stdout } = await child;
    const requests = server.requests
      .slice(before)
      .filter((r) => r.toolsOffered.includes("mcp__debatekit__debate_new"));
    expect(requests[0]!.toolsOffered).toEqual(
      expect.arrayContaining([
        "mcp__debatekit__debate_run",
        "mcp__debatekit__debate_status",
        "mcp__debatekit__debate_answer",
      ]),
    );
    // The results came back to the model: the created debate, then the run's summary.
    expect(requests.some((r) => r.hasToolResult && r.allText.includes('"debate": "mcp-claude"'))).toBe(true);
    expect(requests.some((r) => r.allText.includes('"status": "waiting"'))).toBe(true);
    expectDebateStepped(debates, "mcp-claude");
    expect(JSON.parse(stdout).result).toBe("The debate now waits for both debaters.");
  });

  it("installs the plugin with the README's one command, validates it and runs its /debate-new command", async () => {
    const claude = cliBinPath("claude");
    const opts = { cwd: fresh.home, env, timeout: 60_000 };
    // The README's command, with this checkout as the marketplace instead of the GitHub repository.
    await run(claude, ["plugin", "install", "debatekit", "--marketplace", repoRoot], opts);
    const validated = JSON.parse(
      (
        await run(
          claude,
          ["plugin", "validate", "--strict", "--json", join(repoRoot, "apps/debate/plugin")],
          opts,
        )
      ).stdout,
    );
    expect(validated.success).toBe(true);
    expect(validated.provides.commands.sort()).toEqual([
      "debatekit:debate-new",
      "debatekit:debate-report",
      "debatekit:debate-review",
      "debatekit:debate-run",
      "debatekit:debate-serve",
    ]);
    expect(validated.provides.skills).toEqual(["debatekit:debatekit"]);
    expect(validated.provides.mcpServers.map((s: { name: string }) => s.name)).toEqual(["debatekit"]);
    const market = JSON.parse(
      (await run(claude, ["plugin", "validate", "--strict", "--json", repoRoot], opts)).stdout,
    );
    expect(market.success).toBe(true);
    const details = (await run(claude, ["plugin", "details", "debatekit@debatekit"], opts)).stdout;
    for (const name of ["debate-new", "debate-run", "debate-report", "debate-review", "debate-serve"])
      expect(details).toContain(name);

    // The installed command, run headless: its text (with the arguments) reaches the model.
    server.setReply(() => "noted");
    const before = server.requests.length;
    await run(
      claude,
      [
        "-p",
        `/debatekit:debate-new "${motion}" --proposition codex --opposition gemini`,
        "--output-format",
        "json",
        "--model",
        "sonnet",
      ],
      { cwd: fresh.cwd, env, timeout: 90_000 },
    );
    const sent = server.requests.slice(before).map((r) => r.allText);
    expect(
      sent.some(
        (t) =>
          t.includes("Create a debatekit debate from these arguments:") && t.includes("--opposition gemini"),
      ),
    ).toBe(true);
  });
});

describe("opencode", () => {
  let fresh: FreshHome;
  afterAll(() => fresh?.remove());

  it("`debate setup opencode` adds the commands and the MCP server; /debate-new calls our tools", async () => {
    fresh = createFreshHome("opencode-agent");
    const debates = join(fresh.cwd, "debates");
    const setup = await run(
      process.execPath,
      [bin, "setup", "opencode", "--", process.execPath, bin, "mcp", "--dir", debates],
      { cwd: fresh.cwd, env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(setup.stdout).toMatch(
      /^wrote \/debate-new, \/debate-report, \/debate-review, \/debate-run, \/debate-serve to \.opencode\/command$/m,
    );
    expect(existsSync(join(fresh.cwd, "opencode.json"))).toBe(true);

    server.setReply(agentModel((t) => `debatekit_${t}`, "mcp-opencode"));
    const before = server.requests.length;
    // npm offline: opencode tries to install its plugin package into each config folder it reads.
    const env = {
      ...pointCliAtServer("opencode", server, fresh),
      npm_config_offline: "true",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
    };
    const opencode = run(
      cliBinPath("opencode"),
      [
        "run",
        "--format",
        "json",
        "--command",
        "debate-new",
        `"${motion}" --proposition manual --opposition manual --judge manual`,
      ],
      { cwd: fresh.cwd, env, timeout: 90_000 },
    );
    // With stdin open, `opencode run` waits for more of the message.
    opencode.child.stdin!.end();
    const { stdout } = await opencode;
    const requests = server.requests
      .slice(before)
      .filter((r) => r.toolsOffered.includes("debatekit_debate_new"));
    // The command's text, with its arguments, is what opencode sent.
    expect(requests[0]!.allText).toContain("Create a debatekit debate from these arguments:");
    expect(requests[0]!.allText).toContain("--judge manual");
    expect(requests[0]!.toolsOffered).toEqual(
      expect.arrayContaining(["debatekit_debate_run", "debatekit_debate_report"]),
    );
    expect(requests.some((r) => r.hasToolResult && r.allText.includes('"debate": "mcp-opencode"'))).toBe(
      true,
    );
    expectDebateStepped(debates, "mcp-opencode");
    expect(stdout).toContain("The debate now waits for both debaters.");
  });
});
