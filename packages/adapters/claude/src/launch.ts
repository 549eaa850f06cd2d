import { homedir } from "node:os";
import { join } from "node:path";
import { type LaunchInput, type LaunchPlan, readUserJsonObject } from "@debatekit/adapter-kit";

/** Claude Code's read-only tools, offered with `tools: read` (confined to the working directory). */
export const claudeReadTools = ["Read", "Grep", "Glob"];

/**
 * Turns a seat may take. With no tools, 2: a model that asks for a tool anyway is told it does
 * not exist and may still answer; with read tools, enough to look around the workspace.
 */
export const claudeMaxTurns = { none: 2, read: 12 } as const;

/** Retries of a failed API request (Claude Code's default of 10 retries a refused connection for >60 s). */
export const claudeDefaultMaxRetries = "2";

/** The flag-level settings file written into the sandbox for one call (`--settings`). */
export const claudeSettingsFile = "claude-settings.json";

/**
 * Keys of the user's settings.json that say how Claude Code reaches its model (credential
 * helpers, login method). They are kept when isolated; everything else (hooks, plugins, MCP
 * servers, permissions...) is not.
 */
const credentialKeys = [
  "apiKeyHelper",
  "awsAuthRefresh",
  "awsCredentialExport",
  "gcpAuthRefresh",
  "forceLoginMethod",
  "forceLoginOrgUUID",
  "otelHeadersHelper",
] as const;

/** Variables of the user's settings `env` that choose the provider, endpoint or credentials. */
const providerVariable =
  /^(ANTHROPIC_|CLAUDE_CODE_USE_|CLAUDE_CODE_SKIP_.*AUTH|AWS_|GOOGLE_|GCLOUD_|CLOUD_ML_REGION|VERTEX_REGION_|HTTPS?_PROXY$|NO_PROXY$|NODE_EXTRA_CA_CERTS$|API_TIMEOUT_MS$)/;

/** The user's Claude Code folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function userClaudeDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), ".claude");
}

/**
 * What of the user's settings.json a seat keeps when isolated: the credential helpers and the
 * provider variables of its `env` block (Claude Code applies that block over the process's
 * environment, so an endpoint set only there must travel with the seat).
 */
export function claudeProviderSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of credentialKeys) if (typeof settings[key] === "string") kept[key] = settings[key];
  const env = settings.env;
  if (env && typeof env === "object" && !Array.isArray(env)) {
    const provider = Object.fromEntries(
      Object.entries(env as Record<string, unknown>).filter(
        ([name, value]) => providerVariable.test(name) && typeof value === "string",
      ),
    );
    if (Object.keys(provider).length > 0) kept.env = provider;
  }
  return kept;
}

/**
 * The switches of one claude call (docs/architecture.md#adapters-and-seat-safety): no built-in tool (`--tools ""`), no MCP server,
 * no slash command or skill, or only the read tools inside the workspace; none of the user's
 * settings, hooks, plugins, MCP servers, agents, CLAUDE.md files or auto-memory unless
 * `isolation: off`; the seat's endpoint in a flag-level settings file (it outranks the user's
 * settings `env`, which outranks the process environment).
 */
export function claudeLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  const read = sandbox.tools === "read";
  const isolated = sandbox.isolation === "on";
  // The user's settings files are not read when isolated, nor with `--restricted` (tools: read):
  // then their provider part travels in the flag settings file.
  const settings: Record<string, unknown> =
    isolated || read
      ? claudeProviderSettings(readUserJsonObject(join(userClaudeDir(env), "settings.json")))
      : {};
  const endpointEnv: Record<string, string> = {
    ...(endpoint.baseUrl ? { ANTHROPIC_BASE_URL: endpoint.baseUrl } : {}),
    ...(endpoint.apiKey?.value ? { ANTHROPIC_API_KEY: endpoint.apiKey.value } : {}),
  };
  if (Object.keys(endpointEnv).length > 0)
    settings.env = { ...((settings.env as Record<string, string> | undefined) ?? {}), ...endpointEnv };
  if (endpoint.apiKey?.value) delete settings.apiKeyHelper;
  const hasSettings = Object.keys(settings).length > 0;
  return {
    args: [
      "--tools",
      read ? claudeReadTools.join(",") : "",
      "--max-turns",
      String(read ? claudeMaxTurns.read : claudeMaxTurns.none),
      // Reads outside the working directory are asked for, and -p refuses what it would ask.
      "--permission-mode",
      "default",
      // Confines the file tools to the working directory even when the user's settings would
      // allow more (`permissions.allow: ["Read"]`, additionalDirectories) with isolation off.
      ...(read ? ["--restricted"] : []),
      "--strict-mcp-config",
      "--disable-slash-commands",
      ...(isolated ? ["--setting-sources", ""] : []),
      ...(hasSettings ? ["--settings", join(sandbox.dir, claudeSettingsFile)] : []),
    ],
    env: {
      ...(isolated ? { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" } : {}),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_MAX_RETRIES: env.CLAUDE_CODE_MAX_RETRIES ?? claudeDefaultMaxRetries,
      ...endpointEnv,
    },
    ...(hasSettings ? { files: { [claudeSettingsFile]: `${JSON.stringify(settings, null, 2)}\n` } } : {}),
  };
}
