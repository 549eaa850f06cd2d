import { copyFile, lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  DebatekitError,
  findFormat,
  formatNames,
  formatRuleErrors,
  isSelfJudging,
  quote,
  seatWords,
  type TournamentSides,
} from "@debatekit/core";
import {
  createDebateFolder,
  joinFrontmatter,
  MAX_MARKDOWN_BYTES,
  readTextInside,
  resolveInside,
  splitFrontmatter,
  writeFileAtomic,
} from "@debatekit/files";
import type { SeatConfig, TournamentEntrant, TournamentFrontmatter } from "@debatekit/schema";
import { formatValidationErrors, validateTournamentFrontmatter } from "@debatekit/schema";
import type { TournamentMotion } from "./motions.js";
import { REPLAY_FILE, slugPart } from "./spec.js";

/** The file that holds a tournament's configuration and state. */
export const TOURNAMENT_FILE = "tournament.md";
/** Where the matches' debate folders live, inside the tournament folder. */
export const DEBATES_DIR = "debates";

/** One match: a debate folder under debates/. */
export type Match = TournamentFrontmatter["matches"][number];

/** A tournament as read from its folder. */
export interface Tournament {
  dir: string;
  frontmatter: TournamentFrontmatter;
  body: string;
}

/** The roles a format's tournament seats the two players and the judge in (its `tournament` sides). */
export function sideRoles(format: string): TournamentSides {
  const found = findFormat(format);
  if (!found)
    throw new DebatekitError(
      "FORMAT_UNKNOWN",
      `no format ${quote(format)}: expected one of ${formatNames().join(", ")}`,
      { field: "format" },
    );
  if (!found.tournament)
    throw new DebatekitError(
      "FORMAT_NO_TOURNAMENT",
      `the ${format} format has no tournament sides (it pairs no two players); choose a format that does`,
      { field: "format" },
    );
  return found.tournament;
}

/** Every pairing of the players, per motion, with sides swapped when `sides` is `both`. */
export function pairMatches(init: {
  players: readonly TournamentEntrant[];
  judges: readonly TournamentEntrant[];
  motions: readonly TournamentMotion[];
  sides: "both" | "one";
}): Match[] {
  const matches: Match[] = [];
  const ids = new Set<string>();
  for (const motion of init.motions) {
    for (let i = 0; i < init.players.length; i++) {
      for (let j = i + 1; j < init.players.length; j++) {
        const a = init.players[i]!.name;
        const b = init.players[j]!.name;
        for (const [first, second] of init.sides === "both"
          ? [
              [a, b],
              [b, a],
            ]
          : [[a, b]]) {
          const id = `${motion.id}-${slugPart(first!)}-vs-${slugPart(second!)}`.slice(0, 100);
          if (ids.has(id)) {
            throw new DebatekitError(
              "SEAT_SPEC_DUPLICATE",
              `two matches would share the folder ${quote(id)}: give the players names that differ in letters or digits`,
              { field: "--seats" },
            );
          }
          ids.add(id);
          // Judges take matches in turn (a panel: `judge` names the first); the same tournament always gives the same judge.
          const judge = init.judges[matches.length % init.judges.length]!.name;
          matches.push({ id, motion: motion.id, first: first!, second: second!, judge });
        }
      }
    }
  }
  return matches;
}

/** Parses tournament.md's text; errors name the file and field. */
export function parseTournamentFile(text: string): { frontmatter: TournamentFrontmatter; body: string } {
  const split = splitFrontmatter(text, TOURNAMENT_FILE);
  if (!split.ok) {
    throw new DebatekitError(split.errors[0]!.code, formatRuleErrors(split.errors).join("\n"), {
      file: TOURNAMENT_FILE,
    });
  }
  const valid = validateTournamentFrontmatter(split.value.data);
  if (!valid.ok) {
    throw new DebatekitError(
      "TOURNAMENT_FIELD_INVALID",
      `${TOURNAMENT_FILE}: ${formatValidationErrors(valid.errors).split("\n")[0]}`,
      { file: TOURNAMENT_FILE, field: valid.errors[0]!.path || "(frontmatter)" },
    );
  }
  const fm = valid.value;
  const names = new Set([...fm.players, ...fm.judges].map((e) => e.name));
  const motions = new Set(fm.motions.map((m) => m.id));
  const ids = new Set<string>();
  fm.matches.forEach((m, i) => {
    // One folder per match: a second match of the same id would count that folder twice.
    if (ids.has(m.id)) {
      throw new DebatekitError(
        "TOURNAMENT_FIELD_INVALID",
        `${TOURNAMENT_FILE}: matches[${i}].id ${quote(m.id)} is already the id of an earlier match; every match needs its own id (its folder under ${DEBATES_DIR}/)`,
        { file: TOURNAMENT_FILE, field: `matches.${i}.id` },
      );
    }
    ids.add(m.id);
    for (const key of ["first", "second", "judge"] as const) {
      if (!names.has(m[key])) {
        throw new DebatekitError(
          "TOURNAMENT_FIELD_INVALID",
          `${TOURNAMENT_FILE}: matches[${i}].${key} names ${quote(m[key])}, who is neither a player nor a judge`,
          { file: TOURNAMENT_FILE, field: `matches.${i}.${key}` },
        );
      }
    }
    if (!motions.has(m.motion)) {
      throw new DebatekitError(
        "TOURNAMENT_FIELD_INVALID",
        `${TOURNAMENT_FILE}: matches[${i}].motion names no motion`,
        {
          file: TOURNAMENT_FILE,
          field: `matches.${i}.motion`,
        },
      );
    }
  });
  return { frontmatter: fm, body: split.value.body };
}

/** tournament.md's text: YAML frontmatter, then the body. */
export function serializeTournamentFile(doc: { frontmatter: TournamentFrontmatter; body: string }): string {
  return joinFrontmatter({
    data: doc.frontmatter as unknown as Record<string, unknown>,
    body: doc.body,
    style: "yaml",
  });
}

/** Reads `<dir>/tournament.md`. */
export async function readTournament(dir: string): Promise<Tournament> {
  const read = await readTextInside(dir, TOURNAMENT_FILE, MAX_MARKDOWN_BYTES);
  if (!read.ok)
    throw new DebatekitError(read.errors[0]!.code, read.errors[0]!.message, { file: TOURNAMENT_FILE });
  if (read.value === undefined) {
    throw new DebatekitError(
      "TOURNAMENT_MISSING",
      `${quote(dir)} holds no ${TOURNAMENT_FILE}: create one with \`debate tournament new ${dir} --motions motions.txt --seats claude,codex\``,
      { file: TOURNAMENT_FILE },
    );
  }
  const parsed = parseTournamentFile(read.value);
  await checkMatchFolders(dir, parsed.frontmatter.matches);
  return { dir, ...parsed };
}

/** A match's debate folder: `debates/<id>` inside the tournament folder. */
export function matchFolder(dir: string, id: string): string {
  return path.join(dir, DEBATES_DIR, id);
}

/**
 * Refuses match folders that are symbolic links (or lead outside the tournament through one):
 * a tournament someone handed over must not make a run write elsewhere, nor one folder stand for two matches.
 */
async function checkMatchFolders(dir: string, matches: readonly Match[]): Promise<void> {
  for (const relative of [DEBATES_DIR, ...matches.map((m) => `${DEBATES_DIR}/${m.id}`)]) {
    const info = await lstat(path.join(dir, relative)).catch(() => undefined);
    if (info?.isSymbolicLink()) {
      throw new DebatekitError(
        "PATH_ESCAPE",
        `${quote(relative)} in the tournament ${quote(dir)} is a symbolic link; a match's folder must be a real folder inside the tournament`,
        { file: relative },
      );
    }
    resolveInside(dir, relative);
  }
}

/** Rewrites tournament.md atomically with a changed frontmatter (the body is kept). */
export async function writeTournament(tournament: Tournament): Promise<void> {
  const valid = validateTournamentFrontmatter(tournament.frontmatter);
  if (!valid.ok) throw new DebatekitError("TOURNAMENT_FIELD_INVALID", formatValidationErrors(valid.errors));
  await writeFileAtomic(path.join(tournament.dir, TOURNAMENT_FILE), serializeTournamentFile(tournament));
}

/** The SeatConfig a named entrant sits with. */
export function seatOf(fm: TournamentFrontmatter, name: string): SeatConfig {
  const entrant = [...fm.players, ...fm.judges].find((e) => e.name === name);
  if (!entrant) throw new DebatekitError("TOURNAMENT_FIELD_INVALID", `no player or judge ${quote(name)}`);
  return entrant.seat;
}

/**
 * A judge that is a player's own adapter, model and endpoint (isSelfJudging) would judge its own text
 * in this match: refused, naming both (a person or recorded answers judge nothing of their own).
 */
function refuseSelfJudging(
  fm: TournamentFrontmatter,
  match: { id: string; first: string; second: string },
  judges: readonly string[],
): void {
  for (const judge of judges)
    for (const player of [match.first, match.second]) {
      const seat = seatOf(fm, judge);
      if (isSelfJudging(seat, seatOf(fm, player)))
        throw new DebatekitError(
          "SELF_JUDGING",
          `the judge ${quote(judge)} (${seatWords(seat)}) is the player ${quote(player)}'s own adapter, model and endpoint, and would judge its own text in ${match.id}; choose judges that are no player's model`,
          { field: "--judges" },
        );
    }
}

/** What `debate tournament new` needs. */
export interface NewTournamentInit {
  motions: TournamentMotion[];
  players: TournamentEntrant[];
  judges: TournamentEntrant[];
  /** A registered format with `tournament` sides. */
  format: string;
  length?: number;
  sides?: "both" | "one";
  seed?: number;
  limits?: TournamentFrontmatter["limits"];
  prices?: TournamentFrontmatter["prices"];
  /** Every match judged by all `judges` as a panel (debate.md's `judges:`), asked in both orders with `swap`. */
  panel?: { swap?: boolean };
  /** A folder holding `<match id>.jsonl` for every match: copied into each debate as its replay seats' recording. */
  replayDir?: string;
  now: string;
}

/**
 * Creates a tournament folder: one debate folder per match under debates/ (each runnable on its
 * own), then tournament.md last. The folder must not exist or be empty; on any error nothing is left.
 */
export async function createTournament(
  dir: string,
  init: NewTournamentInit,
): Promise<{ tournament: Tournament; warnings: string[] }> {
  const roles = sideRoles(init.format);
  const format = findFormat(init.format)!;
  if (init.players.length < 2) {
    throw new DebatekitError("TOURNAMENT_TOO_SMALL", "a tournament needs at least two players in --seats", {
      field: "--seats",
    });
  }
  const usesReplay = [...init.players, ...init.judges].some((e) => e.seat.adapter === "replay");
  if (usesReplay && !init.replayDir) {
    throw new DebatekitError(
      "REPLAY_DIR_MISSING",
      "replay seats need recordings: pass --replay <dir> holding one <match id>.jsonl per match (see `debate tournament plan`)",
      { field: "--replay" },
    );
  }
  const matches = pairMatches({
    players: init.players,
    judges: init.panel ? init.judges.slice(0, 1) : init.judges,
    motions: init.motions,
    sides: init.sides ?? "both",
  });
  if (init.panel && (init.judges.length < 1 || init.judges.length > 5)) {
    throw new DebatekitError("TOURNAMENT_FIELD_INVALID", "a judge panel seats 1 to 5 --judges", {
      field: "--judges",
    });
  }
  const tournamentId = slugPart(path.basename(path.resolve(dir))).slice(0, 100);
  const frontmatter: TournamentFrontmatter = {
    tournament_id: tournamentId,
    format: init.format,
    ...(init.length !== undefined ? { length: init.length } : {}),
    players: init.players,
    judges: init.judges,
    ...(init.panel ? { panel: init.panel.swap ? { swap: true } : {} } : {}),
    pairing: "round-robin",
    sides: init.sides ?? "both",
    motions: init.motions,
    matches,
    ...(init.limits ? { limits: init.limits } : {}),
    ...(init.prices ? { prices: init.prices } : {}),
    seed: init.seed ?? 1,
    created_at: init.now,
    status: "created",
    runs: 0,
  };
  const valid = validateTournamentFrontmatter(frontmatter);
  if (!valid.ok) {
    throw new DebatekitError(
      "TOURNAMENT_FIELD_INVALID",
      `${TOURNAMENT_FILE}: ${formatValidationErrors(valid.errors).split("\n")[0]}`,
      {
        file: TOURNAMENT_FILE,
        field: valid.errors[0]!.path,
      },
    );
  }
  if (init.replayDir) {
    const missing = [];
    for (const m of matches) {
      const have = await readdir(init.replayDir).catch(() => [] as string[]);
      if (!have.includes(`${m.id}.jsonl`)) missing.push(`${m.id}.jsonl`);
    }
    if (usesReplay && missing.length > 0) {
      throw new DebatekitError(
        "REPLAY_MISSING",
        `--replay ${init.replayDir} lacks ${missing.length} recording(s), e.g. ${missing[0]}`,
        { file: path.join(init.replayDir, missing[0]!), field: "--replay" },
      );
    }
  }
  const existing = await readdir(dir).catch(() => undefined);
  if (existing && existing.length > 0) {
    throw new DebatekitError(
      "FOLDER_EXISTS",
      `${quote(dir)} already exists and is not empty; choose another folder`,
      { file: dir },
    );
  }
  const created = existing === undefined;
  const warnings = new Set<string>();
  try {
    await mkdir(path.join(dir, DEBATES_DIR), { recursive: true });
    for (const match of matches) {
      const motion = init.motions.find((m) => m.id === match.motion)!;
      const seats = {
        [roles.first]: seatOf(frontmatter, match.first),
        [roles.second]: seatOf(frontmatter, match.second),
        [roles.judge]: seatOf(frontmatter, match.judge),
      };
      const panelJudges = init.panel ? init.judges : undefined;
      refuseSelfJudging(frontmatter, match, panelJudges?.map((j) => j.name) ?? [match.judge]);
      const made = format.newDebate({
        slug: match.id,
        seats: Object.fromEntries(Object.entries(seats).map(([role, seat]) => [role, seat.adapter])),
        // The whole seats (model, endpoint): the format's self-judging check compares them.
        seatSettings: seats,
        ...(init.length !== undefined ? { length: init.length } : {}),
        now: init.now,
      });
      if (!made.ok)
        throw new DebatekitError(made.errors[0]!.code, formatRuleErrors(made.errors).join("\n"), {
          field: "--seats",
        });
      // The format filled each role's seat from its adapter name; the tournament's seats carry more (model, file, URL).
      const allSeats: Record<string, SeatConfig> = { ...(made.value.frontmatter.seats ?? {}), ...seats };
      // A panel replaces the single judge seat (debate.md takes one or the other).
      if (panelJudges) delete allSeats[roles.judge];
      // The tournament decides who judges: its judge seat, or its panel. A panel the format's
      // `newDebate` made from that judge goes, since debate.md takes one or the other.
      const { judges: _formatPanel, ...madeFrontmatter } = made.value.frontmatter;
      const fm = {
        ...madeFrontmatter,
        seats: allSeats,
        ...(panelJudges
          ? {
              judges: {
                panel: panelJudges.map((j) => j.seat),
                ...(init.panel?.swap ? { swap: true } : {}),
              },
            }
          : {}),
      };
      for (const judge of panelJudges?.map((j) => j.name) ?? [match.judge]) {
        if (judge === match.first || judge === match.second)
          warnings.add(`${judge} judges debates it argues in (e.g. ${match.id})`);
      }
      const debateDir = await createDebateFolder(path.join(dir, DEBATES_DIR), {
        slug: match.id,
        motion: motion.motion,
        frontmatter: fm as unknown as typeof made.value.frontmatter,
      });
      if (usesReplay && init.replayDir)
        await copyFile(path.join(init.replayDir, `${match.id}.jsonl`), path.join(debateDir, REPLAY_FILE));
    }
    const body = `\n# Tournament ${tournamentId}\n\n${init.motions.length} motion(s), ${init.players.length} players, ${matches.length} debates (${init.format}).\nRun it with \`debate tournament run\`; the leaderboard is written by \`debate tournament report\`.\n`;
    const tournament: Tournament = { dir, frontmatter, body };
    await writeFileAtomic(path.join(dir, TOURNAMENT_FILE), serializeTournamentFile(tournament));
    return { tournament, warnings: [...warnings] };
  } catch (error) {
    // Nothing half-written: the folder goes (or, when it was an empty folder before, is emptied).
    if (created) await rm(dir, { recursive: true, force: true });
    else {
      for (const name of await readdir(dir).catch(() => [] as string[]))
        await rm(path.join(dir, name), { recursive: true, force: true });
    }
    throw error;
  }
}
