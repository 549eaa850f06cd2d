import { stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ExitError } from "../exit-error.js";
import type { ActionContext } from "./context.js";

/**
 * The debate folder a path names: the folder itself, or the folder of a `debate.md` given by
 * mistake. Anything else is a one-line cause (exit 2), never a raw system error.
 */
export async function debateFolderOf(ctx: Pick<ActionContext, "cwd">, arg: string): Promise<string> {
  const path = resolve(ctx.cwd, arg);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    const holds = await stat(join(path, "debate.md")).catch(() => undefined);
    if (!holds?.isFile()) throw new ExitError(`${arg}: not a debate folder (it holds no debate.md)`, 2);
    return path;
  }
  if (info?.isFile() && basename(path) === "debate.md") return dirname(path);
  throw new ExitError(
    info
      ? `${arg}: not a folder (give the debate's folder, the one holding debate.md)`
      : `${arg}: no such folder`,
    2,
  );
}
