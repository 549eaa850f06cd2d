import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { type DebatekitConfig, formatValidationErrors, validateDebatekitConfig } from "@debatekit/schema";
import { defaultLoaders, type Loader, lilconfig } from "lilconfig";
import { parse as parseYaml } from "yaml";
import { ExitError, firstLineOf } from "./exit-error.js";
import type { CliIO } from "./output.js";

/** The defaults in effect, and the files they came from (user's first, then the project's). */
export interface LoadedConfig {
  config: DebatekitConfig;
  files: string[];
}

const yamlLoader: Loader = (_file, content) => parseYaml(content);

/** The project's config files that are data, in the order they are looked for in each folder. */
export const DATA_CONFIG_PLACES = [
  "package.json",
  ".debatekitrc",
  ".debatekitrc.json",
  ".debatekitrc.yaml",
  ".debatekitrc.yml",
  "debatekit.config.json",
  "debatekit.config.yaml",
  "debatekit.config.yml",
];
/** The project's config files that are code: loading one runs it, so a gate never does. */
export const CODE_CONFIG_PLACES = ["debatekit.config.js", "debatekit.config.mjs", "debatekit.config.cjs"];
/** Where a project's config is looked for, in each folder from the working one up (lilconfig's search). */
const PROJECT_PLACES = [...DATA_CONFIG_PLACES, ...CODE_CONFIG_PLACES];
const USER_PLACES = ["config.json", "config.yaml", "config.yml"];
const loaders = {
  ...defaultLoaders,
  ".yaml": yamlLoader,
  ".yml": yamlLoader,
  noExt: yamlLoader,
};

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

function checked(file: string, data: unknown, io: ConfigIO): DebatekitConfig {
  const shown = relative(io.cwd, file) || file;
  const result = validateDebatekitConfig(data ?? {});
  if (!result.ok) throw new ExitError(`${shown}: ${formatValidationErrors(result.errors)}`, 2);
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
  let config: DebatekitConfig = {};
  const configHome = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), ".config");
  const load = async (file: string) => {
    try {
      return await lilconfig("debatekit", { loaders }).load(file);
    } catch (error) {
      throw new ExitError(`${relative(io.cwd, file) || file}: ${firstLineOf(error)}`, 2);
    }
  };
  for (const place of USER_PLACES) {
    const file = join(configHome, "debatekit", place);
    if (!(await isFile(file))) continue;
    const found = await load(file);
    config = { ...config, ...checked(file, found?.config, io) };
    files.push(file);
    break;
  }
  let project: Awaited<ReturnType<ReturnType<typeof lilconfig>["search"]>>;
  try {
    project = await lilconfig("debatekit", {
      searchPlaces: tree ? DATA_CONFIG_PLACES : PROJECT_PLACES,
      loaders,
      ...(tree ? { stopDir: tree.dir } : {}),
    }).search(tree?.cwd ?? io.cwd);
  } catch (error) {
    throw new ExitError(`debatekit config: ${firstLineOf(error)}`, 2);
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
    files.push(file);
  }
  return { config, files };
}

/**
 * The config file's `skills.folders` (absolute), for every command that runs debates (run, watch,
 * gate, mcp): they go after the built-in, project and user skill folders, before the debate's own.
 */
export async function configSkillFolders(io: ConfigIO): Promise<string[]> {
  return (await loadConfig(io)).config.skills?.folders ?? [];
}
