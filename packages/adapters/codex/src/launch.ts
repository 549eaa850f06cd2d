import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";
import { parse, stringify } from "smol-toml";

/** The user's codex home: `$CODEX_HOME`, else `~/.codex`. */
export function userCodexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ?? join(env.HOME ?? homedir(), ".codex");
}

/**
 * The part of the user's config.toml a seat keeps: the provider it talks to (`model_provider` and
 * `[model_providers]`), nothing else (no MCP servers, profiles, notify, instructions).
 */
export function providerConfig(toml: string): Record<string, unknown> {
  const config = parse(toml) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  if (typeof config.model_provider === "string") kept.model_provider = config.model_provider;
  if (config.model_providers && typeof config.model_providers === "object")
    kept.model_providers = config.model_providers;
  return kept;
}

/**
 * The switches of one codex call (DESIGN §6): a private CODEX_HOME holding only the provider
 * settings (and a link to the login), no project docs or skills, a read-only sandbox with no
 * network, and the seat's endpoint as a provider of its own.
 */
export function codexLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  const isolated = sandbox.isolation === "on";
  const userHome = userCodexHome(env);
  const files: Record<string, string> = {};
  const links: Record<string, string> = {};
  const planEnv: Record<string, string | undefined> = {};
  let config: Record<string, unknown> = {};
  if (isolated) {
    const userConfig = join(userHome, "config.toml");
    if (existsSync(userConfig)) config = providerConfig(readFileSync(userConfig, "utf8"));
    const auth = join(userHome, "auth.json");
    if (existsSync(auth)) links["codex-home/auth.json"] = auth;
  }
  if (endpoint.baseUrl) {
    config.model_provider = "debatekit";
    config.model_providers = {
      ...((config.model_providers as Record<string, unknown> | undefined) ?? {}),
      debatekit: {
        name: "debatekit seat endpoint",
        base_url: endpoint.baseUrl,
        ...(endpoint.apiKey ? { env_key: endpoint.apiKey.name } : {}),
        wire_api: "responses",
      },
    };
  }
  if (isolated) {
    files["codex-home/config.toml"] = `${stringify(config)}\n`;
    planEnv.CODEX_HOME = join(sandbox.dir, "codex-home");
  }
  const args = [
    "--sandbox",
    "read-only",
    "-c",
    "sandbox_read_only.network_access=false",
    "-c",
    "tools.web_search=false",
    "-c",
    'web_search="disabled"',
    ...(isolated ? ["-c", "project_doc_max_bytes=0", "-c", "skills.include_instructions=false"] : []),
    ...(!isolated && endpoint.baseUrl
      ? [
          "-c",
          "model_provider=debatekit",
          "-c",
          `model_providers.debatekit=${inlineTable(config.model_providers as Record<string, Record<string, string>>)}`,
        ]
      : []),
  ];
  return { args, env: planEnv, files, links };
}

function inlineTable(providers: Record<string, Record<string, string>>): string {
  const p = providers.debatekit ?? {};
  return `{${Object.entries(p)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(",")}}`;
}
