import { lstat, readdir, realpath } from "node:fs/promises";
import { basename, join } from "node:path";

/** A debate folder the server shows, by the id its URLs use (never a path a request gives). */
export interface ServedDebate {
  id: string;
  dir: string;
}

async function holds(dir: string, marker: string): Promise<boolean> {
  // lstat: a marker that is a symlink (to a file outside) does not make a debate or a tournament here.
  return lstat(join(dir, marker)).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The debate folders under `roots`: see `findServed`. */
export const findServedDebates = (roots: readonly string[]) => findServed(roots, "debate.md");

/** The tournament folders (holding tournament.md) under `roots`: see `findServed`. */
export const findServedTournaments = (roots: readonly string[]) => findServed(roots, "tournament.md");

/**
 * The folders under `roots` that hold `marker` (each root itself when it does, else its sub-folders
 * that do), sorted, with ids that are their names (made unique). Symlinked folders are not entered:
 * nothing outside the served folders is ever read.
 */
async function findServed(roots: readonly string[], marker: string): Promise<ServedDebate[]> {
  const dirs: string[] = [];
  for (const root of roots) {
    const real = await realpath(root);
    if (await holds(real, marker)) {
      dirs.push(real);
      continue;
    }
    const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
    for (const e of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name)))
      if (await holds(join(real, e.name), marker)) dirs.push(join(real, e.name));
  }
  const taken = new Set<string>();
  return dirs.map((dir) => {
    const name = basename(dir).replace(/[^\w.-]/g, "_") || "debate";
    let id = name;
    for (let n = 2; taken.has(id); n++) id = `${name}-${n}`;
    taken.add(id);
    return { id, dir };
  });
}
