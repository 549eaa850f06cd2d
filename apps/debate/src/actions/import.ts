import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { formatRuleErrors, formats } from "@debatekit/core";
import { ExitError } from "../exit-error.js";
import type { ActionContext } from "./context.js";
import type { Created } from "./create.js";
import { slugFromMotion } from "./slug.js";

// Loads when a debate is imported (files, when the file is read): `debate import --help` and
// completion list the importers from the formats' declarations, without this module.

/** What `importDebate` reads: another tool's saved debate, by the name of its source (`--from`). */
export interface ImportInput {
  from: string;
  file: string;
  /** The parent folder (default `debates`), against `cwd`. */
  dir?: string;
  slug?: string;
  now?: string;
}

/** Every importer any format offers, by source name, in the formats' order. */
export function importers() {
  return Object.values(formats).flatMap((format) =>
    Object.entries(format.importers ?? {}).map(([source, importer]) => ({ source, format, importer })),
  );
}

/** Reads a regular file of at most MAX_JSON_BYTES as JSON (a FIFO or a huge file is refused, not waited on). */
async function readJsonFile(path: string): Promise<unknown> {
  const { MAX_JSON_BYTES } = await import("@debatekit/files");
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw new ExitError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ExitError(`${path} is not a regular file`);
    if (stats.size > MAX_JSON_BYTES) throw new ExitError(`${path} is larger than ${MAX_JSON_BYTES} bytes`);
    const text = await handle.readFile("utf8");
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ExitError(`${path}: expected JSON (${(error as Error).message})`);
    }
  } finally {
    await handle.close();
  }
}

/** Creates a debate folder from another tool's saved debate (agentsys's last-debate.json). */
export async function importDebate(ctx: ActionContext, input: ImportInput): Promise<Created> {
  const chosen = importers().find((i) => i.source === input.from);
  if (!chosen)
    throw new ExitError(
      `${input.from}: no importer of that name (the importers: ${importers()
        .map((i) => i.source)
        .join(", ")})`,
      2,
    );
  const data = await readJsonFile(resolve(ctx.cwd, input.file));
  const made = chosen.importer.import(data, {
    slugFor: (motion) => input.slug ?? slugFromMotion(motion),
    now: input.now ?? new Date().toISOString(),
  });
  if (!made.ok) throw new ExitError(`${input.file}: ${formatRuleErrors(made.errors).join("; ")}`);
  const { frontmatter, motion, notes, warnings } = made.value;
  const { createDebateFolder } = await import("@debatekit/files");
  const dir = await createDebateFolder(resolve(ctx.cwd, input.dir ?? "debates"), {
    slug: frontmatter.debate_id,
    motion,
    frontmatter,
    notes,
  });
  return { dir, debateId: frontmatter.debate_id, format: chosen.format.name, warnings };
}
