import { relative } from "node:path";
// The formats' declarations alone: completion declares this command too, and needs none of their rules.
import {
  DEFAULT_FORMAT_NAME,
  type FormatDeclaration,
  formatDeclarations,
} from "@debatekit/core/declarations";
// The adapters' list alone: completion declares this command too, and needs no runner.
import { builtinAdapters } from "@debatekit/runner/adapters";
import { type Command, Option } from "commander";
import type { CreateInput } from "../actions/create.js";
import { hasTwoSides, panelFormats, sidedPanelFormats } from "../actions/format-options.js";
import { parsePositiveInt } from "../options.js";
import type { CliIO } from "../output.js";

/** Every seat flag and length flag any format offers, each once (commander needs them up front). */
function formatFlags(all: readonly FormatDeclaration[]) {
  const seats = new Map<string, string[]>();
  const lengths = new Map<string, string[]>();
  for (const format of all) {
    for (const seat of format.newOptions.seats) {
      const text = `${format.name}: ${seat.description}${seat.default ? ` (default ${seat.default})` : ""}`;
      seats.set(seat.role, [...(seats.get(seat.role) ?? []), text]);
    }
    const { length } = format.newOptions;
    lengths.set(length.flag, [
      ...(lengths.get(length.flag) ?? []),
      `${format.name}: ${length.description} (${length.min}-${length.max}, default ${length.default})`,
    ]);
  }
  return { seats, lengths };
}

/** The example of a second format: the first registered after the default that debates a topic, with its required seats. */
function otherExample(): string {
  const other = formatDeclarations().find((f) => f.name !== DEFAULT_FORMAT_NAME && hasTwoSides(f));
  if (!other) return "";
  const seats = other.newOptions.seats
    .filter((s) => s.required)
    .map((s, i) => ` --${s.role} ${i % 2 === 0 ? "claude" : "codex"}`);
  return `\n  $ debate new --format ${other.name} "gRPC or REST for the public API"${seats.join("")}`;
}

/**
 * What doctor says of each seat of the new debate that is not ready (not installed, no login, not
 * allowed), then how to go on: fix it, or seat a person with `--<role> manual`.
 */
async function seatWarnings(
  io: CliIO,
  format: FormatDeclaration,
  dir: string,
  shown: string,
): Promise<string[]> {
  const { diagnoseDebateSeats, nextStep } = await import("../actions/doctor.js");
  const unready = (await diagnoseDebateSeats(dir, { env: io.env, shown, onlyUsed: true })).filter(
    (row) => !row.ready,
  );
  if (unready.length === 0) return [];
  const flags = format.newOptions.seats
    .filter((seat) => unready.some((row) => row.seat === seat.role))
    .map((seat) => `--${seat.role} manual`);
  return [
    ...unready.map(
      (row) => `${row.seat} (${row.adapter}) is not ready: ${nextStep(row) ?? "see `debate doctor`"}`,
    ),
    `\`debate run\` needs every seat ready: do the above, or seat a person who answers in files (${flags.join(" ") || "--<role> manual"} with \`debate new\`); check again with \`debate doctor ${shown}\``,
  ];
}

/** The rest of `debate new`: its options (from the formats), help and action. */
export function declareNew(command: Command, io: CliIO): void {
  const all = formatDeclarations();
  const { seats, lengths } = formatFlags(all);
  // Help names the formats each panel flag applies to, as registered.
  const names = (formats: readonly FormatDeclaration[]) => formats.map((f) => f.name).join(", ");
  const sided = sidedPanelFormats();
  const unsided = panelFormats().filter((f) => !sided.includes(f));
  command
    .addOption(
      new Option("--format <name>", "the debate format")
        .choices(all.map((f) => f.name))
        .default(DEFAULT_FORMAT_NAME),
    )
    .option("--slug <slug>", "folder name and debate_id (default: from the motion)");
  for (const [role, texts] of seats)
    command.option(
      `--${role} <adapter[:model[:effort]]>`,
      `who sits as ${role}, with its model and effort if given (claude:sonnet:high); ${texts.join("; ")}`,
    );
  for (const [flag, texts] of lengths) command.option(`--${flag} <n>`, texts.join("; "), parsePositiveInt);
  command
    .option(
      "--judges <adapters>",
      `${names(panelFormats())}: a judge panel of 1-5 CLIs, comma-separated (e.g. codex,gemini,opencode); each is asked in parallel, blind to which debater is which, half of them with the sides in the other order`,
      (value: string) =>
        value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
    )
    .option(
      "--swap",
      `${names(sided)}: ask every judge twice, once per order of the sides${unsided.length > 0 ? ` (not ${names(unsided)})` : ""}`,
    )
    .option(
      "--allow-self-judging",
      `${names(sided)}: let a judge be a debater's own CLI (refused by default)`,
    )
    .addOption(
      new Option("--effort <level>", "how hard every seat thinks").choices(["low", "medium", "high", "max"]),
    )
    .option(
      "--define <term=meaning>",
      "a definition under the motion (## Definitions); repeat for more",
      (value: string, all: string[] = []) => [...all, value],
    )
    .option("--scope <text>", "what the debate covers and leaves out (## Scope under the motion)")
    .option("--dir <parent>", "where the folder is created", "debates")
    .addOption(
      new Option(
        "--isolation <mode>",
        "off: every seat loads your own CLI setup (memory files, hooks, plugins, MCP servers); tools stay off",
      )
        .choices(["on", "off"])
        .default("on"),
    )
    .option("--json", "print {dir, debate_id} as JSON")
    .addHelpText(
      "after",
      () => `
Adapters: ${builtinAdapters.join(", ")} (manual and replay work offline: a person's answer
files, or recorded answers). A model goes after the adapter, then an effort:
--proposition claude:sonnet:high.

Examples:
  $ debate new "This house would write tests first"
  $ debate new "This house would ship on Fridays" --proposition claude:sonnet --opposition codex:gpt-5.5:high --judge gemini
  $ debate new "This house would pair on every change" --proposition manual --opposition manual --judge manual${otherExample()}`,
    )
    .action(async (motion: string, opts: Record<string, string | number | boolean | undefined>) => {
      const [{ createDebate, refuseForeignFlags }, { findFormat }] = await Promise.all([
        import("../actions/create.js"),
        import("@debatekit/core"),
      ]);
      const format = findFormat(String(opts.format))!;
      refuseForeignFlags(
        format,
        [...seats.keys(), ...lengths.keys()].filter((flag) => opts[flag] !== undefined),
      );
      const given = (flag: string) => (opts[flag] === undefined ? [] : [[flag, String(opts[flag])]]);
      const made = await createDebate(io, {
        format: format.name,
        motion,
        seats: Object.fromEntries(format.newOptions.seats.flatMap((s) => given(s.role))),
        ...(opts[format.newOptions.length.flag] !== undefined
          ? { length: opts[format.newOptions.length.flag] as number }
          : {}),
        ...(opts.judges !== undefined ? { judges: opts.judges as unknown as string[] } : {}),
        ...(opts.swap ? { swap: true } : {}),
        ...(opts.allowSelfJudging ? { allowSelfJudging: true } : {}),
        ...(opts.effort !== undefined ? { effort: opts.effort as CreateInput["effort"] } : {}),
        ...(opts.slug !== undefined ? { slug: String(opts.slug) } : {}),
        // The config file's `dir` wins over the flag's default, not over the flag.
        ...(command.getOptionValueSource("dir") === "default" ? {} : { dir: String(opts.dir) }),
        ...(opts.define !== undefined ? { defines: opts.define as unknown as string[] } : {}),
        ...(typeof opts.scope === "string" ? { scope: opts.scope } : {}),
        ...(opts.isolation === "off" ? { isolation: "off" as const } : {}),
      });
      for (const warning of made.warnings) io.stderr.write(`warning: ${warning}\n`);
      const shown = relative(io.cwd, made.dir) || ".";
      // The folder is made either way; a seat that cannot run yet is said now, not at `debate run`.
      for (const line of await seatWarnings(io, format, made.dir, shown))
        io.stderr.write(`warning: ${line}\n`);
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ dir: made.dir, debate_id: made.debateId })}\n`);
        return;
      }
      io.stdout.write(`created ${shown}/debate.md\nnext: debate run ${shown}\n`);
    });
}
