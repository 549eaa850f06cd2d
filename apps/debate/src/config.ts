import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { formats } from "@debatekit/core";
import { builtinAdapters, isAdapterInstalled } from "@debatekit/runner/adapters";
import { type DebatekitConfig, type ValidationError, validateDebatekitConfig } from "@debatekit/schema";
import { defaultLoaders, type Loader, lilconfig } from "lilconfig";
import { parse as parseYaml } from "yaml";
import { assertCodeConfigAllowed, ConfigNotAllowedError } from "./config-consent.js";
import { CODE_CONFIG_PLACES, DATA_CONFIG_PLACES, USER_CONFIG_PLACES } from "./config-places.js";
import { didYouMean } from "./did-you-mean.js";
import { ExitError, firstLineOf } from "./exit-error.js";
import type { CliIO } from "./output.js";

/** The defaults in effect, and the files they came from (user's first, then the project's). */
export interface LoadedConfig {
  config: DebatekitConfig;
  files: string[];
  /** The modules `formats` names, each with the file and index that named it (the user's, then the project's). */
  formatSources: FormatSource[];
}

/** One entry of a config file's `formats`. */
export interface FormatSource {
  /** The config file that names it. */
  file: string;
  /** Its place in that file's `formats`. */
  index: number;
  /** The module as written: a package name, or a path relative to the file's folder. */
  specifier: string;
  /** True for a project's file (its formats load only once allowed), false for the user's own. */
  project: boolean;
}

const yamlLoader: Loader = (_file, content) => parseYaml(content);

/** A config file that does not parse: carries the file, which lilconfig's search does not name. */
class ConfigParseError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(firstLineOf(cause), { cause });
  }
}

/** `loader`, whose failure names the file it was reading. */
function namingFile(loader: Loader): Loader {
  return async (file, content) => {
    try {
      return await loader(file, content);
    } catch (error) {
      throw new ConfigParseError(file, error);
    }
  };
}

export { CODE_CONFIG_PLACES, DATA_CONFIG_PLACES, USER_CONFIG_PLACES };

/** Where a project's config is looked for, in each folder from the working one up (lilconfig's search). */
const PROJECT_PLACES = [...DATA_CONFIG_PLACES, ...CODE_CONFIG_PLACES];
const loaders = Object.fromEntries(
  Object.entries({ ...defaultLoaders, ".yaml": yamlLoader, ".yml": yamlLoader, noExt: yamlLoader }).map(
    ([ext, loader]) => [ext, namingFile(loader)],
  ),
);

/**
 * The loaders of a project's search: a code config (.js, .mjs, .cjs) is imported only when the user
 * allowed it as it is now (`debate allow`); otherwise the search ends with ConfigNotAllowedError.
 */
function projectLoaders(io: ConfigIO): Record<string, Loader> {
  const guarded: Record<string, Loader> = {};
  for (const ext of [".js", ".mjs", ".cjs"]) {
    const load = loaders[ext]!;
    guarded[ext] = async (file, content) => {
      await assertCodeConfigAllowed(io.env, io.cwd, file, content);
      return load(file, content);
    };
  }
  return { ...loaders, ...guarded };
}

/** config.schema.json, for the fields a misspelt key may have meant. */
const configSchema = createRequire(import.meta.url)(
  "@debatekit/schema/schemas/config.schema.json",
) as SchemaNode;
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
}

/** What loading the config reads of a command's surroundings. */
type ConfigIO = Pick<CliIO, "cwd" | "env">;

/**
 * A copy of the repository's files at another revision (a gate's base), searched instead of the
 * working folder: its data files only, from `cwd` up to `dir`, which stands for `root`.
 */
export interface ConfigTree {
  dir: string;
  cwd: string;
  root: string;
}

/** The fields the schema knows beside the one at `path` (dotted), for a did-you-mean. */
function siblingFields(path: string): string[] {
  let node: SchemaNode | undefined = configSchema;
  for (const part of path.split(".").slice(0, -1)) node = node?.properties?.[part];
  return Object.keys(node?.properties ?? {});
}

/**
 * The problems of `seats` the schema cannot see: a key that is no format's seat (seats are what the
 * formats' `debate new` offers), a value whose adapter does not exist.
 */
function seatErrors(seats: unknown): ValidationError[] {
  if (seats === null || typeof seats !== "object" || Array.isArray(seats)) return [];
  const roles = [...new Set(Object.values(formats).flatMap((f) => f.newOptions.seats.map((s) => s.role)))];
  const errors: ValidationError[] = [];
  for (const [role, spec] of Object.entries(seats)) {
    if (!roles.includes(role))
      errors.push({
        path: `seats.${role}`,
        message: `is not a seat of any format${didYouMean(role, roles)} (the seats: ${roles.join(", ")})`,
        keyword: "seat",
      });
    const adapter = typeof spec === "string" ? spec.split(":")[0]! : "";
    if (adapter && /^[a-z][a-z0-9-]*$/.test(adapter) && !isAdapterInstalled(adapter))
      errors.push({
        path: `seats.${role}`,
        message: `names no adapter \`${adapter}\`${didYouMean(adapter, builtinAdapters)} (the adapters: ${builtinAdapters.join(", ")})`,
        keyword: "adapter",
      });
  }
  return errors;
}

/** A schema error, with the field a misspelt key likely meant. */
function withSuggestion(error: ValidationError): ValidationError {
  if (error.keyword !== "additionalProperties") return error;
  const key = error.path.split(".").at(-1)!;
  return { ...error, message: `${error.message}${didYouMean(key, siblingFields(error.path))}` };
}

/** A config file's data, checked: every problem (the schema's, then the seats') ends the command, each with the file and field. */
function checked(file: string, data: unknown, io: ConfigIO): DebatekitConfig {
  const shown = relative(io.cwd, file) || file;
  const result = validateDebatekitConfig(data ?? {});
  const errors = [
    ...(result.ok ? [] : result.errors.map(withSuggestion)),
    ...seatErrors((data as { seats?: unknown } | null)?.seats),
  ];
  if (!result.ok || errors.length > 0)
    // One line: the CLI shows an error's first line only.
    throw new ExitError(
      `${shown}: ${errors.map((e) => `\`${e.path || "(root)"}\` ${e.message}`).join("; ")}`,
      2,
    );
  // Skill folders are relative to the file that names them.
  const folders = result.value.skills?.folders?.map((f) => resolve(dirname(file), f));
  return { ...result.value, ...(folders ? { skills: { folders } } : {}) };
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * The `debate` defaults: the user's `$XDG_CONFIG_HOME/debatekit/config.*`, then the project's file
 * found from the working folder up (lilconfig), or in `tree` when given, the project's winning key by
 * key. A file that does not parse or breaks the schema ends the command with its name and field
 * (exit 2). `files` names a file of `tree` by its place in the repository.
 */
export async function loadConfig(io: ConfigIO, tree?: ConfigTree): Promise<LoadedConfig> {
  const files: string[] = [];
  const formatSources: FormatSource[] = [];
  const sourcesOf = (file: string, own: DebatekitConfig, project: boolean) =>
    formatSources.push(
      ...(own.formats ?? []).map((specifier, index) => ({ file, index, specifier, project })),
    );
  let config: DebatekitConfig = {};
  const configHome = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), ".config");
  const load = async (file: string) => {
    try {
      return await lilconfig("debatekit", { loaders }).load(file);
    } catch (error) {
      throw new ExitError(`${relative(io.cwd, file) || file}: ${firstLineOf(error)}`, 2);
    }
  };
  for (const place of USER_CONFIG_PLACES) {
    const file = join(configHome, "debatekit", place);
    if (!(await isFile(file))) continue;
    const found = await load(file);
    const own = checked(file, found?.config, io);
    config = { ...config, ...own };
    sourcesOf(file, own, false);
    files.push(file);
    break;
  }
  let project: Awaited<ReturnType<ReturnType<typeof lilconfig>["search"]>>;
  try {
    project = await lilconfig("debatekit", {
      searchPlaces: tree ? DATA_CONFIG_PLACES : PROJECT_PLACES,
      loaders: projectLoaders(io),
      ...(tree ? { stopDir: tree.dir } : {}),
    }).search(tree?.cwd ?? io.cwd);
  } catch (error) {
    if (error instanceof ConfigNotAllowedError) throw error;
    const file =
      error instanceof ConfigParseError ? relative(io.cwd, error.file) || error.file : "debatekit config";
    throw new ExitError(`${file}: ${firstLineOf(error)}`, 2);
  }
  if (project && !project.isEmpty) {
    // A file of the copy is named, and its skill folders resolved, where it stands in the repository.
    const file = tree ? join(tree.root, relative(tree.dir, project.filepath)) : project.filepath;
    const own = checked(file, project.config, io);
    // Consent is the user's alone: a project's file may come with the very debate it would allow.
    for (const key of ["allow_commands", "allow_endpoints"] as const)
      if (own[key] !== undefined)
        throw new ExitError(
          `${relative(io.cwd, file) || file}: \`${key}\` is read only from your own config ($XDG_CONFIG_HOME/debatekit/config.{json,yaml,yml}): a project's config may come with the debate folders it would allow`,
          2,
        );
    config = { ...config, ...own, seats: { ...config.seats, ...own.seats } };
    // Both files' formats are registered: the user's own, and the project's once allowed.
    sourcesOf(file, own, true);
    if (formatSources.length > 0) config.formats = formatSources.map((f) => f.specifier);
    files.push(file);
  }
  return { config, files, formatSources };
}

/**
 * The config file's `skills.folders` (absolute), for every command that runs debates (run, watch,
 * gate, mcp): they go after the built-in, project and user skill folders, before the debate's own.
 */
export async function configSkillFolders(io: ConfigIO): Promise<string[]> {
  return (await loadConfig(io)).config.skills?.folders ?? [];
}
