import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type LaunchInput, type LaunchPlan, readUserJsonObject } from "@debatekit/adapter-kit";

/** Gemini CLI's built-in tools that only read (offered with `tools: read`, inside the workspace). */
export const geminiReadTools = ["read_file", "read_many_files", "list_directory", "glob", "grep_search"];

/**
 * Built-in tools that act or reach out (commands, writes, edits, the network, memory, sub-agents),
 * excluded by name as well, in case an allowlist is not honoured.
 */
export const geminiActingTools = [
  "run_shell_command",
  "write_file",
  "replace",
  "web_fetch",
  "google_web_search",
  "save_memory",
  "write_todos",
  "invoke_agent",
  "activate_skill",
  "enter_plan_mode",
  "exit_plan_mode",
  "take_snapshot",
];

/** An MCP server name nobody uses: `--allowed-mcp-server-names` with it starts no MCP server. */
export const noMcpServer = "debatekit-no-mcp-server";

/** Attempts per request (gemini's default of 10 retries a refused connection for minutes). */
export const geminiDefaultMaxAttempts = 2;

/** The admin-tier policy written into the sandbox for one call (`--admin-policy`). */
export const geminiPolicyFile = "gemini-policy.toml";

/** The user's `.gemini` folder: under `$GEMINI_CLI_HOME`, else HOME. */
export function userGeminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME ?? env.HOME ?? homedir(), ".gemini");
}

/**
 * A policy of the admin tier (it outranks the user's settings and policies): every tool denied,
 * the read tools allowed with `tools: read`. Denied tools are not even offered to the model.
 */
export function geminiPolicy(read: boolean): string {
  const lines = ["[[rule]]", 'toolName = "*"', 'decision = "deny"', "priority = 998", ""];
  if (read)
    lines.push(
      "[[rule]]",
      `toolName = [${geminiReadTools.map((t) => JSON.stringify(t)).join(", ")}]`,
      'decision = "allow"',
      "priority = 999",
      "",
    );
  return lines.join("\n");
}

/**
 * The user's settings a seat keeps when isolated: how gemini authenticates (`security.auth`) and
 * how often it retries (`general.maxAttempts`, bounded when unset), nothing else (no MCP servers,
 * hooks, extensions, context files, tool settings).
 */
export function geminiSeatSettings(
  user: Record<string, unknown>,
  options: { read: boolean; apiKey: boolean },
): Record<string, unknown> {
  const security = (user.security ?? {}) as Record<string, unknown>;
  const general = (user.general ?? {}) as Record<string, unknown>;
  const auth = options.apiKey
    ? { ...((security.auth as Record<string, unknown> | undefined) ?? {}), selectedType: "gemini-api-key" }
    : security.auth;
  return {
    security: { ...(auth ? { auth } : {}), folderTrust: { enabled: false } },
    general: { maxAttempts: general.maxAttempts ?? geminiDefaultMaxAttempts },
    tools: { core: options.read ? geminiReadTools : [], exclude: geminiActingTools },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
}

/**
 * The switches of one gemini call (docs/architecture.md#adapters-and-seat-safety): an admin policy denying every tool (or all but the
 * read tools), no MCP server; isolated (always with `tools: read`), a private GEMINI_CLI_HOME whose settings hold only the
 * user's auth selection and retry limit, with an untrusted working folder (its settings, hooks,
 * extensions and GEMINI.md files are not loaded) and the login linked in; the seat's endpoint.
 */
export function geminiLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  const read = sandbox.tools === "read";
  // A read seat is always isolated: the user's settings could widen what the read tools reach
  // (`context.includeDirectories`, measured: a read outside the workspace then succeeds).
  const isolated = sandbox.isolation === "on" || read;
  const files: Record<string, string> = { [geminiPolicyFile]: geminiPolicy(read) };
  const links: Record<string, string> = {};
  if (isolated) {
    const userDir = userGeminiDir(env);
    const settings = geminiSeatSettings(readUserJsonObject(join(userDir, "settings.json")), {
      read,
      apiKey: Boolean(endpoint.apiKey?.value),
    });
    files["gemini-home/.gemini/settings.json"] = `${JSON.stringify(settings, null, 2)}\n`;
    for (const name of ["oauth_creds.json", "google_accounts.json"]) {
      const path = join(userDir, name);
      if (existsSync(path)) links[`gemini-home/.gemini/${name}`] = path;
    }
  }
  return {
    args: [
      "--admin-policy",
      join(sandbox.dir, geminiPolicyFile),
      "--allowed-mcp-server-names",
      noMcpServer,
      // Not isolated, the user's settings may turn folder trust on, and an untrusted folder makes
      // headless gemini exit 55: the seat's own empty folder is safe to trust, a workspace is not.
      ...(!isolated && !read ? ["--skip-trust"] : []),
    ],
    env: {
      ...(isolated
        ? { GEMINI_CLI_HOME: join(sandbox.dir, "gemini-home"), GEMINI_CLI_TRUST_WORKSPACE: "false" }
        : {}),
      ...(endpoint.baseUrl ? { GOOGLE_GEMINI_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey?.value ? { GEMINI_API_KEY: endpoint.apiKey.value } : {}),
    },
    files,
    links,
  };
}
