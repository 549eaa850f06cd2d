// A project's config file is data someone may hand you, like a debate folder: the code it would make
// the CLI run (the modules its `formats` names, or the file itself when it is a .js/.mjs/.cjs config)
// runs only once you allowed it with `debate allow <folder>`. What was allowed is recorded outside
// the project, by the config file's real path and sha256 hashes of the code, so an edit needs a new
// `allow`. A leaf of node built-ins: every command checks it at start.

import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import { ExitError } from "./exit-error.js";

/** What was allowed of one project config file. */
export interface ConfigAllowance {
  allowed_at: string;
  /** sha256 of the file's content, when the file is code (debatekit.config.{js,mjs,cjs}). */
  code?: string;
  /** The hash of the modules its `formats` names (formatsHash). */
  formats?: string;
  /** What was allowed, as a person read it. */
  shown: string[];
}

/** One `formats` entry of a config file with the module it resolves to. */
export interface ResolvedFormat {
  specifier: string;
  /** The module's path, as resolved from the config file. */
  module: string;
}

/** `$XDG_STATE_HOME/debatekit/allowed-configs.json` (default `~/.local/state/debatekit/`), beside `debate allow`'s allowed.json. */
export function configAllowancesFile(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(state, "debatekit", "allowed-configs.json");
}

export function sha256(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * One hash of what loading the formats would run: each entry's specifier, its module's real path
 * and the sha256 of its content. A module that does not read hashes as missing (it cannot be
 * allowed into loading: the hash changes once it appears).
 */
export async function formatsHash(formats: readonly ResolvedFormat[]): Promise<string> {
  const parts = await Promise.all(
    formats.map(async ({ specifier, module }) => {
      const real = await realpath(module).catch(() => module);
      const content = await readFile(real).catch(() => undefined);
      return { specifier, module: real, sha256: content ? sha256(content) : "missing" };
    }),
  );
  return sha256(JSON.stringify(parts));
}

/** The allowances recorded; a file that is not JSON ends the command naming it (exit 2). */
export async function readConfigAllowances(env: NodeJS.ProcessEnv): Promise<Record<string, ConfigAllowance>> {
  const file = configAllowancesFile(env);
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return {};
  try {
    const data = JSON.parse(text) as { configs?: Record<string, ConfigAllowance> };
    return data.configs && typeof data.configs === "object" ? data.configs : {};
  } catch (error) {
    throw new ExitError(
      `${file}: not JSON (${(error as Error).message}); fix it or delete it and allow the projects again`,
      2,
    );
  }
}

async function writeConfigAllowances(
  env: NodeJS.ProcessEnv,
  configs: Record<string, ConfigAllowance>,
): Promise<void> {
  const file = configAllowancesFile(env);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: 1, configs }, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** Records `allowance` for the config file whose real path is `real` (replacing what was there). */
export async function allowConfig(
  env: NodeJS.ProcessEnv,
  real: string,
  allowance: ConfigAllowance,
): Promise<void> {
  const configs = await readConfigAllowances(env);
  configs[real] = allowance;
  await writeConfigAllowances(env, configs);
}

/** Forgets the allowance of the config file whose real path is `real`; true when there was one. */
export async function denyConfig(env: NodeJS.ProcessEnv, real: string): Promise<boolean> {
  const configs = await readConfigAllowances(env);
  if (!configs[real]) return false;
  delete configs[real];
  await writeConfigAllowances(env, configs);
  return true;
}

/** The allowance recorded for the config file `file` (by its real path), if any. */
export async function allowanceOf(
  env: NodeJS.ProcessEnv,
  file: string,
): Promise<ConfigAllowance | undefined> {
  const real = await realpath(file).catch(() => file);
  return (await readConfigAllowances(env))[real];
}

/** A project's config that would run code the user has not allowed: nothing of it was run. */
export class ConfigNotAllowedError extends ExitError {
  constructor(
    readonly file: string,
    what: string,
    cwd: string,
  ) {
    super(
      `${relative(cwd, file) || file}: ${what}, which you have not allowed; nothing of it was loaded. Check it, then allow it with \`debate allow ${relative(cwd, dirname(file)) || "."}\``,
      2,
    );
    this.name = "ConfigNotAllowedError";
  }
}

/** Throws ConfigNotAllowedError unless the code config `file` with `content` is allowed as it is now. */
export async function assertCodeConfigAllowed(
  env: NodeJS.ProcessEnv,
  cwd: string,
  file: string,
  content: string,
): Promise<void> {
  const allowed = await allowanceOf(env, file);
  if (allowed?.code !== sha256(content))
    throw new ConfigNotAllowedError(file, "is code (a JavaScript config)", cwd);
}
