import { defineCliAdapter, mergeChildEnv } from "@debatekit/adapter-kit";
import { buildClaudeArgs } from "./args.js";
import { claudeLaunch } from "./launch.js";
import { parseClaudeOutput } from "./parse.js";

/** The child's environment: the caller's plus the effort level's variables, minus CLAUDECODE. */
export function buildClaudeEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = mergeChildEnv(base, extra);
  // Claude Code refuses to start inside another Claude Code session while this is set.
  delete env.CLAUDECODE;
  return env;
}

const claude = defineCliAdapter({
  name: "claude",
  program: "claude",
  buildArgs: buildClaudeArgs,
  buildEnv: buildClaudeEnv,
  parseOutput: parseClaudeOutput,
  launch: claudeLaunch,
  safety: {
    toolsOff:
      '--tools "" (no built-in tool offered), --max-turns 2, --strict-mcp-config (no MCP server), --disable-slash-commands',
    readOnly:
      "--tools Read,Grep,Glob and --restricted in the workspace: reads outside it are refused, whatever the user's permission rules (no settings or CLAUDE.md load)",
    isolated:
      '--setting-sources "" and CLAUDE_CODE_DISABLE_AUTO_MEMORY=1: no settings, hooks, plugins, MCP servers, agents, skills, commands, CLAUDE.md or auto-memory; no telemetry or update checks',
    passedThrough:
      "~/.claude/.credentials.json (the login), ANTHROPIC_*/provider variables, and the credential helpers and provider variables of settings.json (as a --settings file)",
  },
  installHint:
    "install Claude Code: `npm install -g @anthropic-ai/claude-code`, then run `claude` once to log in",
  loginHint:
    "installed; it answers only when logged in (run `claude`, then /login) or with ANTHROPIC_API_KEY set",
  // A base URL counts: a local or proxy endpoint brings its own authentication.
  credentials: {
    env: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_BASE_URL"],
  },
});

/** A seat answered by Claude Code (`claude -p --output-format json`) (prompt on stdin, never in argv). */
export const createAdapter = claude.createAdapter;

/** Turns one finished `claude` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readClaudeOutcome = claude.readOutcome;
