import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { type LaunchInput, type LaunchPlan, refusesConnections, SandboxError } from "@debatekit/adapter-kit";
import { type ParseError, parse as parseJsonc } from "jsonc-parser";

/** Copilot CLI 1.0.102's tools that only read (offered with `tools: read`): file view, glob, ripgrep. */
export const copilotReadTools = ["view", "glob", "rg"] as const;

/**
 * `--available-tools` with a name no tool has: copilot then offers the model no tool at all
 * (verified: the request carries no `tools`). An empty value would mean "every tool".
 */
export const copilotNoTool = "none";

/** Permission kinds denied on every call, so nothing can ask for them even if a tool slipped through. */
export const copilotDeniedKinds = ["shell", "write", "url"] as const;

/** The keys of copilot's `config.json` that hold a login (the user list, and tokens stored in plain text). */
export const copilotLoginKeys = ["lastLoggedInUser", "loggedInUsers", "copilotTokens"] as const;

/** Variables of the user's environment that would bring their own setup (or every permission) in. */
const userSetupVariables = [
  "COPILOT_CUSTOM_INSTRUCTIONS_DIRS",
  "COPILOT_PROMPT_MODE_EXTENSIONS",
  "COPILOT_CLI_ENABLED_FEATURE_FLAGS",
] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The login part of the user's copilot `config.json` (JSON with comments: copilot writes a
 * `//` header), or undefined when it holds none. Nothing else of it (trusted folders, approved
 * tools and URLs) is carried over.
 */
export function copilotLoginConfig(text: string | undefined): Json | undefined {
  if (!text) return undefined;
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isObject(value)) return undefined;
  const login: Json = {};
  for (const key of copilotLoginKeys) if (value[key] !== undefined) login[key] = value[key];
  return Object.keys(login).length > 0 ? login : undefined;
}

/** The user's copilot folder: `$COPILOT_HOME`, else `~/.copilot`. */
export function userCopilotHome(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_HOME || join(env.HOME || homedir(), ".copilot");
}

/**
 * The switches of one copilot call (docs/architecture.md#adapters-and-seat-safety), verified with @github/copilot 1.0.102:
 * - tools: `--available-tools none` (the model is offered no tool), plus `--deny-tool shell
 *   write url` and `--disable-builtin-mcps`; `tools: read`: `--available-tools view glob rg`
 *   in the workspace, where copilot's own path check refuses anything outside the working
 *   directory (symlinks resolved), and `--disallow-temp-dir` (the temp folder is otherwise
 *   readable, and holds the seat sandboxes);
 * - isolation: a private `COPILOT_HOME` (no user MCP config, settings, hooks, agents, skills,
 *   plugins, trusted folders), `--no-custom-instructions` (no AGENTS.md / copilot-instructions.md
 *   in the folder, the git root or HOME), no update download, no client telemetry; the login
 *   (user list and plain-text tokens of `config.json`) is written into the private folder for
 *   the call; token and `COPILOT_PROVIDER_*` variables pass through;
 * - `COPILOT_ALLOW_ALL` is always removed: "true" trusts the folder (its hooks and MCP servers run);
 * - a loopback model server that refuses connections makes the seat unavailable at once.
 */
export async function copilotLaunch(input: LaunchInput): Promise<LaunchPlan> {
  const { sandbox, endpoint, env } = input;
  // copilot 1.0.102 retries a refused connection for about 23 s (no setting): ask first.
  const url = endpoint.baseUrl ?? env.COPILOT_PROVIDER_BASE_URL;
  if (url && (await refusesConnections(url)))
    throw new SandboxError(
      `the model server at ${url} refuses connections (nothing listens there); copilot would retry it for about 23 s`,
    );
  const isolated = sandbox.isolation === "on";
  const read = sandbox.tools === "read";
  const files: Record<string, string> = {};
  if (isolated) {
    const configPath = join(userCopilotHome(env), "config.json");
    const login = existsSync(configPath) ? copilotLoginConfig(readFileSync(configPath, "utf8")) : undefined;
    if (login) files["copilot-home/config.json"] = `${JSON.stringify(login, null, 2)}\n`;
  }
  return {
    args: [
      "--available-tools",
      ...(read ? copilotReadTools : [copilotNoTool]),
      "--deny-tool",
      ...copilotDeniedKinds,
      "--disallow-temp-dir",
      "--disable-builtin-mcps",
      "--no-auto-update",
      ...(isolated ? ["--no-custom-instructions", "--disable-client-telemetry"] : []),
    ],
    env: {
      COPILOT_ALLOW_ALL: undefined,
      COPILOT_AUTO_UPDATE: "false",
      ...(isolated
        ? {
            COPILOT_HOME: join(sandbox.dir, "copilot-home"),
            ...Object.fromEntries(userSetupVariables.map((name) => [name, undefined])),
          }
        : {}),
      ...(endpoint.baseUrl ? { COPILOT_PROVIDER_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { COPILOT_PROVIDER_API_KEY: endpoint.apiKey.value } : {}),
    },
    files,
  };
}
