import { lstat, readdir, realpath } from "node:fs/promises";
import { basename, join } from "node:path";

/** A debate folder the server shows, by the id its URLs use (never a path a request gives). */
export interface ServedDebate {
  id: string;
  dir: string;
}

async function isDebateFolder(dir: string): Promise<boolean> {
  // lstat: a debate.md that is a symlink (to a file outside) does not make a debate here.
  return lstat(join(dir, "debate.md")).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * The debate folders under `roots` (each root itself when it holds debate.md, else its sub-folders
 * that do), sorted, with ids that are their names (made unique). Symlinked folders are not entered:
 * nothing outside the served folders is ever read.
 */
export async function findServedDebates(roots: readonly string[]): Promise<ServedDebate[]> {
  const dirs: string[] = [];
  for (const root of roots) {
    const real = await realpath(root);
    if (await isDebateFolder(real)) {
      dirs.push(real);
      continue;
    }
    const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
    for (const e of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name)))
      if (await isDebateFolder(join(real, e.name))) dirs.push(join(real, e.name));
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
