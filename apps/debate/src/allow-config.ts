// `debate allow` and `deny` of a project's config: what it names is read as data, never imported.

import { readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import {
  allowConfig,
  configAllowancesFile,
  denyConfig,
  formatsHash,
  type ResolvedFormat,
  sha256,
} from "./config-consent.js";
import { CODE_CONFIG_PLACES, DATA_CONFIG_PLACES } from "./config-places.js";
import { ExitError, firstLineOf } from "./exit-error.js";
import { resolveSource } from "./load-formats.js";
import { type CliIO, shownPath } from "./output.js";

/** A project's config file that names code: its formats, or itself when it is JavaScript. */
export interface ProjectConfig {
  /** Its real path (the key of its allowance). */
  file: string;
  /** Its content, when it is a JavaScript config. */
  code?: string;
  /** Its `formats`, as written (empty for a JavaScript config: only running it would tell). */
  formats: string[];
}

/** The data of a config file that is not code, as the config search reads it (JSON, else YAML). */
function parseData(file: string, text: string): unknown {
  try {
    return file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ExitError(`${file}: ${firstLineOf(error)}`, 2);
  }
}

/**
 * The config file the commands would find in `dir` (the first of the places the search tries there;
 * package.json only with a `debatekit` key), when it names formats or is code. Read, never run.
 */
export async function projectConfigIn(dir: string): Promise<ProjectConfig | undefined> {
  for (const place of [...DATA_CONFIG_PLACES, ...CODE_CONFIG_PLACES]) {
    const path = join(dir, place);
    const text = await readFile(path, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const file = await realpath(path);
    if (CODE_CONFIG_PLACES.includes(place)) return { file, code: text, formats: [] };
    let data = parseData(path, text) as Record<string, unknown> | null;
    if (place === "package.json") {
      if (data?.debatekit === undefined) continue;
      data = data.debatekit as Record<string, unknown> | null;
    }
    const formats = Array.isArray(data?.formats) ? data.formats.filter((f) => typeof f === "string") : [];
    return formats.length > 0 ? { file, formats } : undefined;
  }
  return undefined;
}

/** Each format entry of `config` with the module it resolves to (a module not found ends the command). */
function resolvedFormats(config: ProjectConfig): ResolvedFormat[] {
  return config.formats.map((specifier, index) => {
    try {
      return { specifier, module: resolveSource({ file: config.file, specifier }) };
    } catch (error) {
      throw new ExitError(
        `${config.file}: \`formats[${index}]\` (${specifier}) cannot be found: ${firstLineOf(error)}; nothing was allowed`,
        2,
      );
    }
  });
}

/** Records the user's consent to what `config` would run as it is now, and prints it. */
export async function allowProjectConfig(io: CliIO, config: ProjectConfig): Promise<void> {
  const formats = resolvedFormats(config);
  const shown = config.code
    ? [`runs ${config.file} (a JavaScript config: what it loads, it loads)`]
    : formats.map((f, i) => `formats[${i}]  ${f.specifier} (${f.module})`);
  await allowConfig(io.env, config.file, {
    allowed_at: new Date().toISOString(),
    ...(config.code ? { code: sha256(config.code) } : { formats: await formatsHash(formats) }),
    shown,
  });
  io.stdout.write(
    `allowed in ${config.file}:\n${shown.map((line) => `  ${line}`).join("\n")}\nrecorded in ${shownPath(io.cwd, configAllowancesFile(io.env))}\n`,
  );
}

/** Forgets the user's consent to `config`. */
export async function denyProjectConfig(io: CliIO, config: ProjectConfig): Promise<void> {
  const had = await denyConfig(io.env, config.file);
  io.stdout.write(
    had ? `denied: what ${config.file} names no longer loads\n` : `${config.file} had nothing allowed\n`,
  );
}
