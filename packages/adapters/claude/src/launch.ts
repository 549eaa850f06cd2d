import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";

/** Claude Code's read-only tools, offered with `tools: read`. */
export const claudeReadTools = ["Read", "Grep", "Glob"];

/**
 * The switches of one claude call (DESIGN §6): no tool (`--tools ""`, no MCP server), or only
 * the read tools inside the workspace; none of the user's settings, hooks, plugins, MCP servers
 * or CLAUDE.md files unless `isolation: off`; the seat's endpoint as Claude Code's variables.
 */
export function claudeLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint } = input;
  const read = sandbox.tools === "read";
  const isolated = sandbox.isolation === "on";
  return {
    args: [
      "--tools",
      read ? claudeReadTools.join(",") : "",
      "--max-turns",
      read ? "12" : "1",
      "--strict-mcp-config",
      ...(isolated ? ["--setting-sources", ""] : []),
    ],
    env: {
      ...(isolated ? { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" } : {}),
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      ...(endpoint.baseUrl ? { ANTHROPIC_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { ANTHROPIC_API_KEY: endpoint.apiKey.value } : {}),
    },
  };
}
