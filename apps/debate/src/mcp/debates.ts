import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { DebatekitError } from "@debatekit/core";
import { resolveInside } from "@debatekit/files";

/** A debate's name as tools and resource URIs take it: one folder name under the server's root. */
const DEBATE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The largest file a resource read returns (report.html with its inline scripts fits). */
export const MAX_RESOURCE_BYTES = 8 * 1024 * 1024;

/** Folders of a debate that are the engine's own (lock, journal): never offered as resources. */
const PRIVATE = new Set([".debate"]);

/**
 * The folder of the debate named `name` under `root`: a direct child, never `..`, an absolute path
 * or a symlink that leads out. Throws a DebatekitError (`DEBATE_NAME_INVALID`, `PATH_ESCAPE`,
 * `DEBATE_NOT_FOUND`) naming the debate.
 */
export async function debateFolder(root: string, name: string): Promise<string> {
  if (!DEBATE_NAME.test(name) || name === "." || name === "..")
    throw new DebatekitError(
      "DEBATE_NAME_INVALID",
      `debate ${JSON.stringify(name)}: expected a folder name under the debates folder (letters, digits, ., _ and -), e.g. "grpc-api"`,
      { field: "debate" },
    );
  const dir = resolveInside(root, name);
  const found = await lstat(join(dir, "debate.md")).catch(() => undefined);
  if (!found?.isFile())
    throw new DebatekitError("DEBATE_NOT_FOUND", `debate ${JSON.stringify(name)}: no debate.md in ${dir}`, {
      field: "debate",
    });
  return dir;
}

/** The debates under `root`: its sub-folders that hold a debate.md, by name. */
export async function listDebates(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !DEBATE_NAME.test(entry.name)) continue;
    const md = await lstat(join(root, entry.name, "debate.md")).catch(() => undefined);
    if (md?.isFile()) names.push(entry.name);
  }
  return names.sort();
}

/**
 * Every regular file of a debate folder, as `/`-separated paths relative to it, sorted; the engine's
 * own `.debate/` and temp files are left out, and symlinks are not followed.
 */
export async function listDebateFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (rel: string) => {
    const entries = await readdir(rel ? join(dir, rel) : dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && PRIVATE.has(entry.name)) continue;
      if (entry.name.endsWith(".tmp")) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  await walk("");
  return files.sort();
}

/** A manual seat's prompt that has no answer yet: `prompts/<stem>.md` without `inbox/<stem>.md|json`. */
export interface PendingPrompt {
  role: string;
  prompt: string;
  inbox: string;
}

/** The prompts of manual seats still waiting for an answer (the adapter's file names, `e001-opposition[-attempt2]`). */
export async function pendingPrompts(dir: string): Promise<PendingPrompt[]> {
  const prompts = await readdir(join(dir, "prompts")).catch(() => [] as string[]);
  const inbox = new Set(await readdir(join(dir, "inbox")).catch(() => [] as string[]));
  const pending: PendingPrompt[] = [];
  for (const name of prompts.sort()) {
    const m = /^(e\d{3,}-([a-z][a-z0-9_-]*?)(?:-attempt\d+)?)\.md$/.exec(name);
    if (!m) continue;
    const stem = m[1]!;
    if (inbox.has(`${stem}.md`) || inbox.has(`${stem}.json`)) continue;
    pending.push({ role: m[2]!, prompt: `prompts/${name}`, inbox: `inbox/${stem}.md` });
  }
  return pending;
}
