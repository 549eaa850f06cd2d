import { basename } from "node:path";

/** The agent an `acp` seat starts when it names no `command`: Kiro, which is reached only over ACP. */
export const defaultCommand: readonly string[] = ["kiro-cli", "acp"];

/** What we know about an ACP agent program, found by the file name of `command[0]`. */
export interface KnownAgent {
  /** The usual way to start it in ACP mode. */
  command: readonly string[];
  /** Child environment defaults; a variable the user already set wins. */
  env?: Record<string, string>;
  /** How to make it usable when it is not (for `debate doctor`). */
  setupHint: string;
}

/** Known ACP agents by program name. */
export const knownAgents: Record<string, KnownAgent> = {
  "kiro-cli": { command: ["kiro-cli", "acp"], setupHint: "install Kiro CLI and run `kiro-cli login`" },
  opencode: {
    command: ["opencode", "acp"],
    // opencode runs edits and shell commands without asking by default; "ask" routes them to
    // session/request_permission, where the adapter's policy answers.
    env: { OPENCODE_PERMISSION: JSON.stringify({ edit: "ask", bash: "ask", webfetch: "ask" }) },
    setupHint: "`npm i -g opencode-ai` and `opencode auth login`",
  },
  gemini: {
    command: ["gemini", "--acp"],
    setupHint: "`npm i -g @google/gemini-cli` and set GEMINI_API_KEY (or run `gemini` once to log in)",
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
