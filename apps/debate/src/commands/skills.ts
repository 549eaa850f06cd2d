import type {
  ChosenSkill,
  DroppedSkill,
  LoadResult,
  RankField,
  Selection,
  SkillMatch,
  SkillProblem,
} from "@debatekit/skills";
// The budget alone: the rest of the skills package (tokenizer, matcher) loads when a command runs.
import { DEFAULT_SKILL_BUDGET_TOKENS } from "@debatekit/skills/budget";
import { type Command, Option } from "commander";
import { ExitError } from "../exit-error.js";
import type { CliIO } from "../output.js";
import { formatSkillProblem, plainProblems } from "../skill-problems.js";
import { declareLater } from "./lazy.js";

/** The registered formats' declarations (loaded when `skills match` is declared in full, not at start). */
async function registeredFormats() {
  const { formatDeclarations } = await import("@debatekit/core/declarations");
  return formatDeclarations();
}

type Seats = Awaited<ReturnType<typeof registeredFormats>>[number]["roles"];

/** Every role and every seat kind of the registered formats: what `--role` accepts. */
function seatNames(seats: Seats): string[] {
  return [...new Set([...seats.map((s) => s.role), ...seats.map((s) => s.kind)])];
}

/**
 * The other names a skill may give a seat by: the kinds the formats give this role (`pro` is a
 * `debater`) and, for a kind, every role of that kind, so `--role debater` sees what any debater gets.
 */
function kindsOf(role: string, seats: Seats): string[] {
  const names = seats.flatMap((s) => (s.role === role ? [s.kind] : s.kind === role ? [s.role] : []));
  return [...new Set(names)].filter((name) => name !== role);
}

interface RootOptions {
  root?: string[];
  json?: boolean;
}

async function load(io: CliIO, options: RootOptions): Promise<{ roots: string[]; result: LoadResult }> {
  const { defaultSkillRoots, loadSkills } = await import("@debatekit/skills");
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

/**
 * The triggers that matched, then `means: <concept>` for each concept the text means; `~ cookies,
 * tokens` (the ranked match's words) for a skill neither found.
 */
function matchedText(matched: readonly string[], match: SkillMatch | undefined): string {
  const concepts = match?.concepts.map((c) => c.concept) ?? [];
  const parts = [
    ...(matched.length > 0 ? [matched.join(", ")] : []),
    ...(concepts.length > 0 ? [`means: ${concepts.join(", ")}`] : []),
  ];
  if (parts.length > 0 || !match) return parts.join("; ");
  const words = [...new Set(match.ranked.hits.flatMap((h) => h.words))];
  return `~ ${words.join(", ")}`;
}

const FIELD_ORDER: readonly RankField[] = ["triggers", "description", "headings"];

function round(value: number): string {
  return value.toFixed(2).replace(/\.?0+$/, "");
}

/** Why each skill was (or was not) selected: trigger hits, then the ranked match's terms by field. */
export function renderExplain(
  scored: readonly SkillMatch[],
  selection: Selection,
  { RANK_THRESHOLD, STEM_SUPPORT }: { RANK_THRESHOLD: number; STEM_SUPPORT: number },
): string {
  const chosen = new Map(selection.chosen.map((c) => [c.name, c]));
  const dropped = new Map(selection.dropped.map((d) => [d.name, d]));
  const lines = [
    "",
    `why (a skill is selected by "*", by a trigger matched exactly, by a concept it means, by a trigger matched by stem with a ranked score of at least ${STEM_SUPPORT}, or by a ranked score of at least ${RANK_THRESHOLD}; "*" skills go first, then by score, then by ranked score; then each goes in whole while it fits the budget of ${selection.budgetTokens} tokens)`,
  ];
  const untouched: string[] = [];
  for (const m of scored) {
    if (m.hits.length === 0 && m.concepts.length === 0 && m.ranked.hits.length === 0) {
      untouched.push(m.skill.name);
      continue;
    }
    lines.push("", `  ${m.skill.name}: ${outcomeOf(m, chosen.get(m.skill.name), dropped.get(m.skill.name))}`);
    if (m.hits.length === 0) lines.push("    triggers  none matched");
    else {
      const hits = m.hits.map((h) =>
        h.occurrences === 0
          ? `"${h.trigger}" (always) ${h.points}`
          : `"${h.trigger}"${h.stemmed ? ` by stem in ${h.stemmed.map((w) => `"${w}"`).join(", ")}` : ""} ×${h.occurrences} ${h.points}`,
      );
      const points = m.hits.reduce((sum, h) => sum + h.points, 0);
      lines.push(`    triggers  ${hits.join(", ")} = ${points} points`);
    }
    lines.push(...conceptLines(m));
    const { ranked } = m;
    if (ranked.hits.length === 0) {
      lines.push("    ranked    no term of the text in its triggers, description or headings");
      continue;
    }
    const stemOnly = m.hits.length > 0 && m.hits.every((h) => h.stemmed !== undefined);
    const verdict = m.rankedOk
      ? `>= ${RANK_THRESHOLD}, selects it`
      : stemOnly
        ? ranked.score >= STEM_SUPPORT
          ? `>= ${STEM_SUPPORT}, confirms the stem match`
          : `< ${STEM_SUPPORT}, too weak to confirm the stem match`
        : `< ${RANK_THRESHOLD}, does not select it`;
    lines.push(
      `    ranked    ${round(ranked.score)} = ${round(ranked.sum)} (sum of weights) × ${ranked.terms} term${ranked.terms === 1 ? "" : "s"}; ${verdict}`,
    );
    for (const field of FIELD_ORDER) {
      const hits = ranked.hits.filter((h) => h.field === field);
      if (hits.length === 0) continue;
      const terms = hits.map((h) => {
        const spelled = h.words.join("/");
        return `${spelled}${spelled === h.stem ? "" : ` [${h.stem}]`} ${round(h.weight)}`;
      });
      lines.push(`      ${field.padEnd(12)} ${terms.join(", ")}`);
    }
  }
  if (untouched.length > 0) lines.push("", `  no trigger and no term of the text: ${untouched.join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** Chosen (tokens, whole or cut and why), dropped (and why), or not selected; with its score. */
function outcomeOf(
  m: SkillMatch,
  chosen: ChosenSkill | undefined,
  dropped: DroppedSkill | undefined,
): string {
  const score = m.always ? `always ("*"), score ${m.score}` : `score ${m.score}`;
  if (chosen)
    return `chosen, ${score}, ${chosen.tokens} tokens${chosen.truncated ? ` (cut by ${chosen.cutBy}, full text ${chosen.fullTokens})` : ""}`;
  if (dropped) return `dropped, ${score}: ${dropped.code}: ${dropped.reason}`;
  return m.selected ? `selected, ${score}` : "not selected";
}

/** The concepts a skill's manifest lists that the text means, and the words that meant them. */
function conceptLines(m: SkillMatch): string[] {
  if (m.concepts.length === 0)
    return (m.skill.manifest.concepts ?? []).length > 0 ? ["    concepts  none meant"] : [];
  const parts = m.concepts.map(
    (c) =>
      `"${c.concept}" by ${c.phrases.map((p) => `"${p}"`).join(", ")} in ${c.words.map((w) => `"${w}"`).join(", ")} ${c.points}`,
  );
  const points = m.concepts.reduce((sum, c) => sum + c.points, 0);
  return [`    concepts  ${parts.join("; ")} = ${points} points`];
}

/**
 * `always` for a `*` skill (ranked before every other, whatever its score), trigger and concept
 * points, or the ranked score for a skill only the ranked match selected.
 */
function scoreCell(score: number, match: SkillMatch | undefined): string {
  if (match?.always) return "always";
  return score > 0 || !match ? `score ${score}` : `ranked ${round(match.ranked.score)}`;
}

function renderSelection(selection: Selection, role: string, scored: readonly SkillMatch[]): string {
  const byName = new Map(scored.map((m) => [m.skill.name, m]));
  const lines = [
    `role ${role}, budget ${selection.budgetTokens} tokens (${selection.encoding}): ${selection.chosen.length} chosen, ${selection.totalTokens} tokens in all`,
  ];
  if (selection.chosen.length > 0) {
    lines.push("", "chosen");
    const rows = selection.chosen.map((c, i) => [
      `${i + 1}.`,
      c.name,
      scoreCell(c.score, byName.get(c.name)),
      `${c.tokens} tokens`,
      c.truncated ? `cut by ${c.cutBy} (full text ${c.fullTokens})` : "whole",
      `matched: ${matchedText(c.matched, byName.get(c.name))}`,
    ]);
    lines.push(
      ...table(rows)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  }
  if (selection.dropped.length > 0) {
    lines.push("", "dropped");
    const rows = selection.dropped.map((d) => [
      "-",
      d.name,
      scoreCell(d.score, byName.get(d.name)),
      `${d.code}: ${d.reason}`,
    ]);
    lines.push(
      ...table(rows)
        .split("\n")
        .map((l) => `  ${l}`),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The explanation as data: every skill for the role, its trigger hits and ranked terms. */
function explainJson(scored: readonly SkillMatch[], RANK_THRESHOLD: number) {
  return scored.map((m) => ({
    name: m.skill.name,
    selected: m.selected,
    always: m.always,
    score: m.score,
    hits: m.hits,
    concepts: m.concepts,
    ranked: { ...m.ranked, threshold: RANK_THRESHOLD, selects: m.rankedOk },
  }));
}

/** `debate skills list` and `debate skills match`: what skill packs exist and which a seat would get. */
export function registerSkills(program: Command, io: CliIO): void {
  const skills = program
    .command("skills")
    .description("list skill packs and show which ones a seat's prompt gets");
  const rootOption = new Option(
    "--root <dir>",
    "skills folder to load (repeatable; later wins on a name clash). Default: the project's skills/, then ~/.config/debatekit/skills",
  ).argParser(collect);

  skills
    .command("list")
    .description("list the skill packs found, with their roles, budgets and triggers; problems go to stderr")
    .addOption(rootOption)
    .option("--json", "print JSON")
    .action(async (options: RootOptions) => {
      const { roots, result } = await load(io, options);
      const { countTokens } = await import("@debatekit/skills");
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

  const match = skills
    .command("match")
    .description(
      "Show which skills a seat would get for a text: score, tokens, what was cut or dropped and why.",
    )
    .argument("<text>", "the motion (and definitions, scope, task) to match against");
  // `--role` offers the seats of the registered formats: declared once the command is named, so
  // `debate --help` loads no engine.
  declareLater(match, async () => {
    const formats = await registeredFormats();
    const seats = formats.flatMap((f) => f.roles);
    match
      .addOption(
        new Option("--role <role>", "the seat's role, or a kind of seat (debater: every arguing seat)")
          .choices(seatNames(seats))
          .makeOptionMandatory(),
      )
      .addOption(
        new Option(
          "--format <name>",
          "the debate's format: skills written for another format's seats are left out (default: any)",
        ).choices(formats.map((f) => f.name)),
      )
      .option(
        "--budget <tokens>",
        `token budget for all skills together (default ${DEFAULT_SKILL_BUDGET_TOKENS})`,
        parseBudget,
      )
      .option("--exclude <names>", "comma-separated skill names never to use")
      .option("--print", "also print the text that would go into the prompt")
      .option(
        "--explain",
        "say why each skill was chosen, dropped or left out: trigger hits, the concepts the text means, the ranked match's terms per field with their weights, the score and the budget",
      )
      .addOption(rootOption)
      .option("--json", "print JSON (includes the text)")
      .action(
        async (
          text: string,
          options: RootOptions & {
            role: string;
            format?: string;
            budget?: number;
            exclude?: string;
            print?: boolean;
            explain?: boolean;
          },
        ) => {
          const { roots, result } = await load(io, options);
          const skills = await import("@debatekit/skills");
          const { selectSkills, scoreSkills } = skills;
          const exclude = (options.exclude ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
          // With a format, the kinds its own seats have; a skill naming other formats is left out.
          const own = formats.find((f) => f.name === options.format)?.roles ?? seats;
          const seat = {
            text,
            role: options.role,
            kinds: kindsOf(options.role, own),
            ...(options.format ? { format: options.format } : {}),
          };
          const selection = selectSkills(result.skills, {
            ...seat,
            budgetTokens: options.budget ?? DEFAULT_SKILL_BUDGET_TOKENS,
            exclude,
          });
          const scored = scoreSkills(result.skills, seat);
          if (options.json) {
            const out = {
              roots,
              role: options.role,
              ...(options.format ? { format: options.format } : {}),
              ...selection,
              ...(options.explain ? { explain: explainJson(scored, skills.RANK_THRESHOLD) } : {}),
              problems: plainProblems(result.problems),
            };
            io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
            return;
          }
          io.stdout.write(renderSelection(selection, options.role, scored));
          if (options.explain) io.stdout.write(renderExplain(scored, selection, skills));
          if (options.print && selection.text !== "") io.stdout.write(`\n${selection.text}\n`);
          printProblems(io, result.problems);
        },
      );
  });
}
