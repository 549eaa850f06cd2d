import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildCopilotArgs } from "./args.js";
import { copilotLaunch } from "./launch.js";
import { parseCopilotOutput } from "./parse.js";

const copilot = defineCliAdapter({
  name: "copilot",
  program: "copilot",
  buildArgs: buildCopilotArgs,
  parseOutput: parseCopilotOutput,
  launch: copilotLaunch,
  defaultEndpoint: (env) => env.COPILOT_PROVIDER_BASE_URL,
  safety: {
    toolsOff:
      "--available-tools none (no tool offered), --deny-tool shell write url, --disable-builtin-mcps, COPILOT_ALLOW_ALL removed",
    readOnly:
      "--available-tools view glob rg in the workspace (copilot refuses paths outside its working directory), --disallow-temp-dir",
    isolated:
      "a private COPILOT_HOME, --no-custom-instructions, --no-auto-update, --disable-client-telemetry: no AGENTS.md or copilot instructions, MCP config, hooks, skills, agents, plugins or trusted folders",
    passedThrough:
      "COPILOT_GITHUB_TOKEN / GH_TOKEN / GITHUB_TOKEN, COPILOT_PROVIDER_* and COPILOT_MODEL variables, the login entries of config.json (written into the private folder for the call)",
  },
  installHint: "install the Copilot CLI: `npm install -g @github/copilot`, then `copilot` and /login",
  loginHint:
    "installed; it answers only when logged in (`copilot`, then /login) or with GH_TOKEN / a COPILOT_PROVIDER_* endpoint",
  credentials: {
    // A COPILOT_PROVIDER_BASE_URL endpoint (bring your own model) needs no GitHub login.
    env: ["GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN", "COPILOT_PROVIDER_BASE_URL"],
    files: (home) => [join(home, ".copilot", "config.json")],
  },
});

/** A seat answered by the GitHub Copilot CLI (`copilot --output-format json`) (prompt on stdin, never in argv). */
export const createAdapter = copilot.createAdapter;

/** Turns one finished `copilot` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readCopilotOutcome = copilot.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildCopilotEnv = copilot.buildEnv;
