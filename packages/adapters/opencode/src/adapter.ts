import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildOpencodeArgs } from "./args.js";
import { opencodeBaseUrl, opencodeLaunch, userProviderConfig } from "./launch.js";
import { parseOpencodeOutput } from "./parse.js";

const opencode = defineCliAdapter({
  name: "opencode",
  program: "opencode",
  buildArgs: buildOpencodeArgs,
  parseOutput: parseOpencodeOutput,
  launch: opencodeLaunch,
  defaultEndpoint: (env) => opencodeBaseUrl(userProviderConfig(env), undefined),
  safety: {
    toolsOff:
      'OPENCODE_CONFIG_CONTENT tools {"*": false} + every permission "deny" (top level and the build agent), the same in OPENCODE_PERMISSION: no tool offered',
    readOnly:
      "runs in the workspace: read (path rules when the workspace is inside a git repository), grep and glob (only with an rg on PATH and no repository around the workspace), external_directory denied",
    isolated:
      "private XDG config/data/state/cache and OPENCODE_TEST_HOME, OPENCODE_DISABLE_PROJECT_CONFIG/CLAUDE_CODE/EXTERNAL_SKILLS, --pure: no AGENTS.md, CLAUDE.md, plugins, MCP servers, agents, commands, skills; no npm, models.dev or update checks",
    passedThrough:
      "opencode/auth.json and the models.dev cache (linked for the call), the provider/model keys of the user's config files and OPENCODE_CONFIG_CONTENT, provider key variables",
  },
  installHint: "install OpenCode: `npm install -g opencode-ai`, then `opencode auth login`",
  loginHint:
    "installed; it answers only after `opencode auth login` or with a provider key (e.g. ANTHROPIC_API_KEY)",
  credentials: {
    // OPENCODE_CONFIG_CONTENT may configure a provider with its own key and base URL.
    env: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENCODE_CONFIG_CONTENT"],
    // `opencode auth login` keeps keys under the XDG data folder; a config file may hold a provider's key too.
    files: (home, env) => [
      join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "opencode", "auth.json"),
      ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
      join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "opencode", "opencode.json"),
      join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "opencode", "opencode.jsonc"),
    ],
    // Without a provider it exits 1 with "Unexpected server error"; a project config we do not see
    // may hold a key, so the CLI still runs and only its failure is reported as the missing login.
    whenMissing: "on-failure",
  },
});

/** A seat answered by OpenCode (`opencode run --format json`) (prompt on stdin, never in argv). */
export const createAdapter = opencode.createAdapter;

/** Turns one finished `opencode` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readOpencodeOutcome = opencode.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildOpencodeEnv = opencode.buildEnv;
