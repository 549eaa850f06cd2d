import { relative } from "node:path";
import { type Command, Option } from "commander";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";

/** `debate review <path | --scope ... | --text ->`: snapshots the artifact into a review folder and runs it. */
export function registerReview(program: Command, io: CliIO): void {
  program
    .command("review")
    .description(
      "review code or a proposal: a critic, a judge that classifies every finding, a loop that converges",
    )
    .argument("[path]", "a file to review (a proposal, or code)")
    .option("--scope <scope>", "a git scope: uncommitted, commit:SHA, base:BRANCH, range:A..B or file:PATH")
    .option("--text <text>", "the artifact as text (`-` reads stdin)")
    .addOption(
      new Option("--target <target>", "what it is")
        .choices(["auto", "code", "proposal", "mixed"])
        .default("auto"),
    )
    .option("--critic <adapter>", "who critiques (default: codex, or claude when codex is the author)")
    .option("--author <adapter>", "who answers and revises (default: claude)")
    .option("--judge <adapter>", "who classifies and recommends (default: the author)")
    .addOption(
      new Option("--intensity <preset>", "quick 1 round/10 min, standard 3/20, extensive 5/40")
        .choices(["quick", "standard", "extensive"])
        .default("standard"),
    )
    .option("--max-rounds <n>", "at most this many rounds (overrides the preset)", parsePositiveInt)
    .option(
      "--budget-minutes <m>",
      "the time budget of the seats' calls (overrides the preset)",
      parsePositiveInt,
    )
    .addOption(
      new Option("--mode <mode>", "auto applies the judge's recommendation; manual waits for `decision:`")
        .choices(["auto", "manual"])
        .default("auto"),
    )
    .option(
      "--no-materialize",
      "a decision B (accept the critique) ends the review without the author writing the accepted version",
    )
    .option("--slug <slug>", "folder name and debate_id")
    .option("--dir <parent>", "where the folder is created", "debates")
    .option("--no-run", "create the folder only")
    .option("--json", "print the run's summary as JSON")
    .action(
      async (
        pathArg: string | undefined,
        opts: Record<string, string | number | boolean | undefined>,
        command: Command,
      ) => {
        const [{ createReview }, { runAndPrint }] = await Promise.all([
          import("../actions/review.js"),
          import("../cli-format/run.js"),
        ]);
        const text = (name: string) => (typeof opts[name] === "string" ? String(opts[name]) : undefined);
        const made = await createReview(io, {
          path: pathArg,
          scope: text("scope"),
          text: text("text"),
          target: text("target"),
          critic: text("critic"),
          author: text("author"),
          judge: text("judge"),
          intensity: text("intensity"),
          maxRounds: opts.maxRounds as number | undefined,
          budgetMinutes: opts.budgetMinutes as number | undefined,
          mode: text("mode"),
          materialize: opts.materialize !== false,
          slug: text("slug"),
          // The config file's `dir` wins over the flag's default, not over the flag.
          dir: command.getOptionValueSource("dir") === "default" ? undefined : text("dir"),
          fromConfig: true,
        });
        for (const warning of made.warnings) io.stderr.write(`warning: ${warning}\n`);
        const shown = relative(io.cwd, made.dir) || ".";
        const fm = made.frontmatter;
        if (opts.run === false) {
          io.stdout.write(
            opts.json
              ? `${JSON.stringify({ dir: made.dir, debate_id: made.debateId, target: made.target })}\n`
              : `created ${shown}/debate.md (${made.target})\nnext: debate run ${shown}\n`,
          );
          return;
        }
        if (!opts.json)
          io.stderr.write(
            `created ${shown}/debate.md (${made.target}, ${fm.max_rounds} round(s), ${fm.budget_minutes} min)\n`,
          );
        await runAndPrint(
          io,
          { dir: made.dir, command: `debate review ${made.origin}` },
          opts.json ? { json: true } : {},
        );
      },
    );
}
