import type { Role } from "@debatekit/schema";
import {
  countTokens,
  DEFAULT_SKILL_BUDGET_TOKENS,
  defaultSkillRoots,
  type LoadResult,
  loadSkills,
  type Selection,
  type SkillProblem,
  selectSkills,
} from "@debatekit/skills";
import { type Command, Option } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";
import { formatSkillProblem, plainProblems } from "../skill-problems.js";

const ROLES: readonly Role[] = ["proposition", "opposition", "judge", "debater"];

interface RootOptions {
  root?: string[];
  json?: boolean;
}

async function load(io: CliIO, options: RootOptions): Promise<{ roots: string[]; result: LoadResult }> {
  const roots = options.root?.length ? options.root : await defaultSkillRoots({ cwd: io.cwd, env: io.env });
  return { roots, result: await loadSkills(roots) };
}

function printProblems(io: CliIO, problems: SkillProblem[]): void {
  for (const p of problems) io.stderr.write(`${formatSkillProblem(p)}\n`);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function parseBudget(value: string): number {
  if (!/^\d+$/.test(value))
    throw new ExitError(`--budget must be a whole number of tokens, got ${JSON.stringify(value)}`);
  return Number(value);
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function renderSelection(selection: Selection, role: Role): string {
  const lines = [
    `role ${role}, budget ${selection.budgetTokens} tokens (${selection.encoding}): ${selection.chosen.length} chosen, ${selection.totalTokens} tokens in all`,
  ];
  if (selection.chosen.length > 0) {
    lines.push("", "chosen");
    const rows = selection.chosen.map((c, i) => [
      `${i + 1}.`,
      c.name,
      `score ${c.score}`,
      `${c.tokens} tokens`,
      c.truncated ? `cut by ${c.cutBy} (full text ${c.fullTokens})` : "whole",
      `matched: ${c.matched.join(", ")}`,
    ]);
    lines.push(
      ...table(rows)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  }
  if (selection.dropped.length > 0) {
    lines.push("", "dropped");
    const rows = selection.dropped.map((d) => ["-", d.name, `score ${d.score}`, `${d.code}: ${d.reason}`]);
    lines.push(
      ...table(rows)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** `debate skills list` and `debate skills match`: what skill packs exist and which a seat would get. */
export function registerSkills(program: Command, io: CliIO): void {
  const skills = program
    .command("skills")
    .description("List skill packs and show which ones a seat's prompt gets.");
  const rootOption = new Option(
    "--root <dir>",
    "skills folder to load (repeatable; later wins on a name clash). Default: the project's skills/, then ~/.config/debatekit/skills",
  ).argParser(collect);

  skills
    .command("list")
    .description("List the skill packs found, with their roles, budgets and triggers; problems go to stderr.")
    .addOption(rootOption)
    .option("--json", "print JSON")
    .action(async (options: RootOptions) => {
      const { roots, result } = await load(io, options);
      if (options.json) {
        const list = result.skills.map((s) => ({
          ...s.manifest,
          dir: s.dir,
          root: s.root,
          tokens: countTokens(s.text),
        }));
        io.stdout.write(
          `${JSON.stringify({ roots, skills: list, problems: plainProblems(result.problems) }, null, 2)}\n`,
        );
      } else {
        const rows = [["NAME", "VERSION", "ROLES", "MAX TOKENS", "TRIGGERS"]];
        for (const s of result.skills) {
          const m = s.manifest;
          const triggers = m.triggers.join(", ");
          rows.push([
            m.name,
            m.version,
            m.applicable_agents.join(","),
            String(m.max_context_tokens),
            triggers.length > 60 ? `${triggers.slice(0, 57)}...` : triggers,
          ]);
        }
        io.stdout.write(
          result.skills.length > 0
            ? `${table(rows)}\n`
            : `no skills found in ${roots.join(", ") || "(no roots)"}\n`,
        );
        printProblems(io, result.problems);
      }
      const errors = result.problems.filter((p) => p.severity === "error").length;
      if (errors > 0) throw new ExitError(`${errors} skill problem(s); the skills concerned were skipped`);
    });

  skills
    .command("match")
    .description(
      "Show which skills a seat would get for a text: score, tokens, what was cut or dropped and why.",
    )
    .argument("<text>", "the motion (and definitions, scope, task) to match against")
    .addOption(new Option("--role <role>", "the seat's role").choices(ROLES).makeOptionMandatory())
    .option(
      "--budget <tokens>",
      `token budget for all skills together (default ${DEFAULT_SKILL_BUDGET_TOKENS})`,
      parseBudget,
    )
    .option("--exclude <names>", "comma-separated skill names never to use")
    .option("--print", "also print the text that would go into the prompt")
    .addOption(rootOption)
    .option("--json", "print JSON (includes the text)")
    .action(
      async (
        text: string,
        options: RootOptions & { role: Role; budget?: number; exclude?: string; print?: boolean },
      ) => {
        const { roots, result } = await load(io, options);
        const exclude = (options.exclude ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        const selection = selectSkills(result.skills, {
          text,
          role: options.role,
          budgetTokens: options.budget ?? DEFAULT_SKILL_BUDGET_TOKENS,
          exclude,
        });
        if (options.json) {
          const out = { roots, role: options.role, ...selection, problems: plainProblems(result.problems) };
          io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
          return;
        }
        io.stdout.write(renderSelection(selection, options.role));
        if (options.print && selection.text !== "") io.stdout.write(`\n${selection.text}\n`);
        printProblems(io, result.problems);
      },
    );
}
