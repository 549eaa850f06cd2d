import { relative } from "node:path";
// The formats' declarations alone (each importer's name and description): completion declares this
// command too, and needs none of their rules; the importer itself loads when the command runs.
import { formatDeclarations } from "@debatekit/core/declarations";
import { type Command, Option } from "commander";
import type { CliIO } from "../output.js";

/** Every importer any format declares, by source name, in the formats' order. */
function declaredImporters() {
  return formatDeclarations().flatMap((format) =>
    Object.entries(format.importers ?? {}).map(([source, { description }]) => ({ source, description })),
  );
}

/** The rest of `debate import`: its options (from the formats' importers) and action. */
export function declareImport(command: Command, io: CliIO): void {
  const all = declaredImporters();
  command
    .addOption(
      new Option("--from <source>", all.map((i) => `${i.source}: ${i.description}`).join("; "))
        .choices(all.map((i) => i.source))
        .default(all[0]?.source),
    )
    .option("--slug <slug>", "folder name and debate_id (default: from the topic)")
    .option("--dir <parent>", "where the folder is created", "debates")
    .option("--json", "print {dir, debate_id} as JSON")
    .action(async (file: string, opts: { from: string; slug?: string; dir: string; json?: boolean }) => {
      const { importDebate } = await import("../actions/import.js");
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
