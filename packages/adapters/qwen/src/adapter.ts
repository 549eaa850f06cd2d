import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildQwenArgs } from "./args.js";
import { qwenLaunch } from "./launch.js";
import { parseQwenOutput } from "./parse.js";

const qwen = defineCliAdapter({
  name: "qwen",
  program: "qwen",
  buildArgs: buildQwenArgs,
  parseOutput: parseQwenOutput,
  launch: qwenLaunch,
  safety: {
    toolsOff:
      "--exclude-tools naming every built-in tool, --allowed-mcp-server-names with a name nobody uses, --approval-mode default",
    readOnly: "not available (a `tools: read` seat is unavailable)",
    readUnavailable:
      "qwen's read tools are not yet proven confined to a workspace with the pinned version: use tools: none",
    isolated:
      "--bare --safe-mode and a private QWEN_HOME (settings: auth only, no auto memory): no QWEN.md, hooks, extensions, skills, MCP servers or agents",
    passedThrough: "security.auth of ~/.qwen/settings.json, OPENAI_* variables",
  },
  installHint:
    "install Qwen Code: `npm install -g @qwen-code/qwen-code`, then set OPENAI_API_KEY or run `qwen` once",
  loginHint:
    "installed; it answers only with an API key (OPENAI_API_KEY or security.auth in ~/.qwen/settings.json)",
  credentials: {
    env: ["OPENAI_API_KEY", "DASHSCOPE_API_KEY"],
    files: (home, env) => [join(env.QWEN_HOME ?? join(home, ".qwen"), "settings.json")],
  },
});

/** A seat answered by Qwen Code (`qwen -p … -o stream-json`) (prompt on stdin, never in argv). */
export const createAdapter = qwen.createAdapter;

/** Turns one finished `qwen` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readQwenOutcome = qwen.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildQwenEnv = qwen.buildEnv;
