import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildCodexArgs } from "./args.js";
import { codexLaunch } from "./launch.js";
import { parseCodexOutput } from "./parse.js";

const codex = defineCliAdapter({
  name: "codex",
  program: "codex",
  buildArgs: buildCodexArgs,
  parseOutput: parseCodexOutput,
  launch: codexLaunch,
  safety: {
    toolsOff:
      "--disable shell_tool, unified_exec, view_image, goals, apps, plugins, tool_suggest, multi_agent; web_search disabled; a model catalog without apply_patch; --sandbox read-only",
    readOnly: "not available: codex has no read-only file tools (a `tools: read` seat is unavailable)",
    readUnavailable: "codex has no read-only file tools (reading goes through its shell): use tools: none",
    isolated:
      "a private CODEX_HOME holding only the provider settings; project_doc_max_bytes=0, skills.include_instructions=false: no AGENTS.md, MCP servers, profiles, notify, hooks, skills or instructions",
    passedThrough:
      "auth.json (linked for the call); model_provider, [model_providers], model, openai_base_url and the forced login of config.toml",
  },
  installHint: "install the Codex CLI: `npm install -g @openai/codex`, then `codex login`",
  loginHint: "installed; it answers only after `codex login` or with OPENAI_API_KEY set",
  credentials: {
    env: ["OPENAI_API_KEY", "CODEX_API_KEY"],
    // `codex login` writes auth.json; a config.toml may name a provider with its own key.
    files: (home, env) => {
      const dir = env.CODEX_HOME ?? join(home, ".codex");
      return [join(dir, "auth.json"), join(dir, "config.toml")];
    },
    // Without a login `codex exec` retries the OpenAI API until the seat times out.
    whenMissing: "before-call",
  },
});

/** A seat answered by the Codex CLI (`codex exec --json`) (prompt on stdin, never in argv). */
export const createAdapter = codex.createAdapter;

/** Turns one finished `codex` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readCodexOutcome = codex.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildCodexEnv = codex.buildEnv;
