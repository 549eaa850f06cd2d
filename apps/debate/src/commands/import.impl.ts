import { open } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { formatRuleErrors, formats } from "@debatekit/core";
import { type Command, Option } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";
import { slugFromMotion } from "../slug.js";

/** Every importer any format offers, by source name. */
function importers() {
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

/** The rest of `debate import`: its options (from the formats' importers) and action. */
export function declareImport(command: Command, io: CliIO): void {
  const all = importers();
  command
    .addOption(
      new Option("--from <source>", all.map((i) => `${i.source}: ${i.importer.description}`).join("; "))
        .choices(all.map((i) => i.source))
        .default(all[0]?.source),
    )
    .option("--slug <slug>", "folder name and debate_id (default: from the topic)")
    .option("--dir <parent>", "where the folder is created", "debates")
    .option("--json", "print {dir, debate_id} as JSON")
    .action(async (file: string, opts: { from: string; slug?: string; dir: string; json?: boolean }) => {
      const chosen = all.find((i) => i.source === opts.from)!;
      const data = await readJsonFile(resolve(io.cwd, file));
      const made = chosen.importer.import(data, {
        slugFor: (motion) => opts.slug ?? slugFromMotion(motion),
        now: new Date().toISOString(),
      });
      if (!made.ok) throw new ExitError(`${file}: ${formatRuleErrors(made.errors).join("; ")}`);
      const { frontmatter, motion, notes, warnings } = made.value;
      const { createDebateFolder } = await import("@debatekit/files");
      const dir = await createDebateFolder(resolve(io.cwd, opts.dir), {
        slug: frontmatter.debate_id,
        motion,
        frontmatter,
        notes,
      });
      for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
      const shown = relative(io.cwd, dir) || ".";
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ dir, debate_id: frontmatter.debate_id })}\n`);
        return;
      }
      io.stdout.write(
        `created ${shown}/debate.md (${chosen.format.name}, from ${chosen.source})\nnext: debate run ${shown}\n`,
      );
    });
}
