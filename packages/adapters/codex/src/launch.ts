import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";
import { SandboxError } from "@debatekit/adapter-kit";
import { parse, stringify } from "smol-toml";

/**
 * Codex features that give the model a tool (or a way to one) besides text: the shell
 * (`exec_command`/`write_stdin`), images, goals, apps/plugins/connectors and their tool search,
 * sub-agents. Checked against codex 0.169.0's request: with all of them off only
 * `request_user_input` is offered (harmless: refused in `codex exec`).
 */
export const codexToolFeatures = [
  "shell_tool",
  "unified_exec",
  "view_image",
  "goals",
  "apps",
  "plugins",
  "tool_suggest",
  "multi_agent",
];

/** Retries of the seat's provider (codex's defaults, 4 and 5, take ~25 s on a refused connection). */
export const codexDefaultRetries = 2;

/** The model catalog written into the sandbox: codex's own, without the apply_patch tool. */
export const codexCatalogFile = "codex-models.json";

/** The user's codex home: `$CODEX_HOME`, else `~/.codex`. */
export function userCodexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ?? join(env.HOME ?? homedir(), ".codex");
}

function readToml(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    return parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    // A config codex itself cannot read: the seat runs without it and codex says what is wrong.
    return {};
  }
}

function asTable(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Top-level keys of config.toml that say which model and login a seat uses. */
const providerKeys = [
  "model_provider",
  "model",
  "openai_base_url",
  "forced_login_method",
  "forced_chatgpt_workspace_id",
];

/**
 * The part of the user's config.toml a seat keeps: the provider it talks to (`model_provider`,
 * `[model_providers]`, the default `model`, the OpenAI base URL, the forced login), nothing else
 * (no MCP servers, profiles, notify, hooks, instructions).
 */
export function providerConfig(config: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of providerKeys) if (typeof config[key] === "string") kept[key] = config[key];
  const providers = asTable(config.model_providers);
  if (Object.keys(providers).length > 0) kept.model_providers = providers;
  return kept;
}

/** A provider with its retries bounded (the user's own numbers are kept). */
function boundedRetries(provider: unknown): Record<string, unknown> {
  const table = asTable(provider);
  return {
    ...table,
    request_max_retries: table.request_max_retries ?? codexDefaultRetries,
    stream_max_retries: table.stream_max_retries ?? codexDefaultRetries,
  };
}

const catalogs = new Map<string, string | undefined>();

/**
 * Codex's bundled model catalog with `apply_patch_tool_type` removed from every model: the model
 * family, not a setting, decides whether the file-editing `apply_patch` tool is offered, and a
 * catalog given with `model_catalog_json` replaces the bundled one. Asked of the program once per
 * process (`codex debug models --bundled`, ~0.1 s); undefined if it cannot say.
 */
export function catalogWithoutApplyPatch(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
): string | undefined {
  const key = command.join("\0");
  if (catalogs.has(key)) return catalogs.get(key);
  let catalog: string | undefined;
  const [program, ...args] = command;
  if (program) {
    try {
      const out = execFileSync(program, [...args, "debug", "models", "--bundled"], {
        env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 15_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      const parsed = JSON.parse(out) as { models?: Array<Record<string, unknown>> };
      if (Array.isArray(parsed.models)) {
        for (const model of parsed.models) model.apply_patch_tool_type = null;
        catalog = `${JSON.stringify(parsed)}\n`;
      }
    } catch {
      catalog = undefined;
    }
  }
  catalogs.set(key, catalog);
  return catalog;
}

/**
 * The switches of one codex call (docs/architecture.md#adapters-and-seat-safety): every tool feature off, no web search, a model
 * catalog without apply_patch, a read-only sandbox as a second wall; isolated, a private
 * CODEX_HOME holding only the provider settings (and a link to the login), no AGENTS.md or skill
 * instructions; not isolated, the user's MCP servers still off (tools stay off); the seat's
 * endpoint as a provider of its own with bounded retries.
 */
export function codexLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  if (sandbox.tools === "read")
    throw new SandboxError(
      "`tools: read` is not available: codex has no read-only file tools (reading goes through its shell), so a codex seat runs with tools off",
    );
  const isolated = sandbox.isolation === "on";
  const userHome = userCodexHome(env);
  const userConfig = readToml(join(userHome, "config.toml"));
  const files: Record<string, string> = {};
  const links: Record<string, string> = {};
  const args: string[] = ["--sandbox", "read-only"];
  for (const feature of [...codexToolFeatures, "unbounded_connection_retries"])
    args.push("--disable", feature);
  args.push("-c", 'web_search="disabled"');
  const catalog = input.command ? catalogWithoutApplyPatch(input.command, env) : undefined;
  if (catalog) {
    files[codexCatalogFile] = catalog;
    args.push("-c", `model_catalog_json=${JSON.stringify(join(sandbox.dir, codexCatalogFile))}`);
  }
  const seatProvider = endpoint.baseUrl
    ? {
        name: "debatekit seat endpoint",
        base_url: endpoint.baseUrl,
        ...(endpoint.apiKey ? { env_key: endpoint.apiKey.name } : {}),
        wire_api: "responses",
        supports_websockets: false,
        request_max_retries: codexDefaultRetries,
        stream_max_retries: codexDefaultRetries,
      }
    : undefined;
  if (isolated) {
    const config: Record<string, unknown> = {
      ...providerConfig(userConfig),
      check_for_update_on_startup: false,
      analytics: { enabled: false },
    };
    const providers = Object.fromEntries(
      Object.entries(asTable(config.model_providers)).map(([name, p]) => [name, boundedRetries(p)]),
    );
    if (seatProvider) {
      config.model_provider = "debatekit";
      providers.debatekit = seatProvider;
    }
    if (Object.keys(providers).length > 0) config.model_providers = providers;
    else delete config.model_providers;
    files["codex-home/config.toml"] = `${stringify(config)}\n`;
    const auth = join(userHome, "auth.json");
    if (existsSync(auth)) links["codex-home/auth.json"] = auth;
    args.push("-c", "project_doc_max_bytes=0", "-c", "skills.include_instructions=false");
  } else {
    // The user's setup loads, but its MCP servers would be tools: each is switched off by name.
    for (const name of Object.keys(asTable(userConfig.mcp_servers)))
      args.push("-c", `mcp_servers.${tomlKey(name)}.enabled=false`);
    if (seatProvider)
      args.push(
        "-c",
        "model_provider=debatekit",
        "-c",
        `model_providers.debatekit=${inlineTable(seatProvider)}`,
      );
  }
  return {
    args,
    env: {
      ...(isolated ? { CODEX_HOME: join(sandbox.dir, "codex-home") } : {}),
      // A key without a base URL is for codex's own provider (`codex exec` reads CODEX_API_KEY).
      ...(endpoint.apiKey?.value && !endpoint.baseUrl ? { CODEX_API_KEY: endpoint.apiKey.value } : {}),
    },
    files,
    links,
  };
}

/** A TOML key: bare when it can be, else quoted. */
function tomlKey(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
}

/** A flat table as a TOML inline table (strings quoted, numbers and booleans bare). */
function inlineTable(table: Record<string, string | number | boolean>): string {
  return `{${Object.entries(table)
    .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : String(v)}`)
    .join(",")}}`;
}
