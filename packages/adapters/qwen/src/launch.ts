import { homedir } from "node:os";
import { join } from "node:path";
import {
  type LaunchInput,
  type LaunchPlan,
  readUserJsonObject,
  refusesConnections,
  SandboxError,
} from "@debatekit/adapter-kit";

/**
 * Every built-in tool of Qwen Code 0.24 (its `ToolNames` table), excluded by name: an allowlist
 * (`--core-tools`) adds the shell and edit tools back in this version, so it cannot be used.
 */
export const qwenTools = [
  "exec",
  "edit",
  "write_file",
  "read_file",
  "zoom_image",
  "grep_search",
  "glob",
  "run_shell_command",
  "todo_write",
  "save_memory",
  "agent",
  "skill",
  "exit_plan_mode",
  "enter_plan_mode",
  "web_fetch",
  "web_search",
  "image_gen",
  "list_directory",
  "lsp",
  "ask_user_question",
  "cron_create",
  "cron_list",
  "cron_delete",
  "loop_wakeup",
  "create_sub_session",
  "list_agents",
  "task_stop",
  "task_create",
  "task_update",
  "task_list",
  "team_create",
  "team_delete",
  "team_plan_approval",
  "request_shutdown",
  "send_message",
  "structured_output",
  "monitor",
  "notebook_edit",
  "tool_call",
  "tool_search",
  "read_mcp_resource",
  "enter_worktree",
  "exit_worktree",
  "workflow",
  "artifact",
  "record_artifact",
  "record_source",
  "report_findings",
  "get_goal",
  "update_goal",
  "omni_downsample_image",
  "omni_downscale_video",
  "omni_downsample_audio",
  "omni_extract_keyframes",
  "omni_extract_audio",
  "omni_clip_video",
  "omni_convert_image",
  "omni_transcribe_audio",
];

/** An MCP server name nobody uses: `--allowed-mcp-server-names` with it starts no MCP server. */
export const noMcpServer = "debatekit-no-mcp-server";

/** The user's `.qwen` folder: `$QWEN_HOME`, else `~/.qwen`. */
export function userQwenDir(env: NodeJS.ProcessEnv): string {
  return env.QWEN_HOME ?? join(env.HOME ?? homedir(), ".qwen");
}

/** The login of `security.auth` in the user's settings (what `--bare` no longer reads itself). */
export interface QwenLogin {
  selectedType?: string;
  baseUrl?: string;
  apiKey?: string;
}

/** `security.auth` of the user's settings, the string fields only. */
export function readQwenLogin(user: Record<string, unknown>): QwenLogin {
  const auth = ((user.security ?? {}) as Record<string, unknown>).auth as Record<string, unknown> | undefined;
  const text = (key: string) => (typeof auth?.[key] === "string" ? { [key]: auth[key] as string } : {});
  return { ...text("selectedType"), ...text("baseUrl"), ...text("apiKey") };
}

/**
 * The switches of one qwen call (docs/architecture.md#adapters-and-seat-safety): every built-in
 * tool excluded, no MCP server, approvals not automatic; isolated, `--bare --safe-mode` (no
 * settings, context files, hooks, extensions, skills, MCP servers or auto memory) with a private
 * QWEN_HOME, the user's login passed as flags and variable; the seat's endpoint as an
 * OpenAI-compatible server, refused at once when it is a loopback address nobody listens on.
 */
export async function qwenLaunch(input: LaunchInput): Promise<LaunchPlan> {
  const { sandbox, endpoint, env } = input;
  if (sandbox.tools === "read")
    throw new SandboxError(
      "`tools: read` is not available: qwen's read tools are not proven confined to a workspace with the pinned version, so a qwen seat runs with tools off",
    );
  const isolated = sandbox.isolation === "on";
  // `--bare` reads no settings file: the user's login travels as flags and a variable instead.
  const login = isolated ? readQwenLogin(readUserJsonObject(join(userQwenDir(env), "settings.json"))) : {};
  const authType = endpoint.baseUrl ? "openai" : login.selectedType;
  const baseUrl = endpoint.baseUrl ?? login.baseUrl;
  const apiKey = endpoint.apiKey?.value ?? (env.OPENAI_API_KEY ? undefined : login.apiKey);
  // Qwen Code 0.24.4 retries a refused connection for more than 60 s and no flag bounds it.
  if (baseUrl && (await refusesConnections(baseUrl)))
    throw new SandboxError(
      `the model server at ${baseUrl} refuses connections (nothing listens there); qwen would retry it for more than 60 s`,
    );
  return {
    args: [
      "--exclude-tools",
      ...qwenTools,
      "--allowed-mcp-server-names",
      noMcpServer,
      // Headless qwen otherwise runs in "auto" mode, where a classifier approves tool calls.
      "--approval-mode",
      "default",
      ...(isolated ? ["--bare", "--safe-mode"] : []),
      ...(authType ? ["--auth-type", authType] : []),
      // OPENAI_BASE_URL is not read by this version: the flag is the only way to set the URL.
      ...(baseUrl ? ["--openai-base-url", baseUrl] : []),
    ],
    env: {
      // Sessions, auto memory and logs of the seat stay out of the user's ~/.qwen.
      ...(isolated ? { QWEN_HOME: join(sandbox.dir, "qwen-home") } : {}),
      // The key travels in the environment, never in argv (visible in `ps`).
      ...(apiKey ? { OPENAI_API_KEY: apiKey } : {}),
    },
  };
}
