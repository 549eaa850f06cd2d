import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { defaultAgentTemplates } from "@debatekit/core";
import { CODE_CONFIG_PLACES, DATA_CONFIG_PLACES } from "../config.js";
import { ExitError } from "../exit-error.js";
import { GitError, gitBuffer, gitText } from "../git.js";
import type { ReviewScope } from "../review/scope.js";

const MAX_FILE = 8 * 1024 * 1024;
const AGENT_NAMES = new Set(defaultAgentTemplates.map((t) => t.definition.name));

/**
 * The repository as a gate's base revision has it, for what steers a review (policy, config, role
 * prompts, skills): those files copied out of git into a temporary folder, never read from the
 * working tree the change under review checked out.
 */
export interface BaseTree {
  /** The commit the settings are read from: the one the change starts from. */
  revision: string;
  /** The repository's top folder on disk. */
  root: string;
  /** The repository's git folder (`.git`, or a worktree's): where a gate keeps its review folder by default. */
  gitDir: string;
  /** The temporary copy's top folder, standing for `root`. */
  dir: string;
  /** The working folder's place in the copy (where config, `.debatekit/agents/` and `skills/` are looked up). */
  cwd: string;
  /** Repository-relative JS config files the base has where config is looked for: named, never run. */
  codeConfigs: string[];
  /** Repository-relative role prompts of the base that replace built-in ones (the nearest `.debatekit/agents/`). */
  rolePrompts: string[];
  /** Whether `path` (absolute, or relative to the working folder) is inside the repository. */
  contains(path: string): boolean;
  /** The base's copy of `path` (a file or folder inside the repository), or undefined when the base has none. */
  copyOf(path: string): Promise<string | undefined>;
  /** Removes the copy. */
  dispose(): Promise<void>;
}

/** `git args` in `root` through the shared runner (nothing the repository configures runs), trimmed. */
async function git(root: string, args: string[]): Promise<string> {
  try {
    return (await gitText(root, args, { maxBytes: MAX_FILE })).trim();
  } catch (error) {
    const reason = error instanceof GitError ? error.reason : String(error);
    throw new ExitError(`git ${args[0]} failed: ${reason.slice(0, 200)}`, 2, { cause: error });
  }
}

/** The revision a scope's change starts from: its settings are that revision's, never the change's. */
export async function baseRevision(root: string, scope: ReviewScope): Promise<string> {
  const commit = (ref: string) =>
    git(root, ["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`]).catch((error: Error) => {
      throw new ExitError(`--scope: no commit named \`${ref}\` in the repository (${error.message})`, 2, {
        cause: error,
      });
    });
  switch (scope.kind) {
    case "base":
      return git(root, ["merge-base", await commit(scope.branch), "HEAD"]);
    case "range":
      return commit(scope.from);
    case "commit": {
      const sha = await commit(scope.sha);
      // A root commit starts from nothing: the empty tree, so only built-in settings apply.
      return commit(`${sha}^`).catch(() => git(root, ["hash-object", "-t", "tree", "/dev/null"]));
    }
    default:
      return commit("HEAD");
  }
}

const posix = (path: string) => path.split(sep).join("/");
const under = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** The regular files of `revision` at `paths` (files or folders); links and submodules are left out. */
async function listFiles(root: string, revision: string, paths: string[]) {
  const out = await git(root, ["ls-tree", "-r", "-z", revision, "--", ...paths]);
  return out
    .split("\0")
    .filter(Boolean)
    .flatMap((line) => {
      const tab = line.indexOf("\t");
      const [mode, type, object] = line.slice(0, tab).split(" ");
      // A symbolic link could point back into the working tree; a submodule is another repository.
      const regular = type === "blob" && (mode === "100644" || mode === "100755");
      return regular ? [{ object: object!, path: line.slice(tab + 1) }] : [];
    });
}

/** Opens the base revision of `scope` for the repository around `cwd` and copies what steers a review out of it. */
export async function openBaseTree(cwd: string, scope: ReviewScope): Promise<BaseTree> {
  const root = await realpath(await git(cwd, ["rev-parse", "--show-toplevel"]));
  const revision = await baseRevision(root, scope);
  const workdir = await realpath(cwd);
  const here = posix(relative(root, workdir));
  const inRepo = (path: string) => relative(root, resolve(workdir, path));
  const outside = (rel: string) => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  // The working folder and each one above it inside the repository, nearest first (how config,
  // role prompts and skills are looked up).
  const folders: string[] = [];
  for (let f = here; ; f = f.includes("/") ? f.slice(0, f.lastIndexOf("/")) : "") {
    folders.push(f);
    if (f === "") break;
  }
  const dir = await mkdtemp(join(tmpdir(), "debatekit-gate-base-"));
  const copy = async (paths: string[]): Promise<string[]> => {
    const files = paths.length > 0 ? await listFiles(root, revision, paths) : [];
    for (const { object, path } of files) {
      const stdout = await gitBuffer(root, ["cat-file", "blob", object], { maxBytes: MAX_FILE }).catch(
        (error: unknown) => {
          throw new ExitError(
            `${path} (base revision): not read: ${(error as Error).message.split("\n")[0]}`,
            2,
            { cause: error },
          );
        },
      );
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), stdout);
    }
    return files.map((f) => f.path);
  };
  try {
    const copied = await copy(
      folders.flatMap((f) => [
        ...DATA_CONFIG_PLACES.map((place) => under(f, place)),
        under(f, ".debatekit/agents"),
        under(f, "skills"),
      ]),
    );
    const agents = folders
      .map((f) => under(f, ".debatekit/agents"))
      .find((agentsDir) => copied.some((p) => p.startsWith(`${agentsDir}/`)));
    const codeConfigs = (
      await listFiles(
        root,
        revision,
        folders.flatMap((f) => CODE_CONFIG_PLACES.map((place) => under(f, place))),
      )
    ).map((f) => f.path);
    await mkdir(join(dir, here), { recursive: true });
    return {
      revision,
      root,
      gitDir: await git(root, ["rev-parse", "--absolute-git-dir"]),
      dir,
      cwd: join(dir, here),
      codeConfigs,
      rolePrompts: copied.filter(
        (p) => dirname(p) === agents && p.endsWith(".md") && AGENT_NAMES.has(p.slice(agents.length + 1, -3)),
      ),
      contains: (path) => !outside(inRepo(path)),
      async copyOf(path) {
        const rel = inRepo(path);
        if (outside(rel)) return undefined;
        return (await copy([posix(rel) || "."])).length > 0 ? join(dir, rel) : undefined;
      },
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
