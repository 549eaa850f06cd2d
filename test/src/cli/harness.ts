// Shared pieces of the CLI conformance suite: a fresh HOME/TMPDIR per test, the environment and
// config files that point each real CLI at the loopback model server, fixture recording, and a
// check that no process of a test is left behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SeatCall } from "@debatekit/adapter-kit";
import type { ModelServer } from "@debatekit/model-server";
import type { SeatConfig } from "@debatekit/schema";
import { type CliName, cliBinPath, pinnedClis, repoRoot } from "./install-clis.mjs";

/** A throwaway HOME (with TMPDIR inside) for one CLI run. */
export interface FreshHome {
  home: string;
  tmp: string;
  /** A working folder for the seat (the debate folder stand-in). */
  cwd: string;
  remove(): void;
}

/** Creates a fresh HOME, TMPDIR and working folder. */
export function createFreshHome(cli: string): FreshHome {
  const home = mkdtempSync(join(tmpdir(), `dk-${cli}-`));
  const tmp = join(home, "tmp");
  const cwd = join(home, "work");
  mkdirSync(tmp);
  mkdirSync(cwd);
  return { home, tmp, cwd, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** The model each CLI is asked for in the suite (names the CLI accepts offline). */
export const suiteModels: Record<CliName, string> = {
  claude: "sonnet",
  codex: "gpt-5.5",
  gemini: "gemini-2.5-pro",
  opencode: "anthropic/claude-sonnet-4-5",
  copilot: "gpt-5.5",
  qwen: "qwen3-coder-plus",
  kilo: "anthropic/claude-sonnet-4-5",
};

/**
 * Environment (and config files under HOME) that send one CLI to the model server, offline.
 * The API keys are dummies: the server accepts anything.
 */
export function pointCliAtServer(cli: CliName, server: ModelServer, fresh: FreshHome): NodeJS.ProcessEnv {
  allowPinnedClis(fresh);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: fresh.home,
    TMPDIR: fresh.tmp,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
  };
  switch (cli) {
    case "claude":
      return {
        ...env,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "stub-anthropic-key",
        CLAUDE_CODE_MAX_RETRIES: "0",
        // Inside a Claude Code session this is set; the adapter must remove it.
        CLAUDECODE: "1",
      };
    case "codex": {
      // The user's own config file is where a provider lives; the adapter's argv stays untouched.
      mkdirSync(join(fresh.home, ".codex"), { recursive: true });
      writeFileSync(
        join(fresh.home, ".codex", "config.toml"),
        [
          'model_provider = "stub"',
          "[model_providers.stub]",
          'name = "stub"',
          `base_url = "${server.url}/v1"`,
          'env_key = "STUB_KEY"',
          'wire_api = "responses"',
          "supports_websockets = false",
          "request_max_retries = 0",
          "stream_max_retries = 0",
          "",
        ].join("\n"),
      );
      return { ...env, STUB_KEY: "stub-openai-key" };
    }
    case "gemini":
      mkdirSync(join(fresh.home, ".gemini"), { recursive: true });
      writeFileSync(
        join(fresh.home, ".gemini", "settings.json"),
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          // gemini retries a 429/5xx up to 10 times, 5-30 s apart (minutes); one attempt makes
          // the error tests finish on gemini's own error (the user's setting of the same name).
          general: { maxAttempts: 1 },
        }),
      );
      return { ...env, GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: "stub-gemini-key" };
    case "opencode":
      return {
        ...env,
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_CONFIG_CONTENT: JSON.stringify({
          provider: { anthropic: { options: { baseURL: `${server.url}/v1`, apiKey: "stub-anthropic-key" } } },
          model: suiteModels.opencode,
        }),
      };
    case "copilot":
      return {
        ...env,
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
        COPILOT_PROVIDER_API_KEY: "stub-copilot-key",
        COPILOT_MODEL: suiteModels.copilot,
      };
    case "kilo":
      // Kilo Code renamed OpenCode's OPENCODE_* variables to KILO_*; the provider config is OpenCode's.
      return {
        ...env,
        KILO_DISABLE_MODELS_FETCH: "1",
        KILO_CONFIG_CONTENT: JSON.stringify({
          provider: { anthropic: { options: { baseURL: `${server.url}/v1`, apiKey: "stub-anthropic-key" } } },
          model: suiteModels.kilo,
        }),
      };
    case "qwen":
      // Where a user logs in to an OpenAI-compatible server: `security.auth` of ~/.qwen/settings.json.
      writeQwenLogin(fresh.home, server.url, "stub-qwen-key");
      return env;
  }
}

/** A Qwen Code login to an OpenAI-compatible server, as `~/.qwen/settings.json` holds it. */
export function writeQwenLogin(home: string, serverUrl: string, apiKey: string, extra: object = {}): void {
  mkdirSync(join(home, ".qwen"), { recursive: true });
  writeFileSync(
    join(home, ".qwen", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "openai", apiKey, baseUrl: `${serverUrl}/v1` } },
      ...extra,
    }),
  );
}

/**
 * The user's own debatekit config under the fresh HOME lists the pinned CLIs in `allow_commands`,
 * as a user would: debate folders whose seats name them by `command:` run them without `debate allow`.
 */
export function allowPinnedClis(fresh: FreshHome): void {
  const dir = join(fresh.home, ".config", "debatekit");
  mkdirSync(dir, { recursive: true });
  const bins = Object.keys(pinnedClis).map((cli) => [cliBinPath(cli as CliName)]);
  const allow = [...bins, [cliBinPath("opencode"), "acp"]];
  writeFileSync(join(dir, "config.json"), `${JSON.stringify({ allow_commands: allow }, null, 2)}\n`);
}

/** The seat the suite gives each adapter: the pinned binary, the suite's model. */
export function suiteSeat(cli: CliName): SeatConfig {
  return { adapter: cli, command: [cliBinPath(cli)], model: suiteModels[cli] };
}

/**
 * Pids of live processes whose environment sets `variable` to `marker` (by default HOME to our
 * fresh HOME path; a seat that moves HOME is found by its TMPDIR instead).
 */
export function processesWithEnv(marker: string, variable = "HOME"): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.includes(`${variable}=${marker}\0`)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Saves one run's raw output as a fixture of the adapter package, named with the CLI version,
 * when DEBATEKIT_RECORD_FIXTURES=1 (recording is a deliberate act: the files then get committed).
 */
export function recordFixture(
  cli: CliName,
  scenario: string,
  call: SeatCall,
  meta: { timeoutMs: number },
): void {
  if (process.env.DEBATEKIT_RECORD_FIXTURES !== "1") return;
  const dir = join(repoRoot, "packages", "adapters", cli, "fixtures", pinnedClis[cli].version);
  mkdirSync(dir, { recursive: true });
  const fixture = {
    cli: pinnedClis[cli].pkg,
    version: pinnedClis[cli].version,
    scenario,
    timeoutMs: meta.timeoutMs,
    exitCode: call.exitCode ?? null,
    timedOut: call.status === "timeout",
    stdout: call.raw?.stdout ?? "",
    stderr: call.raw?.stderr ?? "",
    expected: {
      status: call.status,
      text: call.text,
      ...(call.sessionId ? { sessionId: call.sessionId } : {}),
      ...(call.usage ? { usage: call.usage } : {}),
      ...(call.error ? { error: call.error } : {}),
    },
  };
  writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}

/** Where the acp and http adapters keep recorded fixtures: `packages/adapters/<adapter>/fixtures/<source>/`. */
function fixtureDir(adapter: "acp" | "http", source: string): string {
  return join(repoRoot, "packages", "adapters", adapter, "fixtures", source);
}

/** The envelope fields a fixture test compares (no timings, no raw output). */
function expectedOf(call: SeatCall): Record<string, unknown> {
  return {
    status: call.status,
    text: call.text,
    ...(call.sessionId ? { sessionId: call.sessionId } : {}),
    ...(call.model ? { model: call.model } : {}),
    ...(call.usage ? { usage: call.usage } : {}),
    ...(call.error ? { error: call.error } : {}),
  };
}

/**
 * Saves one http-adapter answer (status line, content type and body exactly as the adapter read
 * them, from `raw`) as a fixture of the http package, when DEBATEKIT_RECORD_FIXTURES=1.
 */
export function recordHttpFixture(server: string, scenario: string, call: SeatCall): void {
  if (process.env.DEBATEKIT_RECORD_FIXTURES !== "1" || !call.raw) return;
  const [statusLine = "", contentTypeLine] = call.raw.stderr.split("\n");
  const status = /^HTTP (\d{3}) ?(.*)$/.exec(statusLine);
  if (!status) throw new Error(`http raw stderr does not start with a status line: ${statusLine}`);
  const dir = fixtureDir("http", server);
  mkdirSync(dir, { recursive: true });
  const fixture = {
    server,
    scenario,
    httpStatus: Number(status[1]),
    statusText: status[2],
    contentType: contentTypeLine?.replace(/^content-type: /, "") ?? null,
    body: call.raw.stdout,
    expected: expectedOf(call),
  };
  writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}

/**
 * Saves one acp-adapter run (every line the agent wrote on stdout, its stderr, the envelope) as
 * a fixture of the acp package, when DEBATEKIT_RECORD_FIXTURES=1. The package's fixtures test
 * replays the lines through a script agent, so the adapter meets the real agent's messages.
 */
export function recordAcpFixture(
  agent: string,
  scenario: string,
  call: SeatCall,
  request: { prompt: string; timeoutMs: number; sessionId?: string },
): void {
  if (process.env.DEBATEKIT_RECORD_FIXTURES !== "1") return;
  const dir = fixtureDir("acp", agent);
  mkdirSync(dir, { recursive: true });
  const fixture = {
    agent,
    scenario,
    request,
    exitCode: call.exitCode ?? null,
    agentStdout: (call.raw?.stdout ?? "").split("\n").filter((l) => l.trim() !== ""),
    agentStderr: call.raw?.stderr ?? "",
    expected: expectedOf(call),
  };
  writeFileSync(join(dir, `${scenario}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
}
