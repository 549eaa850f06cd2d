import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildKiloArgs } from "./args.js";
import { kiloBaseUrl, kiloLaunch, userKiloProviderConfig } from "./launch.js";
import { parseKiloOutput } from "./parse.js";

const kilo = defineCliAdapter({
  name: "kilo",
  program: "kilo",
  buildArgs: buildKiloArgs,
  parseOutput: parseKiloOutput,
  launch: kiloLaunch,
  defaultEndpoint: (env) => kiloBaseUrl(userKiloProviderConfig(env), undefined),
  safety: {
    toolsOff:
      'KILO_CONFIG_CONTENT tools {"*": false} + every permission "deny" (top level and the code agent), the same in KILO_PERMISSION: no tool offered',
    readOnly: "not available (a `tools: read` seat is unavailable)",
    readUnavailable:
      "kilo's read tools are not yet proven confined to a workspace with the pinned version: use tools: none",
    isolated:
      "private HOME, KILO_TEST_HOME and XDG folders, KILO_DISABLE_PROJECT_CONFIG/CLAUDE_CODE/EXTERNAL_SKILLS, --pure, the working folder a git root: no AGENTS.md, .kilocode rules, workflows, modes, plugins, MCP servers, agents, commands, skills; no npm, models.dev, telemetry or update checks",
    passedThrough:
      "kilo/auth.json (linked for the call), the provider/model keys of the user's kilo config files and KILO_CONFIG_CONTENT, provider key variables",
  },
  installHint: "install Kilo Code: `npm install -g @kilocode/cli`, then `kilo auth login`",
  loginHint:
    "installed; it answers only after `kilo auth login` or with a provider key (e.g. ANTHROPIC_API_KEY, KILO_API_KEY)",
  credentials: {
    env: ["KILO_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "KILO_CONFIG_CONTENT"],
    files: (home, env) => [
      join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "kilo", "auth.json"),
      ...(env.KILO_CONFIG ? [env.KILO_CONFIG] : []),
      join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "kilo", "kilo.json"),
      join(env.XDG_CONFIG_HOME ?? join(home, ".config"), "kilo", "kilo.jsonc"),
    ],
    // A project config we do not see may hold a key: only a failed call is reported as the missing login.
    whenMissing: "on-failure",
  },
});

/** A seat answered by Kilo Code (`kilo run --format json`) (prompt on stdin, never in argv). */
export const createAdapter = kilo.createAdapter;

/** Turns one finished `kilo` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readKiloOutcome = kilo.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildKiloEnv = kilo.buildEnv;
