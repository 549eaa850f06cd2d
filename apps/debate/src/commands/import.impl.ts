import { relative } from "node:path";
import { type Command, Option } from "commander";
import { importDebate, importers } from "../actions/import.js";
import type { CliIO } from "../output.js";

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
      const made = await importDebate(io, {
        from: opts.from,
        file,
        dir: opts.dir,
        ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
      });
      for (const warning of made.warnings) io.stderr.write(`warning: ${warning}\n`);
      const shown = relative(io.cwd, made.dir) || ".";
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ dir: made.dir, debate_id: made.debateId })}\n`);
        return;
      }
      io.stdout.write(
        `created ${shown}/debate.md (${made.format}, from ${opts.from})\nnext: debate run ${shown}\n`,
      );
    });
}
