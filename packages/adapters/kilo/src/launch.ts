import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type LaunchInput, type LaunchPlan, refusesConnections, SandboxError } from "@debatekit/adapter-kit";
import { type ParseError, parse as parseJsonc } from "jsonc-parser";

/**
 * Every tool Kilo 7.7.7 offers a model by default (seen in its first request: OpenCode's tools plus
 * Kilo's `write`, `background_process`, wake-ups, the agent board and local recall) and the other
 * permission keys OpenCode knows. Each is denied by name on top of `"*"`, so a user rule for one of
 * them merged before ours is overwritten rather than left standing.
 */
export const kiloPermissionKeys = [
  "read",
  "edit",
  "write",
  "glob",
  "grep",
  "list",
  "bash",
  "background_process",
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
  "schedule_wakeup",
  "cancel_wakeup",
  "board_post",
  "board_read",
  "kilo_local_recall",
] as const;

/** The keys of the user's config a seat keeps: how to reach the model, nothing else. */
export const kiloProviderKeys = [
  "provider",
  "model",
  "small_model",
  "enabled_providers",
  "disabled_providers",
];

/** The agent every call runs (`kilo run` uses `default_agent`, which a user config may change). */
export const kiloAgent = "code";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON-with-comments config; an unreadable one is `{}` (kilo itself then says what is wrong). */
function readConfigText(text: string | undefined): Json {
  if (!text) return {};
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  return errors.length === 0 && isObject(value) ? value : {};
}

function xdg(env: NodeJS.ProcessEnv, name: "XDG_CONFIG_HOME" | "XDG_DATA_HOME", fallback: string[]): string {
  return join(env[name] || join(env.HOME || homedir(), ...fallback), "kilo");
}

/**
 * The user's provider settings, later files winning: the `kilo` config folder's `config.json`,
 * `opencode.json(c)`, `kilo.json(c)`, then `$KILO_CONFIG`, then `KILO_CONFIG_CONTENT`; of each only
 * {@link kiloProviderKeys} (a provider is replaced whole, not merged key by key).
 */
export function userKiloProviderConfig(env: NodeJS.ProcessEnv): Json {
  const dir = xdg(env, "XDG_CONFIG_HOME", [".config"]);
  const files = ["config.json", "opencode.json", "opencode.jsonc", "kilo.json", "kilo.jsonc"].map((name) =>
    join(dir, name),
  );
  if (env.KILO_CONFIG) files.push(env.KILO_CONFIG);
  const sources = files.map((path) => (existsSync(path) ? readConfigText(readFileSync(path, "utf8")) : {}));
  sources.push(readConfigText(env.KILO_CONFIG_CONTENT));
  const merged: Json = {};
  for (const source of sources)
    for (const key of kiloProviderKeys) {
      const value = source[key];
      if (value === undefined) continue;
      merged[key] =
        key === "provider" && isObject(value) && isObject(merged.provider)
          ? { ...merged.provider, ...value }
          : value;
    }
  return merged;
}

/** The provider part of `provider/model` (Kilo's own gateway when the model names none). */
function providerOf(config: Json, model: string | undefined): string {
  const name = model ?? (typeof config.model === "string" ? config.model : "");
  return name.includes("/") ? name.slice(0, name.indexOf("/")) : "kilo";
}

/** Every tool off and every permission denied, at the top level and on the agent that runs. */
export function kiloToolPolicy(): Json {
  const tools: Json = { "*": false };
  const permission: Json = { "*": "deny" };
  for (const key of kiloPermissionKeys) permission[key] = "deny";
  return { tools, permission, default_agent: kiloAgent, agent: { [kiloAgent]: { tools, permission } } };
}

/** The config a call runs with: the user's provider part, the seat's endpoint, the tool policy. */
export function kiloSeatConfig(base: Json, input: Pick<LaunchInput, "endpoint" | "model">): Json {
  const config: Json = { ...base };
  const { endpoint } = input;
  if (endpoint.baseUrl || endpoint.apiKey) {
    const id = providerOf(config, input.model);
    const providers = isObject(config.provider) ? { ...config.provider } : {};
    const current = isObject(providers[id]) ? providers[id] : {};
    providers[id] = {
      ...current,
      options: {
        ...(isObject(current.options) ? current.options : {}),
        ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
        // kilo reads the key from the variable itself: the value never enters the config text.
        ...(endpoint.apiKey ? { apiKey: `{env:${endpoint.apiKey.name}}` } : {}),
      },
    };
    config.provider = providers;
  }
  const policy = kiloToolPolicy();
  const agents = isObject(config.agent) ? config.agent : {};
  const own = isObject(agents[kiloAgent]) ? agents[kiloAgent] : {};
  return {
    ...config,
    ...policy,
    agent: { ...agents, [kiloAgent]: { ...own, ...((policy.agent as Json)[kiloAgent] as Json) } },
    autoupdate: false,
    share: "disabled",
    // No git snapshot of the (empty) working folder per step: work a debate seat never needs.
    snapshot: false,
  };
}

/** The base URL the seat's config sends the model's provider to, if it names one. */
export function kiloBaseUrl(config: Json, model: string | undefined): string | undefined {
  const provider = isObject(config.provider) ? config.provider[providerOf(config, model)] : undefined;
  const options = isObject(provider) && isObject(provider.options) ? provider.options : {};
  return typeof options.baseURL === "string" ? options.baseURL : undefined;
}

/**
 * Makes the seat's working folder the root of an empty git repository, so kilo takes it as its
 * project and looks for no `.kilo`/`.opencode` folder (or plugin) above it, such as the user's own
 * when the temp folder lies under HOME.
 */
function makeProjectRoot(dir: string): void {
  const git = join(dir, ".git");
  if (existsSync(join(git, "HEAD"))) return;
  mkdirSync(join(git, "objects"), { recursive: true, mode: 0o700 });
  mkdirSync(join(git, "refs", "heads"), { recursive: true, mode: 0o700 });
  writeFileSync(join(git, "HEAD"), "ref: refs/heads/main\n", { mode: 0o600 });
}

/**
 * The switches of one `kilo run` call (docs/architecture.md#adapters-and-seat-safety), measured with
 * @kilocode/cli 7.7.7, which renamed OpenCode's `OPENCODE_*` variables to `KILO_*`:
 * - tools: the policy above in `KILO_CONFIG_CONTENT` (merged last) and its permissions in
 *   `KILO_PERMISSION`: the model is offered no tool;
 * - `tools: read` is refused (not proven confined to a workspace with this version);
 * - isolation: a private HOME and `KILO_TEST_HOME` (Kilo also reads `~/.kilocode` rules, workflows
 *   and modes straight from HOME), private XDG folders, `KILO_DISABLE_PROJECT_CONFIG`,
 *   `KILO_DISABLE_CLAUDE_CODE`, `KILO_DISABLE_EXTERNAL_SKILLS`, `--pure`/`KILO_PURE`, the working
 *   folder made a git root; no npm, models.dev, update, telemetry, session upload or daemon.
 *   The login (`kilo/auth.json`) is linked in; the provider keys of the user's configs are kept.
 */
export async function kiloLaunch(input: LaunchInput): Promise<LaunchPlan> {
  const { sandbox, env } = input;
  if (sandbox.tools === "read")
    throw new SandboxError(
      "`tools: read` is not available: kilo's read tools are not proven confined to a workspace with the pinned version, so a kilo seat runs with tools off",
    );
  const isolated = sandbox.isolation === "on";
  const base = isolated ? userKiloProviderConfig(env) : readConfigText(env.KILO_CONFIG_CONTENT);
  const config = kiloSeatConfig(base, input);
  const url = kiloBaseUrl(config, input.model);
  // Like OpenCode, kilo retries a refused connection with backoff and no setting bounds it.
  if (url && (await refusesConnections(url)))
    throw new SandboxError(
      `the model server at ${url} refuses connections (nothing listens there); kilo would retry it for more than a minute`,
    );
  const links: Record<string, string> = {};
  if (isolated) {
    makeProjectRoot(join(sandbox.dir, "work"));
    const auth = join(xdg(env, "XDG_DATA_HOME", [".local", "share"]), "auth.json");
    if (existsSync(auth)) links["xdg/data/kilo/auth.json"] = auth;
  }
  return {
    args: isolated ? ["--pure"] : [],
    env: {
      KILO_CONFIG_CONTENT: JSON.stringify(config),
      KILO_PERMISSION: JSON.stringify(config.permission),
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_SHARE: "1",
      KILO_AUTO_SHARE: undefined,
      KILO_DISABLE_LSP_DOWNLOAD: "1",
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_SESSION_INGEST: "1",
      // Any value but "all" turns kilo's telemetry off.
      KILO_TELEMETRY_LEVEL: "off",
      KILO_NO_DAEMON: "1",
      npm_config_offline: "true",
      ...(isolated
        ? {
            HOME: join(sandbox.dir, "home"),
            KILO_TEST_HOME: join(sandbox.dir, "home"),
            KILO_CONFIG: undefined,
            KILO_CONFIG_DIR: undefined,
            KILO_TUI_CONFIG: undefined,
            XDG_CONFIG_HOME: join(sandbox.dir, "xdg", "config"),
            XDG_DATA_HOME: join(sandbox.dir, "xdg", "data"),
            XDG_STATE_HOME: join(sandbox.dir, "xdg", "state"),
            XDG_CACHE_HOME: join(sandbox.dir, "xdg", "cache"),
            KILO_DISABLE_PROJECT_CONFIG: "1",
            KILO_DISABLE_CLAUDE_CODE: "1",
            KILO_DISABLE_EXTERNAL_SKILLS: "1",
            KILO_PURE: "1",
          }
        : {}),
    },
    links,
  };
}
