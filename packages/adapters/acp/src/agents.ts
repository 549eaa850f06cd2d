import { basename } from "node:path";
import type { LaunchInput, LaunchPlan } from "@debatekit/adapter-kit";
import { opencodeSessionPlan } from "@debatekit/adapter-opencode";
import { qwenLaunch } from "@debatekit/adapter-qwen";

/** The agent an `acp` seat starts when it names no `command`: Kiro, which is reached only over ACP. */
export const defaultCommand: readonly string[] = ["kiro-cli", "acp"];

/** What we know about an ACP agent program, found by the file name of `command[0]`. */
export interface KnownAgent {
  /** The usual way to start it in ACP mode. */
  command: readonly string[];
  /** Child environment defaults; a variable the user already set wins. */
  env?: Record<string, string>;
  /**
   * The agent's own switches for one session (docs/architecture.md#adapters-and-seat-safety): tools off or read-only, the user's
   * setup kept away (isolation), the seat's endpoint. Its `args` follow the seat's command.
   */
  launch?: (input: LaunchInput) => LaunchPlan | Promise<LaunchPlan>;
  /**
   * Run in the seat's private folder even with `tools: read` (the plan links the workspace in):
   * for an agent that would load the workspace's own configuration whatever its switches.
   */
  privateCwd?: boolean;
  /** How to make it usable when it is not (for `debate doctor`). */
  setupHint: string;
}

/** Known ACP agents by program name. */
export const knownAgents: Record<string, KnownAgent> = {
  "kiro-cli": { command: ["kiro-cli", "acp"], setupHint: "install Kiro CLI and run `kiro-cli login`" },
  opencode: {
    command: ["opencode", "acp"],
    // opencode runs edits and shell commands without asking by default: its tools are turned
    // off in its config (and the adapter's policy refuses any permission request that still comes).
    launch: opencodeSessionPlan,
    // opencode 1.18.33 runs the `.opencode/plugin/*.js` of its folder and the folders up to the
    // git root whatever the switches: it never runs in the workspace (linked in as `workspace/`).
    privateCwd: true,
    setupHint: "`npm i -g opencode-ai` and `opencode auth login`",
  },
  gemini: {
    command: ["gemini", "--acp"],
    setupHint: "`npm i -g @google/gemini-cli` and set GEMINI_API_KEY (or run `gemini` once to log in)",
  },
  qwen: {
    command: ["qwen", "--acp"],
    // The qwen adapter's own switches (every built-in tool excluded, no MCP server, approvals not
    // automatic, --bare --safe-mode with a private QWEN_HOME, the login as flags): Qwen Code 0.24.4
    // reads them in ACP mode as in headless mode.
    launch: qwenLaunch,
    setupHint:
      "`npm i -g @qwen-code/qwen-code` and set OPENAI_API_KEY (or security.auth in ~/.qwen/settings.json)",
  },
  copilot: {
    command: ["copilot", "--acp", "--stdio"],
    setupHint: "`npm i -g @github/copilot` and run `copilot` once to log in (or set GH_TOKEN)",
  },
};

/** The known agent a command starts, if any. */
export function knownAgentOf(command: readonly string[]): KnownAgent | undefined {
  const program = command[0];
  return program ? knownAgents[basename(program)] : undefined;
}
