import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type AnyFormat, findFormat, registerFormat } from "@debatekit/core";
import { type FormatSource, loadConfig } from "./config.js";
import { ExitError, firstLineOf } from "./exit-error.js";
import type { CliIO } from "./output.js";

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
function resolveSource(source: FormatSource): string {
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
 * Registers the formats the config files name (`formats`: the user's, then the project's), before
 * any command reads the registry. A module's default export (or its `format` export) must be a
 * format made with `defineFormat`; a module that cannot be found, loaded or checked, or whose name
 * is taken, ends the command naming the config file and the entry (exit 2). A config file that does
 * not load at all is left to the command that reads it, which reports it as it always has.
 * Returns the names registered.
 */
export async function registerConfigFormats(io: Pick<CliIO, "cwd" | "env">): Promise<string[]> {
  let sources: FormatSource[];
  try {
    sources = (await loadConfig(io)).formatSources;
  } catch {
    return [];
  }
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
    names.push((registered.value as AnyFormat).name);
  }
  return names;
}
