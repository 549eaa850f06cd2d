import {
  DEFAULT_FORMAT_NAME,
  type FormatDeclaration,
  formatDeclarations,
} from "@debatekit/core/declarations";

// Which registered formats take which flags of `debate new` and `debate tournament new`, read from
// the registry when asked (a format the config registers counts too). Core's declarations only:
// help and completion load this, and none of the formats' rules.

/** The formats that judge with a panel (`--judges`). */
export function panelFormats(): FormatDeclaration[] {
  return formatDeclarations().filter((f) => f.newOptions.panel);
}

/**
 * The panel formats whose judges weigh two debaters (`--swap`, `--allow-self-judging`): a review's
 * judge classifies one critique, and has no sides to swap.
 */
export function sidedPanelFormats(): FormatDeclaration[] {
  return panelFormats().filter(hasTwoSides);
}

/** True when two (or more) debaters argue in `format`, as opposed to a critic and an author. */
export function hasTwoSides(format: FormatDeclaration): boolean {
  return format.roles.filter((r) => r.kind === "debater").length >= 2;
}

/** Names as prose: `a`, `a and b`, `a, b and c`. */
export function listNames(formats: readonly FormatDeclaration[]): string {
  const names = formats.map((f) => f.name);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The formats `debate tournament` offers: those that name the two sides it pairs. */
export function tournamentFormats(): FormatDeclaration[] {
  return formatDeclarations().filter((f) => f.tournament);
}

/** The format `debate tournament new` picks without --format: the default one, when it pairs two sides. */
export function defaultTournamentFormat(): string | undefined {
  const names = tournamentFormats().map((f) => f.name);
  return names.includes(DEFAULT_FORMAT_NAME) ? DEFAULT_FORMAT_NAME : names[0];
}

/** Each distinct length flag (`exchanges`, `rounds`) of `formats`, with the formats that take it, in order. */
export function lengthFlags(formats: readonly FormatDeclaration[]): Map<string, FormatDeclaration[]> {
  const flags = new Map<string, FormatDeclaration[]>();
  for (const f of formats) {
    const { flag } = f.newOptions.length;
    flags.set(flag, [...(flags.get(flag) ?? []), f]);
  }
  return flags;
}
