import { relative, resolve } from "node:path";
import type { Format } from "@debatekit/core";
import { formatRuleErrors, formats } from "@debatekit/core";
// The adapters' list alone: completion declares this command too, and needs no runner.
import { builtinAdapters, isAdapterInstalled } from "@debatekit/runner/adapters";
import type { SeatConfig } from "@debatekit/schema";
import { type Command, Option } from "commander";
import { ExitError } from "../exit-error.js";
import { parsePositiveInt, parseSeatSpec } from "../options.js";
import type { CliIO } from "../output.js";
import { slugFromMotion } from "../slug.js";

/** Every seat flag and length flag any format offers, each once (commander needs them up front). */
function formatFlags(all: readonly Format[]) {
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

/** The rest of `debate new`: its options (from the formats), help and action. */
export function declareNew(command: Command, io: CliIO): void {
  const all = Object.values(formats);
  const { seats, lengths } = formatFlags(all);
  command
    .addOption(
      new Option("--format <name>", "the debate format").choices(Object.keys(formats)).default("formal"),
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
      "formal, crossfire, review: a judge panel of 1-5 CLIs, comma-separated (e.g. codex,gemini,opencode); each is asked in parallel, blind to which debater is which, half of them with the sides in the other order",
      (value: string) =>
        value
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
    )
    .option("--swap", "formal, crossfire: ask every judge twice, once per order of the sides (not review)")
    .option(
      "--allow-self-judging",
      "formal, crossfire: let a judge be a debater's own CLI (refused by default)",
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
  $ debate new "This house would write tests first" --proposition claude:sonnet --opposition codex:gpt-5.5:high --judge gemini
  $ debate new "This house would write tests first" --proposition manual --opposition manual --judge manual
  $ debate new --format crossfire "gRPC or REST for the public API" --proposer claude --challenger codex`,
    )
    .action(async (motion: string, opts: Record<string, string | number | boolean | undefined>) => {
      const format = formats[String(opts.format)]!;
      const own = new Set([...format.newOptions.seats.map((s) => s.role), format.newOptions.length.flag]);
      const foreign = [...seats.keys(), ...lengths.keys()].filter(
        (flag) => opts[flag] !== undefined && !own.has(flag),
      );
      if (foreign.length > 0) {
        const offered = [...own].map((f) => `--${f}`).join(", ");
        throw new ExitError(
          `${foreign.map((f) => `--${f}`).join(", ")} is not an option of the ${format.name} format (it takes ${offered})`,
        );
      }
      const panelFlags = ["judges", "swap", "allowSelfJudging"].filter((f) => opts[f] !== undefined);
      if (panelFlags.length > 0 && !format.newOptions.panel) {
        throw new ExitError(
          `--judges, --swap and --allow-self-judging are options of the formal, crossfire and review formats, not ${format.name}`,
        );
      }
      if (opts.judges !== undefined && opts.judge !== undefined)
        throw new ExitError("give --judge (one judge) or --judges (a panel), not both");
      const length = opts[format.newOptions.length.flag] as number | undefined;
      const { min, max, flag } = format.newOptions.length;
      if (length !== undefined && (length < min || length > max)) {
        throw new ExitError(
          `--${flag} must be from ${min} to ${max} for the ${format.name} format, got ${length}`,
        );
      }
      // Defaults from the config file (debatekit.config.*, package.json#debatekit, the user's): a flag wins.
      const [{ loadConfig }, { createDebateFolder }] = await Promise.all([
        import("../config.js"),
        import("@debatekit/files"),
      ]);
      const { config } = await loadConfig(io);
      for (const seat of format.newOptions.seats)
        if (opts[seat.role] === undefined && config.seats?.[seat.role])
          opts[seat.role] = config.seats[seat.role];
      if (opts.effort === undefined && config.effort) opts.effort = config.effort;
      if (command.getOptionValueSource("dir") === "default" && config.dir) opts.dir = config.dir;
      const missing = format.newOptions.seats.filter((s) => s.required && opts[s.role] === undefined);
      if (missing.length > 0) {
        throw new ExitError(
          `the ${format.name} format needs ${missing.map((s) => `--${s.role} <adapter>`).join(" and ")}`,
        );
      }
      // `--judge codex:gpt-5.5:high`: the adapter, then the seat's own model and effort.
      const perSeat = new Map<string, Pick<SeatConfig, "model" | "effort">>();
      for (const seat of format.newOptions.seats) {
        const given = opts[seat.role];
        if (typeof given !== "string" || !given.includes(":")) continue;
        const { adapter, ...own } = parseSeatSpec(`--${seat.role}`, given);
        opts[seat.role] = adapter;
        perSeat.set(seat.role, own);
      }
      for (const seat of format.newOptions.seats) {
        const name = opts[seat.role];
        if (typeof name === "string" && !isAdapterInstalled(name))
          throw new ExitError(
            `--${seat.role} ${name}: no adapter of that name (the adapters: ${builtinAdapters.join(", ")}); a model goes in the seat's \`model:\` in debate.md`,
            2,
          );
      }
      const slug = String(opts.slug ?? slugFromMotion(motion));
      // `isolation: on` is the default and not written; `off` is the user's explicit opt-in, per seat.
      const seatDefaults: Omit<SeatConfig, "adapter"> = {
        ...(opts.effort ? { effort: opts.effort as SeatConfig["effort"] & string } : {}),
        ...(opts.isolation === "off" ? { isolation: "off" as const } : {}),
      };
      const made = format.newDebate({
        slug,
        seats: Object.fromEntries(
          format.newOptions.seats.map((s) => [s.role, opts[s.role] as string | undefined]),
        ),
        ...(length !== undefined ? { length } : {}),
        ...(opts.judges !== undefined ? { judges: opts.judges as unknown as string[] } : {}),
        ...(opts.swap ? { swap: true } : {}),
        ...(opts.allowSelfJudging ? { allowSelfJudging: true } : {}),
        seatDefaults,
        now: new Date().toISOString(),
      });
      if (!made.ok) throw new ExitError(formatRuleErrors(made.errors).join("\n"));
      const madeSeats = (made.value.frontmatter as { seats?: Record<string, SeatConfig> }).seats;
      // A single judge may be written as a panel of one (judges.panel): its seat is there.
      const panel = (made.value.frontmatter as { judges?: { panel?: SeatConfig[] } }).judges?.panel;
      for (const [role, extra] of perSeat) {
        if (madeSeats?.[role]) madeSeats[role] = { ...madeSeats[role], ...extra };
        else if (role === "judge" && panel?.length === 1) panel[0] = { ...panel[0]!, ...extra };
      }
      // Definitions and scope go under the motion, where the prompts read them (## Definitions, ## Scope).
      const defines = (opts.define as unknown as string[] | undefined) ?? [];
      const definitions = defines.map((d) => {
        const at = d.indexOf("=");
        if (at <= 0 || at === d.length - 1)
          throw new ExitError(
            `--define ${d}: expected <term>=<meaning>, e.g. --define "AI-written=most lines by an agent"`,
            2,
          );
        return `- **${d.slice(0, at).trim()}**: ${d.slice(at + 1).trim()}`;
      });
      const notes = [
        ...(definitions.length > 0 ? [`## Definitions\n\n${definitions.join("\n")}`] : []),
        ...(typeof opts.scope === "string" ? [`## Scope\n\n${opts.scope.trim()}`] : []),
      ].join("\n\n");
      // Checked against the format's schema by createDebateFolder, which names the bad field.
      const dir = await createDebateFolder(resolve(io.cwd, String(opts.dir)), {
        slug,
        motion,
        frontmatter: made.value.frontmatter,
        ...(notes ? { notes } : {}),
      });
      for (const warning of made.value.warnings) io.stderr.write(`warning: ${warning}\n`);
      const shown = relative(io.cwd, dir) || ".";
      if (opts.json) {
        io.stdout.write(`${JSON.stringify({ dir, debate_id: slug })}\n`);
        return;
      }
      io.stdout.write(`created ${shown}/debate.md\nnext: debate run ${shown}\n`);
    });
}
