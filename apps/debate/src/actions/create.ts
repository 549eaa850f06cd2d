import { resolve } from "node:path";
import { type AnyFormat, findFormat, formatNames, formatRuleErrors } from "@debatekit/core";
import { createDebateFolder } from "@debatekit/files";
import { builtinAdapters, isAdapterInstalled } from "@debatekit/runner/adapters";
import type { SeatConfig } from "@debatekit/schema";
import { loadConfig } from "../config.js";
import { ExitError } from "../exit-error.js";
import { parseSeatSpec } from "../options.js";
import type { ActionContext, Created } from "./context.js";
import { listNames, panelFormats } from "./format-options.js";
import { reviewCommandFor } from "./review.js";
import { slugFromMotion } from "./slug.js";

export type { Created } from "./context.js";

type Effort = NonNullable<SeatConfig["effort"]>;

/** What a new debate is made of; seats are `<adapter>[:<model>[:<effort>]]` by role. */
export interface CreateInput {
  format: string;
  motion: string;
  seats?: Record<string, string>;
  length?: number;
  judges?: string[];
  swap?: boolean;
  allowSelfJudging?: boolean;
  effort?: Effort;
  slug?: string;
  /** The parent folder (default: the config file's `dir`, else `debates`), against `cwd`. */
  dir?: string;
  /** `term=meaning` definitions, written under the motion (## Definitions). */
  defines?: string[];
  /** What the debate covers and leaves out (## Scope under the motion). */
  scope?: string;
  /** `off`: every seat loads the user's own CLI setup (written per seat); `on` is the default. */
  isolation?: "on" | "off";
  now?: string;
}

/** The format a name picks; an unknown name is a usage error. */
function formatNamed(name: string): AnyFormat {
  const format = findFormat(name);
  if (!format) throw new ExitError(`${name}: no such format (the formats: ${formatNames().join(", ")})`, 2);
  return format;
}

/** Refuses seat or length flags (`proposer`, `rounds`) that `format` does not take, naming the ones it does. */
export function refuseForeignFlags(format: AnyFormat, flags: readonly string[]): void {
  const own = new Set([...format.newOptions.seats.map((s) => s.role), format.newOptions.length.flag]);
  const foreign = flags.filter((flag) => !own.has(flag));
  if (foreign.length === 0) return;
  const offered = [...own].map((f) => `--${f}`).join(", ");
  throw new ExitError(
    `${foreign.map((f) => `--${f}`).join(", ")} is not an option of the ${format.name} format (it takes ${offered})`,
  );
}

/** Refuses a format whose debates start from an artifact: names the command that takes one, with the flags given. */
function refuseArtifactFormat(format: AnyFormat, input: CreateInput): void {
  if (!format.newOptions.artifact) return;
  const command = reviewCommandFor({
    ...input.seats,
    ...(input.length !== undefined ? { [format.newOptions.length.flag]: input.length } : {}),
  });
  throw new ExitError(
    `the ${format.name} format starts from an artifact (a file, a git change or a text), not a motion: run \`${command}\` (or --scope uncommitted, or --text - for stdin instead of <file>)`,
    2,
  );
}

/** The panel and length checks a format's options impose, before anything is read or written. */
function checkOptions(format: AnyFormat, input: CreateInput): void {
  refuseArtifactFormat(format, input);
  refuseForeignFlags(format, Object.keys(input.seats ?? {}));
  const panelGiven = input.judges !== undefined || input.swap || input.allowSelfJudging;
  if (panelGiven && !format.newOptions.panel) {
    throw new ExitError(
      `--judges, --swap and --allow-self-judging are options of the ${listNames(panelFormats())} formats, not ${format.name}`,
    );
  }
  if (input.judges !== undefined && input.seats?.judge !== undefined)
    throw new ExitError("give --judge (one judge) or --judges (a panel), not both");
  const { min, max, flag } = format.newOptions.length;
  if (input.length !== undefined && (input.length < min || input.length > max)) {
    throw new ExitError(
      `--${flag} must be from ${min} to ${max} for the ${format.name} format, got ${input.length}`,
    );
  }
}

/** `## Definitions` and `## Scope` under the motion, where the prompts read them. */
function notesOf(defines: readonly string[], scope: string | undefined): string {
  const definitions = defines.map((d) => {
    const at = d.indexOf("=");
    if (at <= 0 || at === d.length - 1)
      throw new ExitError(
        `--define ${d}: expected <term>=<meaning>, e.g. --define "AI-written=most lines by an agent"`,
        2,
      );
    return `- **${d.slice(0, at).trim()}**: ${d.slice(at + 1).trim()}`;
  });
  return [
    ...(definitions.length > 0 ? [`## Definitions\n\n${definitions.join("\n")}`] : []),
    ...(scope !== undefined ? [`## Scope\n\n${scope.trim()}`] : []),
  ].join("\n\n");
}

/**
 * Creates a debate folder ready to run, in any registered format. Seats, effort and the parent
 * folder not given come from the config file (debatekit.config.*, package.json#debatekit, the user's).
 */
export async function createDebate(ctx: ActionContext, input: CreateInput): Promise<Created> {
  const format = formatNamed(input.format);
  checkOptions(format, input);
  const { config } = await loadConfig(ctx);
  const given: Record<string, string | undefined> = {};
  for (const seat of format.newOptions.seats)
    given[seat.role] = input.seats?.[seat.role] ?? config.seats?.[seat.role];
  const effort = input.effort ?? config.effort;
  const missing = format.newOptions.seats.filter((s) => s.required && given[s.role] === undefined);
  if (missing.length > 0) {
    throw new ExitError(
      `the ${format.name} format needs ${missing.map((s) => `--${s.role} <adapter>`).join(" and ")}`,
    );
  }
  // `--judge codex:gpt-5.5:high`: the adapter, then the seat's own model and effort.
  const perSeat = new Map<string, Pick<SeatConfig, "model" | "effort">>();
  for (const seat of format.newOptions.seats) {
    const spec = given[seat.role];
    if (spec === undefined || !spec.includes(":")) continue;
    const { adapter, ...own } = parseSeatSpec(`--${seat.role}`, spec);
    given[seat.role] = adapter;
    perSeat.set(seat.role, own);
  }
  for (const seat of format.newOptions.seats) {
    const name = given[seat.role];
    if (name !== undefined && !isAdapterInstalled(name))
      throw new ExitError(
        `--${seat.role} ${name}: no adapter of that name (the adapters: ${builtinAdapters.join(", ")}); a model goes in the seat's \`model:\` in debate.md`,
        2,
      );
  }
  const slug = input.slug ?? slugFromMotion(input.motion);
  // `isolation: on` is the default and not written; `off` is the user's explicit opt-in, per seat.
  const seatDefaults: Omit<SeatConfig, "adapter"> = {
    ...(effort ? { effort } : {}),
    ...(input.isolation === "off" ? { isolation: "off" as const } : {}),
  };
  const made = format.newDebate({
    slug,
    seats: given,
    ...(input.length !== undefined ? { length: input.length } : {}),
    ...(input.judges !== undefined ? { judges: input.judges } : {}),
    ...(input.swap ? { swap: true } : {}),
    ...(input.allowSelfJudging ? { allowSelfJudging: true } : {}),
    seatDefaults,
    // Each seat's own model and effort, so the format's self-judging check sees the whole seat.
    seatSettings: Object.fromEntries(perSeat),
    now: input.now ?? new Date().toISOString(),
  });
  if (!made.ok) throw new ExitError(formatRuleErrors(made.errors).join("\n"));
  const notes = notesOf(input.defines ?? [], input.scope);
  // Checked against the format's schema by createDebateFolder, which names the bad field.
  const dir = await createDebateFolder(resolve(ctx.cwd, input.dir ?? config.dir ?? "debates"), {
    slug,
    motion: input.motion,
    frontmatter: made.value.frontmatter,
    ...(notes ? { notes } : {}),
  });
  return { dir, debateId: slug, format: format.name, warnings: made.value.warnings };
}
