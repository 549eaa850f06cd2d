import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { type LaunchInput, type LaunchPlan, refusesConnections, SandboxError } from "@debatekit/adapter-kit";
import { type ParseError, parse as parseJsonc } from "jsonc-parser";

/**
 * OpenCode's built-in tools that only read (offered with `tools: read`). `grep` and `glob` run
 * ripgrep; when no `rg` is on the PATH opencode 1.18.33 downloads one from GitHub, so they are
 * offered only when an `rg` is found (`read` also lists a folder). See {@link opencodeReadAccess}.
 */
export const opencodeReadTools = ["read", "grep", "glob"] as const;

/**
 * Every permission key opencode 1.18.33 knows (its built-in config skill lists them; `codesearch`
 * and `list` from older versions): each is set explicitly, so a user rule for one of them merged
 * before ours is overwritten rather than left standing next to `"*"`.
 */
export const opencodePermissionKeys = [
  "read",
  "edit",
  "glob",
  "grep",
  "list",
  "bash",
  "task",
  "external_directory",
  "todowrite",
  "question",
  "webfetch",
  "websearch",
  "codesearch",
  "lsp",
  "doom_loop",
  "skill",
] as const;

/** The keys of the user's config a seat keeps: how to reach the model, nothing else. */
export const opencodeProviderKeys = [
  "provider",
  "model",
  "small_model",
  "enabled_providers",
  "disabled_providers",
] as const;

/** The agent every call runs (`opencode run` uses `default_agent`, which a user config may change). */
export const opencodeAgent = "build";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON-with-comments config (opencode reads `.json` and `.jsonc` alike); an unreadable one is
 * `{}`: opencode itself then refuses to start and says why, which is the clearer message.
 */
export function readOpencodeConfigText(text: string | undefined): Json {
  if (!text) return {};
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0 && isObject(value) ? value : {};
}

/** The user's config folder (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`). */
function userConfigDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "opencode");
}

function userDataDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "opencode");
}

function userCacheDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache"), "opencode");
}

/**
 * The user's provider settings, in opencode's own order (later wins): the config folder's
 * `config.json`, `opencode.json`, `opencode.jsonc`, then `$OPENCODE_CONFIG`, then
 * `OPENCODE_CONFIG_CONTENT`; of each only {@link opencodeProviderKeys}.
 */
export function userProviderConfig(env: NodeJS.ProcessEnv): Json {
  const dir = userConfigDir(env);
  const files = [
    join(dir, "config.json"),
    join(dir, "opencode.json"),
    join(dir, "opencode.jsonc"),
    ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
  ];
  const sources = files.map((path) =>
    existsSync(path) ? readOpencodeConfigText(readFileSync(path, "utf8")) : {},
  );
  sources.push(readOpencodeConfigText(env.OPENCODE_CONFIG_CONTENT));
  const merged: Json = {};
  for (const source of sources)
    for (const key of opencodeProviderKeys) {
      const value = source[key];
      if (value === undefined) continue;
      merged[key] =
        key === "provider" && isObject(value) && isObject(merged.provider)
          ? mergeProviders(merged.provider, value)
          : value;
    }
  return merged;
}

/** Providers merged one level deep (and their `options` too), as opencode merges its configs. */
function mergeProviders(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [id, value] of Object.entries(over)) {
    const before = out[id];
    if (isObject(before) && isObject(value)) {
      const options =
        isObject(before.options) && isObject(value.options)
          ? { options: { ...before.options, ...value.options } }
          : {};
      out[id] = { ...before, ...value, ...options };
    } else out[id] = value;
  }
  return out;
}

/** True when an executable `name` is on `path` (a PATH value). */
export function onPath(name: string, path: string | undefined): boolean {
  return (path ?? "").split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      const stat = statSync(join(dir, name));
      return stat.isFile() && (stat.mode & 0o111) !== 0;
    } catch {
      return false;
    }
  });
}

/** Where a `tools: read` seat's workspace appears in its private working folder (a symlink). */
export const opencodeWorkspaceLink = "workspace";

/** What a `tools: read` seat may use, and where. */
export interface OpencodeReadAccess {
  tools: string[];
  /** The workspace (a real path): the only folder outside the project `external_directory` allows. */
  workspace: string;
}

/**
 * A `tools: read` seat does not run in the workspace: opencode 1.18.33 would load the
 * `.opencode/plugin/*.js` of the workspace and of every folder up to its git root whatever the
 * switches (its newer config loader ignores OPENCODE_PURE and OPENCODE_DISABLE_PROJECT_CONFIG).
 * It runs in its private folder, where `workspace` links to the workspace, and
 * `external_directory` allows exactly the workspace. `grep`/`glob` need an `rg` on PATH
 * (opencode would download one from GitHub); `read` also lists a folder.
 */
export function opencodeReadAccess(workspace: string, env: NodeJS.ProcessEnv): OpencodeReadAccess {
  return { workspace, tools: onPath("rg", env.PATH) ? [...opencodeReadTools] : ["read"] };
}

/**
 * Makes the seat's working folder the root of an empty git repository (`HEAD`, `objects/`,
 * `refs/`: what `git rev-parse` needs), so opencode takes it as its project: opencode 1.18.33
 * looks for `.opencode` folders (and runs their plugins) from its folder up to the project's
 * root, which for a folder outside any repository is `/` (the user's `~/.opencode` when the temp
 * folder is under HOME).
 */
export function makeProjectRoot(dir: string): void {
  const git = join(dir, ".git");
  if (existsSync(join(git, "HEAD"))) return;
  mkdirSync(join(git, "objects"), { recursive: true, mode: 0o700 });
  mkdirSync(join(git, "refs", "heads"), { recursive: true, mode: 0o700 });
  writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n", { mode: 0o600 });
}

/**
 * The tools and permissions of a seat: every tool off and every permission denied, except the
 * read tools of `tools: read`, which stay inside the working directory (`external_directory`
 * denied). Set at the top level and on the agent that runs, since an agent's own rules win.
 */
export function opencodeToolPolicy(access?: OpencodeReadAccess): Json {
  const tools: Json = { "*": false };
  const permission: Json = { "*": "deny" };
  for (const key of opencodePermissionKeys) permission[key] = "deny";
  for (const tool of access?.tools ?? []) {
    tools[tool] = true;
    permission[tool] = "allow";
  }
  if (access)
    permission.external_directory = {
      "*": "deny",
      [access.workspace]: "allow",
      [`${access.workspace}/*`]: "allow",
    };
  return {
    tools,
    permission,
    default_agent: opencodeAgent,
    agent: { [opencodeAgent]: { tools, permission } },
  };
}

/** The config a call runs with: the user's part (see {@link opencodeLaunch}), the endpoint, the policy. */
export function opencodeSeatConfig(
  base: Json,
  input: Pick<LaunchInput, "endpoint" | "model">,
  access?: OpencodeReadAccess,
): Json {
  const config: Json = { ...base };
  const { endpoint } = input;
  if (endpoint.baseUrl || endpoint.apiKey) {
    const model = input.model ?? (typeof config.model === "string" ? config.model : "");
    const providerId = model.includes("/") ? model.slice(0, model.indexOf("/")) : "anthropic";
    const providers = isObject(config.provider) ? { ...config.provider } : {};
    const current = isObject(providers[providerId]) ? providers[providerId] : {};
    providers[providerId] = {
      ...current,
      options: {
        ...(isObject(current.options) ? current.options : {}),
        ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
        // opencode reads the key from the variable itself: the value never enters the config text.
        ...(endpoint.apiKey ? { apiKey: `{env:${endpoint.apiKey.name}}` } : {}),
      },
    };
    config.provider = providers;
  }
  const policy = opencodeToolPolicy(access);
  const agents = isObject(config.agent) ? config.agent : {};
  const own = isObject(agents[opencodeAgent]) ? agents[opencodeAgent] : {};
  return {
    ...config,
    ...policy,
    agent: { ...agents, [opencodeAgent]: { ...own, ...((policy.agent as Json)[opencodeAgent] as Json) } },
    autoupdate: false,
    share: "disabled",
  };
}

/** The base URL the seat's config sends the model's provider to, if it names one. */
export function opencodeBaseUrl(config: Json, model: string | undefined): string | undefined {
  const name = model ?? (typeof config.model === "string" ? config.model : "");
  const providerId = name.includes("/") ? name.slice(0, name.indexOf("/")) : "anthropic";
  const provider = isObject(config.provider) ? config.provider[providerId] : undefined;
  const options = isObject(provider) && isObject(provider.options) ? provider.options : {};
  return typeof options.baseURL === "string" ? options.baseURL : undefined;
}

/**
 * Refuses to start a seat whose model server (a loopback address) refuses connections:
 * opencode 1.18.33 retries a connection error 5 times with backoff (about 70 s, no setting).
 */
export async function checkOpencodeServer(config: Json, model: string | undefined): Promise<void> {
  const url = opencodeBaseUrl(config, model);
  if (url && (await refusesConnections(url)))
    throw new SandboxError(
      `the model server at ${url} refuses connections (nothing listens there); opencode would retry it for about 70 s`,
    );
}

/**
 * The switches of one opencode call (docs/architecture.md#adapters-and-seat-safety), verified with opencode-ai 1.18.33:
 * - tools: the config above in `OPENCODE_CONFIG_CONTENT` (merged last by opencode) and the same
 *   permissions in `OPENCODE_PERMISSION` (merged after every config file), so no tool is offered;
 * - `tools: read`: `read` (+ `grep`/`glob`), run from the private folder with the workspace linked
 *   in as `workspace/` and allowed as the one external directory (see {@link opencodeReadAccess});
 * - isolation: private XDG config/data/state/cache folders and `OPENCODE_TEST_HOME` (no global
 *   AGENTS.md, opencode.json, plugins, agents, commands, MCP servers), `OPENCODE_DISABLE_PROJECT_CONFIG`
 *   (no project config or AGENTS.md up the tree), `OPENCODE_DISABLE_CLAUDE_CODE` (no CLAUDE.md,
 *   ~/.claude skills), `OPENCODE_DISABLE_EXTERNAL_SKILLS`, `--pure` / `OPENCODE_PURE` (no external
 *   plugins), `npm_config_offline` (opencode would install `@opencode-ai/plugin` into each config
 *   folder from the npm registry), no models.dev fetch (the user's cached catalog is linked), no
 *   update check, no sharing. The login (`auth.json`) is linked in for the call; the provider keys
 *   of the user's config are kept.
 */
export async function opencodeLaunch(input: LaunchInput): Promise<LaunchPlan> {
  const plan = await opencodeSessionPlan(input);
  // `opencode run` starts in its own folder; with `tools: read` the workspace is linked in there.
  const dir =
    input.sandbox.tools === "read" && input.sandbox.workspace
      ? ["--dir", join(input.sandbox.dir, "work")]
      : [];
  return { ...plan, args: [...(plan.args ?? []), ...dir] };
}

/**
 * The switches every opencode process of a seat needs, `opencode run` and `opencode acp` alike:
 * the config, permissions, private folders and links of {@link opencodeLaunch}, with `--pure` as
 * the only flag (the ACP adapter gives the working folder in its session instead of `--dir`).
 */
export async function opencodeSessionPlan(input: LaunchInput): Promise<LaunchPlan> {
  const { sandbox, env } = input;
  const isolated = sandbox.isolation === "on";
  const access =
    sandbox.tools === "read" && sandbox.workspace ? opencodeReadAccess(sandbox.workspace, env) : undefined;
  // Isolation off: the user's own OPENCODE_CONFIG_CONTENT stays whole (their config files load anyway).
  const base = isolated ? userProviderConfig(env) : readOpencodeConfigText(env.OPENCODE_CONFIG_CONTENT);
  const config = opencodeSeatConfig(base, input, access);
  await checkOpencodeServer(config, input.model);
  if (isolated) makeProjectRoot(join(sandbox.dir, "work"));
  const links: Record<string, string> = {};
  if (access) links[`work/${opencodeWorkspaceLink}`] = access.workspace;
  if (isolated) {
    const auth = join(userDataDir(env), "auth.json");
    if (existsSync(auth)) links["xdg/data/opencode/auth.json"] = auth;
    const models = join(userCacheDir(env), "models.json");
    if (existsSync(models)) links["xdg/cache/opencode/models.json"] = models;
  }
  return {
    args: isolated ? ["--pure"] : [],
    env: {
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_PERMISSION: JSON.stringify(config.permission),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_AUTO_SHARE: undefined,
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      ...(isolated
        ? {
            OPENCODE_CONFIG: undefined,
            OPENCODE_CONFIG_DIR: undefined,
            OPENCODE_TUI_CONFIG: undefined,
            XDG_CONFIG_HOME: join(sandbox.dir, "xdg", "config"),
            XDG_DATA_HOME: join(sandbox.dir, "xdg", "data"),
            XDG_STATE_HOME: join(sandbox.dir, "xdg", "state"),
            XDG_CACHE_HOME: join(sandbox.dir, "xdg", "cache"),
            OPENCODE_TEST_HOME: join(sandbox.dir, "home"),
            OPENCODE_DISABLE_PROJECT_CONFIG: "1",
            OPENCODE_DISABLE_CLAUDE_CODE: "1",
            OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
            OPENCODE_PURE: "1",
            OPENCODE_DISABLE_MODELS_FETCH: "1",
            npm_config_offline: "true",
          }
        : {}),
    },
    links,
  };
}
