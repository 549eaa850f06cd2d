import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { FormatSource } from "./config.js";
import { CODE_CONFIG_PLACES, DATA_CONFIG_PLACES, USER_CONFIG_PLACES } from "./config-places.js";
import { ExitError, firstLineOf } from "./exit-error.js";
import type { CliIO } from "./output.js";

type ConfigIO = Pick<CliIO, "cwd" | "env">;

async function textOf(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch(() => undefined);
}

/**
 * False when no config file in reach can name formats: the user's file and the project's (the first
 * found from the working folder up, as the config search finds it) do not contain the word. Every
 * command starts with this check, so it only reads files; the checked load follows when it is true.
 */
async function mayNameFormats(io: ConfigIO): Promise<boolean> {
  const configHome = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), ".config");
  for (const place of USER_CONFIG_PLACES) {
    const text = await textOf(join(configHome, "debatekit", place));
    if (text === undefined) continue;
    if (text.includes("formats")) return true;
    break;
  }
  for (let dir = resolve(io.cwd); ; dir = dirname(dir)) {
    for (const place of [...DATA_CONFIG_PLACES, ...CODE_CONFIG_PLACES]) {
      const text = await textOf(join(dir, place));
      // package.json counts only with a `debatekit` key, as in the config search.
      if (text === undefined || (place === "package.json" && !text.includes('"debatekit"'))) continue;
      return text.includes("formats");
    }
    if (dirname(dir) === dir) return false;
  }
}

/** Where a `formats` entry's module is: a path relative to its config file's folder, or a package found from there. */
function resolveSource(source: FormatSource): string {
  const { file, specifier } = source;
  const path =
    specifier.startsWith(".") || isAbsolute(specifier) ? resolve(dirname(file), specifier) : specifier;
  return createRequire(file).resolve(path);
}

/**
 * Registers the formats the config files name (`formats`: the user's, then the project's), before
 * any command reads the registry. A module's default export (or its `format` export) must be a
 * format made with `defineFormat`; a module that cannot be found, loaded or checked, or whose name
 * is taken, ends the command naming the config file and the entry (exit 2). A config file that does
 * not load at all is left to the command that reads it, which reports it as it always has.
 * Returns the names registered.
 */
export async function registerConfigFormats(io: ConfigIO): Promise<string[]> {
  if (!(await mayNameFormats(io))) return [];
  const { loadConfig } = await import("./config.js");
  let sources: FormatSource[];
  try {
    sources = (await loadConfig(io)).formatSources;
  } catch {
    return [];
  }
  const { registerFormat } = await import("@debatekit/core");
  const names: string[] = [];
  for (const source of sources) {
    const where = `${relative(io.cwd, source.file) || source.file}: \`formats[${source.index}]\` (${source.specifier})`;
    let module: { default?: unknown; format?: unknown };
    try {
      module = await import(pathToFileURL(resolveSource(source)).href);
    } catch (error) {
      throw new ExitError(`${where} cannot be loaded: ${firstLineOf(error)}`, 2);
    }
    const registered = registerFormat(module.default ?? module.format);
    if (!registered.ok)
      throw new ExitError(
        `${where}: ${registered.errors.map((e) => `${e.code}${e.path ? ` \`${e.path}\`` : ""} ${e.message}`).join("; ")}`,
        2,
      );
    names.push(registered.value.name);
  }
  return names;
}
