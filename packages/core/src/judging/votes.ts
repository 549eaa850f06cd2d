import {
  type Degradation,
  type JudgeFigures,
  type PanelBallot,
  type PanelResult,
  validatePanelResult,
} from "@debatekit/schema";
import { clipText } from "../clip.js";
import { fail, ok, quote, ruleError } from "../errors.js";
import type { FormatRecord, SeatFailure } from "../formats/format.js";
import type { Result } from "../types.js";
import { judgeVote, majority, type Vote } from "./combine.js";
import { type Ballot, ballotOf, ballotsOf, FALLBACK_ROLE, firstSide, type JudgingConfig } from "./panel.js";
import { flipRate, roundFigure } from "./reliability.js";

/** A judges/ record's frontmatter: a panel result (files checked it against the panel's RecordKind on read). */
export function panelResultOf(record: FormatRecord): PanelResult {
  return record.frontmatter as unknown as PanelResult;
}

/** The judge a role belongs to (`judge_2_swapped` -> `judge_2`). */
export function judgeOfRole(role: string): string {
  return role.endsWith("_swapped") ? role.slice(0, -"_swapped".length) : role;
}

/** Every ballot's answer or failure of a step, by judge, in panel order (the fallback last, when it was asked). */
export function panelBallots<S extends string, A>(
  config: JudgingConfig,
  answers: Readonly<Record<string, unknown>>,
  failures: Readonly<Record<string, SeatFailure>>,
  winnerOf: (answer: A) => S | "tie",
  /** The two sides and each ballot's labels (formal, crossfire); a review judge has neither. */
  blind?: { sides: readonly [S, S]; labels: (ballot: Ballot) => Record<S, "A" | "B"> },
): { ballots: PanelBallot[]; byJudge: Map<string, A[]>; winners: Map<string, Array<S | "tie">> } {
  const roles = [...ballotsOf(config).map((b) => b.role), ...(config.fallback ? [FALLBACK_ROLE] : [])];
  const ballots: PanelBallot[] = [];
  const byJudge = new Map<string, A[]>();
  const winners = new Map<string, Array<S | "tie">>();
  for (const role of roles) {
    const ballot = ballotOf(config, role)!;
    const answer = answers[role] as A | undefined;
    const failure = failures[role];
    if (answer === undefined && !failure) continue; // the fallback, when it was not needed
    const entry: PanelBallot = {
      role,
      adapter: ballot.seat.adapter,
      ...(ballot.seat.model ? { model: ballot.seat.model } : {}),
      ...(blind
        ? {
            labels: blind.labels(ballot),
            first: firstSide(ballot, blind.sides) as PanelBallot["first"],
          }
        : {}),
      status: answer !== undefined ? "answered" : "failed",
    };
    if (answer !== undefined) {
      const winner = winnerOf(answer);
      entry.winner = winner as PanelBallot["winner"];
      byJudge.set(ballot.judge, [...(byJudge.get(ballot.judge) ?? []), answer]);
      winners.set(ballot.judge, [...(winners.get(ballot.judge) ?? []), winner]);
    } else if (failure) {
      entry.error = { code: clipText(failure.code, 100), message: clipText(failure.message, 300) };
    }
    ballots.push(entry);
  }
  return { ballots, byJudge, winners };
}

/**
 * The panel's verdict from each judge's ballots: a judge whose verdict flipped with the order votes
 * `tie` (counts for neither side); the side with more votes wins; equal counts are a tie.
 */
export function panelVerdict<S extends string>(
  winners: ReadonlyMap<string, ReadonlyArray<S | "tie">>,
  sides: readonly [S, S],
): { votes: Record<string, Vote<S>>; winner: Vote<S> } {
  const votes = Object.fromEntries(
    [...winners.entries()].map(([judge, list]) => [
      judge,
      list.includes("tie") ? ("tie" as const) : judgeVote(list as S[]),
    ]),
  ) as Record<string, Vote<S>>;
  return { votes, winner: majority(Object.values(votes), sides) };
}

/**
 * Reliability figures of panels that vote (crossfire verdicts, review decisions), pooled over their
 * steps: agreement = the share of pairs of judges that gave the same vote (percent agreement; with one
 * verdict per debate a chance-corrected alpha is not defined), the flip rate under the order swap, and
 * per judge the share of its ballots against the panel's result (steps that ended in a tie left out).
 */
export function voteFigures(results: readonly PanelResult[]): JudgeFigures {
  let pairs = 0;
  let agreeing = 0;
  const flips: Array<[string, string]> = [];
  const against = new Map<string, { n: number; off: number }>();
  for (const result of results) {
    const votes = Object.values(result.votes ?? {});
    for (let i = 0; i < votes.length; i++)
      for (let j = i + 1; j < votes.length; j++) {
        pairs++;
        if (votes[i] === votes[j]) agreeing++;
      }
    const byJudge = new Map<string, PanelBallot[]>();
    for (const b of result.judges)
      if (b.status === "answered")
        byJudge.set(judgeOfRole(b.role), [...(byJudge.get(judgeOfRole(b.role)) ?? []), b]);
    for (const [judge, list] of byJudge) {
      const a = list.find((b) => !b.role.endsWith("_swapped"));
      const b = list.find((x) => x.role.endsWith("_swapped"));
      if (a?.winner && b?.winner) flips.push([a.winner, b.winner]);
      if (result.winner && result.winner !== "tie") {
        const seen = against.get(judge) ?? { n: 0, off: 0 };
        for (const x of list) {
          seen.n++;
          if (x.winner !== result.winner) seen.off++;
        }
        against.set(judge, seen);
      }
    }
  }
  const figures: JudgeFigures = {};
  if (pairs > 0) {
    figures.agreement = roundFigure(agreeing / pairs);
    figures.agreement_metric = "percent_agreement";
  }
  const rate = flipRate(flips);
  if (rate !== undefined) {
    figures.flip_rate = roundFigure(rate);
    figures.flips = flips.filter(([a, b]) => a !== b).length;
    figures.swapped_judges = flips.length;
  }
  if (against.size > 1)
    figures.deviation = Object.fromEntries(
      [...against.entries()]
        .filter(([, s]) => s.n > 0)
        .map(([judge, s]) => [judge, roundFigure(s.off / s.n)]),
    );
  return figures;
}

/** What judged steps rest on less than configured (docs/architecture.md#honest-degradation): each failed judge with its error, the fallback. */
export function panelDegradations(
  results: readonly PanelResult[],
  where: (result: PanelResult) => { text: string; round?: number },
): Degradation[] {
  return results.flatMap((r) => {
    if (!r.degraded) return [];
    const { text, round } = where(r);
    const failed: Degradation[] = r.judges
      .filter((b) => b.status === "failed")
      .map((b) => ({
        cause: "seat_failed" as const,
        message: `the judge ${b.role} (${b.adapter}) failed at ${text}; ${r.answered} of ${r.configured} judges answered`,
        role: b.role,
        adapter: b.adapter,
        ...(round !== undefined ? { round } : {}),
        ...(b.error ? { code: b.error.code, error: b.error.message } : {}),
        configured: r.configured,
        used: r.answered,
      }));
    const fallback: Degradation[] = r.fallback_used
      ? [
          {
            cause: "fallback_judge",
            message: `the fallback judge judged ${text}`,
            role: FALLBACK_ROLE,
            ...(round !== undefined ? { round } : {}),
            configured: r.configured,
            used: r.answered,
          },
        ]
      : [];
    return [...failed, ...fallback];
  });
}

/** The body of a judges/ record: who judged with which labels and order, what each said, the figures. */
export function panelRecordBody(result: PanelResult): string {
  const rows = result.judges.map((b) => {
    const who = `${b.adapter}${b.model ? ` ${b.model}` : ""}`;
    const what = b.status === "answered" ? (b.winner ?? "-") : `failed: ${b.error?.code ?? "?"}`;
    const a = Object.entries(b.labels ?? {}).find(([, label]) => label === "A")?.[0];
    return `| ${b.role} | ${who} | ${a ? `A = ${a}` : "-"} | ${b.first ?? "-"} | ${what} |`;
  });
  const f = result.figures;
  const metric =
    f.agreement_metric === "percent_agreement"
      ? "share of judge pairs giving the same vote"
      : "Krippendorff's alpha";
  const lines = [
    `# Judges of ${result.step}`,
    "",
    `${result.answered} of ${result.configured} judge(s) answered (quorum ${result.quorum})${result.degraded ? " — DEGRADED" : ""}; combined: ${result.winner ?? "-"}.`,
    "",
    "| ballot | judge | labels | read first | verdict |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Agreement (${metric}): ${f.agreement ?? "n/a"}; flip rate under order swap: ${f.flip_rate ?? "n/a"}.`,
  ];
  return `${lines.join("\n")}\n`;
}

/** A judged step's result with its figures, checked against its schema, and its judges/ record. */
export function panelRecord(
  file: string,
  base: Omit<PanelResult, "figures">,
  figures: (results: PanelResult[]) => JudgeFigures,
): Result<{ result: PanelResult; record: FormatRecord }> {
  const result: PanelResult = { ...base, figures: figures([{ ...base, figures: {} }]) };
  const checked = validatePanelResult(result);
  if (!checked.ok)
    return fail(
      ruleError(
        "PANEL_RESULT_INVALID",
        checked.errors[0]?.path ?? "",
        `the panel's record is invalid: ${quote(checked.errors[0]?.message)}`,
      ),
    );
  return ok({
    result,
    record: {
      file,
      frontmatter: result as unknown as Record<string, unknown>,
      body: panelRecordBody(result),
    },
  });
}
