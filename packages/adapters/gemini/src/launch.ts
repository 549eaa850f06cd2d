import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";

/** Gemini CLI's built-in tools that only read (offered with `tools: read`). */
export const geminiReadTools = [
  "read_file",
  "read_many_files",
  "list_directory",
  "glob",
  "search_file_content",
];

/** Every other built-in tool: commands, writes, edits, the network, memory. */
export const geminiActingTools = [
  "run_shell_command",
  "write_file",
  "replace",
  "web_fetch",
  "google_web_search",
  "save_memory",
  "write_todos",
];

/** The user's `.gemini` folder: under `$GEMINI_CLI_HOME`, else HOME. */
export function userGeminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME ?? env.HOME ?? homedir(), ".gemini");
}

function readJson(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The switches of one gemini call (DESIGN §6): a private GEMINI_CLI_HOME whose settings hold only
 * the user's auth selection and retry limit, folder trust off (so the working folder's settings,
 * extensions and GEMINI.md files are not trusted), no tool that acts, and the seat's endpoint.
 */
export function geminiLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint, env } = input;
  const isolated = sandbox.isolation === "on";
  const read = sandbox.tools === "read";
  const userDir = userGeminiDir(env);
  const user = readJson(join(userDir, "settings.json"));
  const security = (user.security ?? {}) as Record<string, unknown>;
  const general = (user.general ?? {}) as Record<string, unknown>;
  const excluded = read ? geminiActingTools : [...geminiActingTools, ...geminiReadTools];
  const files: Record<string, string> = {};
  const links: Record<string, string> = {};
  if (isolated) {
    const settings = {
      security: {
        ...(security.auth ? { auth: security.auth } : {}),
        folderTrust: { enabled: false },
      },
      ...(general.maxAttempts !== undefined ? { general: { maxAttempts: general.maxAttempts } } : {}),
      tools: { exclude: excluded },
      privacy: { usageStatisticsEnabled: false },
    };
    files["gemini-home/.gemini/settings.json"] = `${JSON.stringify(settings, null, 2)}\n`;
    for (const name of ["oauth_creds.json", "google_accounts.json"]) {
      const path = join(userDir, name);
      if (existsSync(path)) links[`gemini-home/.gemini/${name}`] = path;
    }
  }
  return {
    // Not isolated, the user's settings may turn folder trust on, and an untrusted folder makes
    // gemini exit 55: the seat's own empty folder is safe to trust, a workspace is not.
    args: isolated ? [] : ["--exclude-tools", excluded.join(","), ...(read ? [] : ["--skip-trust"])],
    env: {
      ...(isolated
        ? { GEMINI_CLI_HOME: join(sandbox.dir, "gemini-home"), GEMINI_CLI_TRUST_WORKSPACE: "false" }
        : {}),
      ...(endpoint.baseUrl ? { GOOGLE_GEMINI_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { GEMINI_API_KEY: endpoint.apiKey.value } : {}),
    },
    files,
    links,
  };
}
