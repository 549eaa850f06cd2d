import type { BigIntStats } from "node:fs";
import { lstatSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ArgumentRecord, Result } from "@debatekit/core";
import { writeFileAtomic } from "./atomic.js";
import type { FrontmatterStyle } from "./frontmatter.js";
import { ARGUMENT_ID, resolveInside } from "./paths.js";

/**
 * `.debate/argument-index.json`: the parsed form of committed argument files, each with the identity
 * of the file it was parsed from (device, inode, size, modification and change times, to the
 * nanosecond). A reader uses an entry only when the file's lstat still shows exactly that identity
 * (a regular file, not a link), so an edited, replaced or touched file is parsed again; and what it
 * takes from an entry is checked like a parsed file (schema, id/side/exchange). The index is derived
 * and optional: missing, stale or unreadable, it costs a full parse, never a wrong state. Only
 * `debate run` writes it, at the end of a run that committed a step, from files it stat'ed before
 * reading them.
 */
export const ARGUMENT_INDEX_FILE = ".debate/argument-index.json";

/** One indexed argument file. */
export interface IndexedArgument {
  /** `dev:ino:size:mtimeNs:ctimeNs` of the file when it was read. */
  stat: string;
  style: FrontmatterStyle;
  frontmatter: unknown;
  body: string;
}

export interface ArgumentIndex {
  version: 1;
  arguments: Record<string, IndexedArgument>;
}

/** The identity of a file as the index records it. */
export function statKey(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The identity of `arguments/<id>.md` now, when it is a regular file (not a link, FIFO...); else undefined. */
export function argumentStatKey(argumentsDir: string, id: string): string | undefined {
  try {
    const stats = lstatSync(path.join(argumentsDir, `${id}.md`), { bigint: true });
    return stats.isFile() ? statKey(stats) : undefined;
  } catch {
    return undefined;
  }
}

/** The index on disk, or an empty one when it is missing or not in the expected shape. */
export async function readArgumentIndex(dir: string): Promise<ArgumentIndex> {
  const empty: ArgumentIndex = { version: 1, arguments: {} };
  try {
    const data = JSON.parse(await readFile(resolveInside(dir, ARGUMENT_INDEX_FILE), "utf8")) as ArgumentIndex;
    if (data?.version !== 1 || typeof data.arguments !== "object" || data.arguments === null) return empty;
    const kept: Record<string, IndexedArgument> = {};
    for (const [id, entry] of Object.entries(data.arguments)) {
      if (
        ARGUMENT_ID.test(id) &&
        typeof entry?.stat === "string" &&
        (entry.style === "yaml" || entry.style === "json") &&
        typeof entry.body === "string" &&
        typeof entry.frontmatter === "object" &&
        entry.frontmatter !== null
      )
        kept[id] = entry;
    }
    return { version: 1, arguments: kept };
  } catch {
    return empty;
  }
}

/**
 * The index entry of a record parsed from a file whose identity (taken before the read) was `stat`;
 * undefined when its frontmatter would not come back the same from JSON (it is then always parsed).
 */
export function indexEntry(
  stat: string,
  record: ArgumentRecord,
  style: FrontmatterStyle,
): IndexedArgument | undefined {
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(record.frontmatter)), record.frontmatter))
    return undefined;
  return { stat, style, frontmatter: record.frontmatter, body: record.body };
}

/**
 * The index of the committed arguments `ids` as they are on disk now: entries of `known` whose file
 * is unchanged are kept, the other files are read and parsed (identity taken before the read).
 */
export async function refreshArgumentIndex(
  dir: string,
  ids: readonly string[],
  known: ArgumentIndex,
  read: (id: string) => Promise<Result<{ record: ArgumentRecord; style: FrontmatterStyle }>>,
): Promise<ArgumentIndex> {
  const argumentsDir = resolveInside(dir, "arguments");
  const index: ArgumentIndex = { version: 1, arguments: {} };
  for (const id of ids) {
    const stat = argumentStatKey(argumentsDir, id);
    if (stat === undefined) continue;
    const entry = known.arguments[id];
    if (entry?.stat === stat) {
      index.arguments[id] = entry;
      continue;
    }
    const parsed = await read(id);
    const fresh = parsed.ok && indexEntry(stat, parsed.value.record, parsed.value.style);
    if (fresh) index.arguments[id] = fresh;
  }
  return index;
}

/** Writes the index atomically when its content changed; returns whether it wrote. */
export async function writeArgumentIndex(dir: string, index: ArgumentIndex): Promise<boolean> {
  const sorted: ArgumentIndex = {
    version: 1,
    arguments: Object.fromEntries(Object.entries(index.arguments).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const text = `${JSON.stringify(sorted)}\n`;
  const target = resolveInside(dir, ARGUMENT_INDEX_FILE);
  const current = await readFile(target, "utf8").catch(() => undefined);
  if (current === text) return false;
  await writeFileAtomic(target, text);
  return true;
}
