import { join } from "node:path";
import { defineCliAdapter } from "@debatekit/adapter-kit";
import { buildGeminiArgs } from "./args.js";
import { geminiLaunch } from "./launch.js";
import { parseGeminiOutput } from "./parse.js";

const gemini = defineCliAdapter({
  name: "gemini",
  program: "gemini",
  buildArgs: buildGeminiArgs,
  parseOutput: parseGeminiOutput,
  launch: geminiLaunch,
  safety: {
    toolsOff:
      '--admin-policy denying every tool ("*"), tools.core [] and tools.exclude, --allowed-mcp-server-names with a name nobody uses',
    readOnly:
      "only read_file, read_many_files, list_directory, glob, grep_search (allowed by the admin policy), confined by gemini to the workspace",
    isolated:
      "a private GEMINI_CLI_HOME (settings: auth selection and retries only), GEMINI_CLI_TRUST_WORKSPACE=false: no GEMINI.md, extensions, hooks, MCP servers, commands or agents",
    passedThrough:
      "security.auth and general.maxAttempts of settings.json, oauth_creds.json and google_accounts.json (linked for the call), GEMINI_*/GOOGLE_* variables",
  },
  installHint:
    "install the Gemini CLI: `npm install -g @google/gemini-cli`, then run `gemini` once to log in",
  loginHint:
    "installed; it answers only after a login (`gemini`) or with GEMINI_API_KEY set (exit 41 means no auth)",
  credentials: {
    env: ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"],
    // The login flow records the chosen auth type here.
    files: (home) => [join(home, ".gemini", "settings.json")],
  },
});

/** A seat answered by the Gemini CLI (`gemini -p … -o json`) (prompt on stdin, never in argv). */
export const createAdapter = gemini.createAdapter;

/** Turns one finished `gemini` process into the seat result envelope (pure: used on recorded fixtures too). */
export const readGeminiOutcome = gemini.readOutcome;

/** The child's environment: the caller's plus the effort level's variables. */
export const buildGeminiEnv = gemini.buildEnv;
