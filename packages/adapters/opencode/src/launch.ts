import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";

/** OpenCode's built-in tools that only read (offered with `tools: read`). */
export const opencodeReadTools = ["read", "grep", "glob", "list"];

/** Every other built-in tool: commands, writes, edits, the network, sub-agents. */
export const opencodeActingTools = [
  "bash",
  "edit",
  "write",
  "patch",
  "webfetch",
  "websearch",
  "task",
  "todowrite",
  "todoread",
  "skill",
];

/** The keys of the user's config a seat keeps: how to reach the model, nothing else. */
const providerKeys = ["provider", "model", "small_model", "enabled_providers", "disabled_providers"];

function readConfig(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The user's provider settings: OPENCODE_CONFIG_CONTENT, OPENCODE_CONFIG, then the config folder's file. */
export function userProviderConfig(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const configDir = join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? homedir(), ".config"), "opencode");
  const sources = [
    join(configDir, "opencode.json"),
    ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
  ].map((path) => (existsSync(path) ? readConfig(readFileSync(path, "utf8")) : {}));
  sources.push(readConfig(env.OPENCODE_CONFIG_CONTENT));
  const merged: Record<string, unknown> = {};
  for (const source of sources)
    for (const key of providerKeys) if (source[key] !== undefined) merged[key] = source[key];
  return merged;
}

/**
 * The switches of one opencode call (DESIGN §6): a config holding only the user's provider
 * settings plus every acting tool off and denied; private XDG folders (the login linked in), no
 * project config, Claude Code files or external skills; `--pure` (no plugins).
 */
export function opencodeLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  const isolated = sandbox.isolation === "on";
  const read = sandbox.tools === "read";
  const off = read ? opencodeActingTools : [...opencodeActingTools, ...opencodeReadTools];
  const config: Record<string, unknown> = isolated
    ? userProviderConfig(env)
    : readConfig(env.OPENCODE_CONFIG_CONTENT);
  if (endpoint.baseUrl || endpoint.apiKey) {
    const model = typeof config.model === "string" ? config.model : (input.model ?? "");
    const providerId = model.includes("/") ? model.split("/")[0]! : "anthropic";
    const providers = { ...((config.provider as Record<string, Record<string, unknown>> | undefined) ?? {}) };
    const current = providers[providerId] ?? {};
    providers[providerId] = {
      ...current,
      options: {
        ...((current.options as Record<string, unknown> | undefined) ?? {}),
        ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
        ...(endpoint.apiKey ? { apiKey: `{env:${endpoint.apiKey.name}}` } : {}),
      },
    };
    config.provider = providers;
  }
  config.tools = Object.fromEntries(off.map((tool) => [tool, false]));
  config.permission = { edit: "deny", bash: "deny", webfetch: "deny", ...(read ? {} : { read: "deny" }) };
  config.autoupdate = false;
  config.share = "disabled";
  const links: Record<string, string> = {};
  const userData = join(
    env.XDG_DATA_HOME ?? join(env.HOME ?? homedir(), ".local", "share"),
    "opencode",
    "auth.json",
  );
  if (isolated && existsSync(userData)) links["xdg/data/opencode/auth.json"] = userData;
  return {
    args: isolated ? ["--pure"] : [],
    env: {
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      ...(isolated
        ? {
            OPENCODE_CONFIG: undefined,
            XDG_CONFIG_HOME: join(sandbox.dir, "xdg", "config"),
            XDG_DATA_HOME: join(sandbox.dir, "xdg", "data"),
            XDG_STATE_HOME: join(sandbox.dir, "xdg", "state"),
            XDG_CACHE_HOME: join(sandbox.dir, "xdg", "cache"),
            OPENCODE_TEST_HOME: join(sandbox.dir, "home"),
            OPENCODE_DISABLE_PROJECT_CONFIG: "1",
            OPENCODE_DISABLE_CLAUDE_CODE: "1",
            OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
          }
        : {}),
    },
    links,
  };
}
