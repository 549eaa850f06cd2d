import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
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
 * Those of `places` that the folder `dir` holds, in order: one listing instead of a failed open per
 * place, for every folder up from the working one. All of them when the folder exists but cannot be
 * listed (each is then tried, as a read would).
 */
async function placesIn(dir: string, places: readonly string[]): Promise<readonly string[]> {
  try {
    const names = new Set(await readdir(dir));
    return places.filter((place) => names.has(place));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? [] : places;
  }
}

/**
 * False when no config file in reach can name formats: the user's file and the project's (the first
 * found from the working folder up, as the config search finds it) do not contain the word. Every
 * command starts with this check, so it only reads files; the checked load follows when it is true.
 */
async function mayNameFormats(io: ConfigIO): Promise<boolean> {
  const configHome = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), ".config");
  const userDir = join(configHome, "debatekit");
  for (const place of await placesIn(userDir, USER_CONFIG_PLACES)) {
    const text = await textOf(join(userDir, place));
    if (text === undefined) continue;
    if (text.includes("formats")) return true;
    break;
  }
  for (let dir = resolve(io.cwd); ; dir = dirname(dir)) {
    for (const place of await placesIn(dir, [...DATA_CONFIG_PLACES, ...CODE_CONFIG_PLACES])) {
      const text = await textOf(join(dir, place));
      // package.json counts only with a `debatekit` key, as in the config search.
      if (text === undefined || (place === "package.json" && !text.includes('"debatekit"'))) continue;
      return text.includes("formats");
    }
    if (dirname(dir) === dir) return false;
  }
}

/** The entry an `exports` target gives an `import()`: a path, or the `import`/`node`/`default` condition's. */
function importTarget(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return importTarget(target[0]);
  if (target === null || typeof target !== "object") return undefined;
  const conditions = target as Record<string, unknown>;
  return importTarget(conditions.import ?? conditions.node ?? conditions.default);
}

/** The `import()` entry that the package.json in `folder` gives in `exports` (its `.`), if any. */
function exportsEntry(folder: string): string | undefined {
  const manifest = join(folder, "package.json");
  if (!existsSync(manifest)) return undefined;
  const exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown }).exports;
  const root = exports !== null && typeof exports === "object" && "." in exports ? exports["."] : exports;
  const entry = importTarget(root);
  return entry ? join(folder, entry) : undefined;
}

/** The folder of the package `name`, where require would look for it from `file`. */
function packageFolder(file: string, name: string): string | undefined {
  return (createRequire(file).resolve.paths(name) ?? [])
    .map((folder) => join(folder, name))
    .find((folder) => existsSync(join(folder, "package.json")));
}

/** Where a `formats` entry's module is: a path relative to its config file's folder, or a package found from there. */
export function resolveSource(source: Pick<FormatSource, "file" | "specifier">): string {
  const { file, specifier } = source;
  const local = specifier.startsWith(".") || isAbsolute(specifier);
  const target = local ? resolve(dirname(file), specifier) : specifier;
  try {
    return createRequire(file).resolve(target);
  } catch (error) {
    // require.resolve reads `main`, and `exports` only through a require or default condition: a
    // package or folder made for import() alone is found through its `exports` here.
    const folder = local ? target : packageFolder(file, specifier);
    const entry = folder ? exportsEntry(folder) : undefined;
    if (entry) return entry;
    throw error;
  }
}

/**
 * The formats of `sources` that may load: the user's own, and a project's when the user allowed
 * them as they are now (the modules' real paths and content, `debate allow`). A project's that are
 * not are left out, with one line on stderr naming the file and the command that allows them.
 */
async function allowedSources(io: StartIO, sources: FormatSource[]): Promise<FormatSource[]> {
  const project = sources.filter((s) => s.project);
  if (project.length === 0) return sources;
  const file = project[0]!.file;
  const { allowanceOf, formatsHash } = await import("./config-consent.js");
  const allowed = await allowanceOf(io.env, file);
  // A code config the user allowed is trusted code: what it names loads, as its own imports would.
  if (allowed?.code) return sources;
  let hash: string | undefined;
  try {
    hash = await formatsHash(project.map((s) => ({ specifier: s.specifier, module: resolveSource(s) })));
  } catch {
    hash = undefined;
  }
  if (allowed?.formats !== undefined && allowed.formats === hash) return sources;
  io.stderr.write(`debate: ${notAllowedNote(io, file, project)}\n`);
  return sources.filter((s) => !s.project);
}

/** The line saying a project's formats were not loaded, and how to allow them. */
export function notAllowedNote(io: ConfigIO, file: string, project: readonly FormatSource[]): string {
  const shown = relative(io.cwd, file) || file;
  const folder = relative(io.cwd, dirname(file)) || ".";
  return `${shown} names formats that are not allowed yet (${project.map((s) => s.specifier).join(", ")}): none of them was loaded. Check them, then allow them with \`debate allow ${folder}\``;
}

/** What start-up reads of a command's surroundings, and where it says what it left out. */
type StartIO = Pick<CliIO, "cwd" | "env" | "stderr">;

/**
 * Registers the formats the config files name (`formats`: the user's, then the project's once
 * allowed), before any command reads the registry. A module's default export (or its `format`
 * export) must be a format made with `defineFormat`; a module that cannot be found, loaded or
 * checked, or whose name is taken, ends the command naming the config file and the entry (exit 2).
 * A config file that does not load at all is left to the command that reads it, which reports it as
 * it always has; a code config not allowed yet is said on stderr. Returns the names registered.
 */
export async function registerConfigFormats(io: StartIO): Promise<string[]> {
  if (!(await mayNameFormats(io))) return [];
  const { loadConfig } = await import("./config.js");
  let sources: FormatSource[];
  try {
    sources = await allowedSources(io, (await loadConfig(io)).formatSources);
  } catch (error) {
    if ((error as Error).name === "ConfigNotAllowedError")
      io.stderr.write(`debate: ${(error as Error).message}\n`);
    return [];
  }
  const { findFormat, registerFormat } = await import("@debatekit/core");
  const names: string[] = [];
  for (const source of sources) {
    const where = `${relative(io.cwd, source.file) || source.file}: \`formats[${source.index}]\` (${source.specifier})`;
    let module: { default?: unknown; format?: unknown };
    try {
      module = await import(pathToFileURL(resolveSource(source)).href);
    } catch (error) {
      throw new ExitError(`${where} cannot be loaded: ${firstLineOf(error)}`, 2);
    }
    const value = module.default ?? module.format;
    // The same module seen again (a second config naming it, or the MCP server running commands in
    // this process): import() gave the very object registered, so there is nothing to add.
    const name = (value as { name?: unknown } | null)?.name;
    if (typeof name === "string" && findFormat(name) === value) {
      names.push(name);
      continue;
    }
    const registered = registerFormat(value);
    if (!registered.ok)
      throw new ExitError(
        `${where}: ${registered.errors.map((e) => `${e.code}${e.path ? ` \`${e.path}\`` : ""} ${e.message}`).join("; ")}`,
        2,
      );
    names.push(registered.value.name);
  }
  return names;
}
