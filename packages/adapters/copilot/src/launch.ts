import { join } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";

/** Copilot CLI's tools that only read (offered with `tools: read`). */
export const copilotReadTools = ["view", "glob", "grep"];

/**
 * The switches of one copilot call (DESIGN §6): only the read tools inside the workspace, or no
 * tool at all; a private COPILOT_HOME, no custom instructions, no built-in MCP servers, no update
 * check; the seat's endpoint as copilot's provider variables.
 */
export function copilotLaunch(input: LaunchInput): LaunchPlan {
  const { sandbox, endpoint } = input;
  const isolated = sandbox.isolation === "on";
  const read = sandbox.tools === "read";
  return {
    args: [
      ...(read
        ? ["--available-tools", ...copilotReadTools, "--allow-tool", ...copilotReadTools]
        : ["--available-tools", "none"]),
      "--deny-tool",
      "shell",
      "write",
      "url",
      "--disable-builtin-mcps",
      "--no-auto-update",
      ...(isolated ? ["--no-custom-instructions"] : []),
    ],
    env: {
      COPILOT_ALLOW_ALL: undefined,
      ...(isolated ? { COPILOT_HOME: join(sandbox.dir, "copilot-home") } : {}),
      ...(endpoint.baseUrl ? { COPILOT_PROVIDER_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { COPILOT_PROVIDER_API_KEY: endpoint.apiKey.value } : {}),
    },
  };
}
