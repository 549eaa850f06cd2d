import { realpathSync } from "node:fs";
import path from "node:path";
import { DebatekitError, quote } from "@debatekit/core";

/** Argument ids as the schema allows them: `prop_000a`, `opp_012`. */
export const ARGUMENT_ID = /^(prop|opp)_[0-9]{3}[a-c]?$/;
/** Debate slugs: the schema's `debate_id` form. */
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

function escapeError(dir: string, relativePath: string, why: string): DebatekitError {
  return new DebatekitError(
    "PATH_ESCAPE",
    `${quote(relativePath)} cannot be used as a path inside the debate folder ${quote(dir)}: ${why}`,
    { file: relativePath },
  );
}

/** The real path of `target`, or of its deepest existing ancestor joined with the rest. */
function realpathOfExisting(target: string): string {
  const rest: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(realpathSync.native(current), ...rest.reverse());
    } catch (error) {
      // A missing part, or a file where a folder should be: what exists is checked, the rest is a name.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Resolves a relative path inside `dir`; throws PATH_ESCAPE for `..`, absolute paths, NUL bytes or symlinks out. */
export function resolveInside(dir: string, relativePath: string): string {
  if (relativePath === "") throw escapeError(dir, relativePath, "the path is empty");
  if (relativePath.includes("\0")) throw escapeError(dir, relativePath, "it contains a NUL byte");
  if (relativePath.includes("\\")) throw escapeError(dir, relativePath, "it contains a backslash");
  if (path.isAbsolute(relativePath)) throw escapeError(dir, relativePath, "it is absolute");
  if (relativePath.split("/").includes(".."))
    throw escapeError(dir, relativePath, "it contains a `..` segment");
  const root = path.resolve(dir);
  const target = path.resolve(root, relativePath);
  if (!isInside(root, target)) throw escapeError(dir, relativePath, "it leads outside the folder");
  let real: { root: string; target: string };
  try {
    real = { root: realpathOfExisting(root), target: realpathOfExisting(target) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP")
      throw escapeError(dir, relativePath, "a symbolic link on the way loops (points back to itself)");
    throw error;
  }
  if (!isInside(real.root, real.target)) {
    throw escapeError(dir, relativePath, "a symbolic link on the way leads outside the folder");
  }
  return target;
}
