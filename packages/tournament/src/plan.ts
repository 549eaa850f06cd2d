import { formatOfState } from "@debatekit/core";
import { readDebateFolder } from "@debatekit/files";
import { isFreeSeat, priceFor } from "@debatekit/runner";
import type { TournamentFrontmatter } from "@debatekit/schema";
import { countTokens } from "@debatekit/skills";
import { type Match, matchFolder, seatOf, sideRoles, type Tournament } from "./folder.js";
import { type MatchResult, readResults } from "./results.js";

/** Estimated use of one player or judge (or of everything). */
export interface PlanLine {
  name: string;
  adapter: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Absent when no price is known for it (tournament.md `prices`, by name or adapter). */
  costUsd?: number;
}

/** What `debate tournament plan` prints. Every token and cost figure is an estimate. */
export interface TournamentPlan {
  estimate: true;
  /** How the figures were made, in one sentence. */
  method: string;
  debates: number;
  /** Debates still to run (not done, not failed). */
  remaining: number;
  calls: number;
  perEntrant: PlanLine[];
  total: { calls: number; inputTokens: number; outputTokens: number; costUsd?: number; unpriced: string[] };
  /** Estimated cost of each match still to run (undefined when a seat of it has no price). */
  perMatch: Record<string, number | undefined>;
}

/** Options of planTournament. */
export interface PlanOptions {
  /** Tokens assumed per answer (default 600): each later prompt carries the earlier answers. */
  answerTokens?: number;
}

/**
 * The price of a named entrant: tournament.md `prices` by name first, then by adapter; else the
 * runner's price table (the usage ledger's: the seat's own `price:`, else the list price of its
 * model); replay and manual seats cost nothing. Undefined when none is known.
 */
function priceOf(
  fm: TournamentFrontmatter,
  name: string,
  adapter: string,
): { input: number; output: number } | undefined {
  const own = fm.prices?.[name] ?? fm.prices?.[adapter];
  if (own) return own;
  const seat = seatOf(fm, name);
  if (isFreeSeat(seat)) return { input: 0, output: 0 };
  const listed = priceFor(seat, seat.model);
  return listed ? { input: listed.input_per_mtok, output: listed.output_per_mtok } : undefined;
}

/**
 * Estimates the seat calls, tokens and cost of the matches still to run: calls from the format's
 * plan of a complete debate; a call's input = the tokens of the first prompt the engine would send
 * (counted with the repository's tokenizer) + the answers before it (`answerTokens` each); its
 * output = `answerTokens`. Retries and judges' re-scores are not counted.
 */
export async function planTournament(
  tournament: Tournament,
  options: PlanOptions = {},
): Promise<TournamentPlan> {
  const fm = tournament.frontmatter;
  const answerTokens = options.answerTokens ?? 600;
  const results = await readResults(tournament);
  const todo = results.filter((r: MatchResult) => r.status === "pending" || r.status === "running");
  const lines = new Map<string, PlanLine>();
  const perMatch: Record<string, number | undefined> = {};
  const roles = sideRoles(fm.format);
  for (const { match } of todo) {
    const estimate = await estimateMatch(tournament, match, roles, answerTokens);
    let cost: number | undefined = 0;
    for (const part of estimate) {
      const line = lines.get(part.name) ?? {
        name: part.name,
        adapter: part.adapter,
        calls: 0,
        inputTokens: 0,
        outputTokens: 0,
      };
      lines.set(part.name, line);
      line.calls += part.calls;
      line.inputTokens += part.inputTokens;
      line.outputTokens += part.outputTokens;
      const price = priceOf(fm, part.name, part.adapter);
      if (price) {
        const c = (part.inputTokens * price.input + part.outputTokens * price.output) / 1e6;
        line.costUsd = (line.costUsd ?? 0) + c;
        if (cost !== undefined) cost += c;
      } else cost = undefined;
    }
    perMatch[match.id] = cost;
  }
  const perEntrant = [...lines.values()];
  const unpriced = perEntrant.filter((l) => l.costUsd === undefined).map((l) => l.name);
  const sum = (f: (l: PlanLine) => number) => perEntrant.reduce((s, l) => s + f(l), 0);
  return {
    estimate: true,
    method: `estimate: calls from the format's plan of a complete debate (no retries); input = first prompt's tokens (cl100k_base) + ${answerTokens} tokens per earlier answer; output = ${answerTokens} tokens per call; cost from tournament.md prices per million tokens, else the seat's price or its model's list price (the usage ledger's table; replay and manual seats are free)`,
    debates: results.length,
    remaining: todo.length,
    calls: sum((l) => l.calls),
    perEntrant,
    total: {
      calls: sum((l) => l.calls),
      inputTokens: sum((l) => l.inputTokens),
      outputTokens: sum((l) => l.outputTokens),
      ...(perEntrant.length > 0 && unpriced.length < perEntrant.length
        ? { costUsd: sum((l) => l.costUsd ?? 0) }
        : {}),
      unpriced,
    },
    perMatch,
  };
}

async function estimateMatch(
  tournament: Tournament,
  match: Match,
  roles: ReturnType<typeof sideRoles>,
  answerTokens: number,
): Promise<Array<Omit<PlanLine, "costUsd">>> {
  const fm = tournament.frontmatter;
  const read = await readDebateFolder(matchFolder(tournament.dir, match.id));
  if (!read.ok) return [];
  const state = read.value.state;
  const format = formatOfState(state);
  const planned = format.plannedCalls?.(state.frontmatter) ?? {};
  const step = format.next(state);
  let base = countTokens(state.motion.text ?? "") + 500;
  if (step.kind === "ask") {
    try {
      base = countTokens(format.prompt(state, step.asks[0]!.role));
    } catch {
      // A prompt that cannot be built yet (missing skills, say): keep the motion-based guess.
    }
  }
  const total = Object.values(planned).reduce((s, n) => s + n, 0);
  // Calls happen in order; on average a call follows (total - 1) / 2 answers.
  const meanInput = base + ((total - 1) / 2) * answerTokens;
  const who = (role: string) =>
    role === roles.first ? match.first : role === roles.second ? match.second : match.judge;
  const parts = new Map<string, Omit<PlanLine, "costUsd">>();
  // A judge panel (tournament.md's `panel`): the judge calls are shared evenly by its judges.
  const shares = (role: string, calls: number): Array<[string, number]> =>
    fm.panel && role === roles.judge
      ? fm.judges.map((j) => [j.name, calls / fm.judges.length] as [string, number])
      : [[who(role), calls]];
  for (const [name, calls] of Object.entries(planned).flatMap(([role, calls]) => shares(role, calls))) {
    if (calls === 0) continue;
    const part = parts.get(name) ?? {
      name,
      adapter: seatOf(fm, name).adapter,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    parts.set(name, part);
    part.calls += calls;
    part.inputTokens += Math.round(calls * meanInput);
    part.outputTokens += calls * answerTokens;
  }
  return [...parts.values()];
}
