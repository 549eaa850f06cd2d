import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The skills shipped inside this package (`builtin/`): present wherever `debate` is installed. */
export const builtinSkillsRoot: string = fileURLToPath(new URL("../builtin", import.meta.url));

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The nearest `skills/` folder at or above `cwd` (other than `skip`), or null. */
async function findProjectSkills(cwd: string, skip: string | null): Promise<string | null> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, "skills");
    if (candidate !== skip && (await isDirectory(candidate))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The skills roots that exist, from the most general to the most specific (later wins on a name
 * clash): the built-in skills shipped in this package (always, whatever the working directory), the project's `skills/` (nearest at or above cwd), the user's
 * `$XDG_CONFIG_HOME/debatekit/skills` (default `~/.config/debatekit/skills`), and the debate's own
 * `skills/` when a debate folder is given.
 */
export async function defaultSkillRoots(options: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  debateDir?: string;
}): Promise<string[]> {
  const env = options.env ?? {};
  const candidates: string[] = [builtinSkillsRoot];
  const debateSkills = options.debateDir ? join(resolve(options.debateDir), "skills") : null;
  // Run from inside a debate folder, its own skills/ is the debate's, not the project's.
  const project = await findProjectSkills(options.cwd, debateSkills);
  if (project) candidates.push(project);
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  candidates.push(join(config, "debatekit", "skills"));
  if (debateSkills) candidates.push(debateSkills);
  const roots: string[] = [];
  for (const candidate of candidates) {
    if (!roots.includes(candidate) && (await isDirectory(candidate))) roots.push(candidate);
  }
  return roots;
}
