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

/**
 * The main entry of a package whose `exports` only `import()` may use (no `require`/`default`
 * condition): require.resolve refuses those, so its package.json is read where require would look.
 */
function importEntry(file: string, name: string): string | undefined {
  for (const folder of createRequire(file).resolve.paths(name) ?? []) {
    const manifest = join(folder, name, "package.json");
    if (!existsSync(manifest)) continue;
    const exports = (JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown }).exports;
    const root = exports !== null && typeof exports === "object" && "." in exports ? exports["."] : exports;
    const entry = importTarget(root);
    return entry ? join(folder, name, entry) : undefined;
  }
  return undefined;
}

/** Where a `formats` entry's module is: a path relative to its config file's folder, or a package found from there. */
function resolveSource(source: FormatSource): string {
  const { file, specifier } = source;
  if (specifier.startsWith(".") || isAbsolute(specifier))
    return createRequire(file).resolve(resolve(dirname(file), specifier));
  try {
    return createRequire(file).resolve(specifier);
  } catch (error) {
    const entry =
      (error as { code?: string }).code === "ERR_PACKAGE_PATH_NOT_EXPORTED"
        ? importEntry(file, specifier)
        : undefined;
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
