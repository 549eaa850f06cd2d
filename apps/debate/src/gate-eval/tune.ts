// `gate eval tune`: from an evaluation's stored results, the blocking policy (which severities block)
// that reaches a target precision with the best recall, written as a policy file with the figures it
// rests on. No seat is asked: each threshold is re-judged from the stored reviews.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GateEvalCase, GatePolicy, ReviewSeverity } from "@debatekit/schema";
import { stringify } from "yaml";
import type { CaseResult } from "./case-result.js";
import { confusionOf, type Proportion, type Rates, ratesOf } from "./metrics.js";
import { formatProportion } from "./render.js";
import { readCaseResult, thresholdName } from "./run.js";

/** The thresholds tune weighs: the gate's severities, most severe first. */
export const TUNE_THRESHOLDS: ReviewSeverity[][] = [["P1"], ["P1", "P2"], ["P1", "P2", "P3"]];

/** One blocking policy's figures over the evaluated cases. */
export interface TuneCandidate {
  block_on: ReviewSeverity[];
  rates: Rates;
}

/** What tune found: every candidate, the one chosen (if any reaches the target) and why. */
export interface TuneResult {
  target: number;
  cases: number;
  candidates: TuneCandidate[];
  chosen?: TuneCandidate;
  /** Knobs tune could not weigh, and why (one sentence each). */
  notes: string[];
}

/**
 * The candidate whose precision reaches `target` with the best recall (ties: the higher precision,
 * then the fewer severities). Undefined when none reaches it.
 */
export function chooseCandidate(
  candidates: readonly TuneCandidate[],
  target: number,
): TuneCandidate | undefined {
  const value = (p: Proportion) => p.value ?? -1;
  return candidates
    .filter((c) => value(c.rates.precision) >= target)
    .sort(
      (a, b) =>
        value(b.rates.recall) - value(a.rates.recall) ||
        value(b.rates.precision) - value(a.rates.precision) ||
        a.block_on.length - b.block_on.length,
    )[0];
}

/** Reads the evaluation in `store` (made by `gate eval run` on `cases`) and weighs every threshold. */
export async function tuneFromStore(
  cases: readonly GateEvalCase[],
  store: string,
  target: number,
): Promise<{ result: TuneResult; policy: GatePolicy }> {
  const policyFile = join(store, "policy.json");
  const policy = JSON.parse(
    await readFile(policyFile, "utf8").catch(() => {
      throw new Error(`${store}: no evaluation here (${policyFile} is missing); run \`gate eval run\` first`);
    }),
  ) as GatePolicy;
  const options = { store, policy, thresholds: TUNE_THRESHOLDS };
  const results: CaseResult[] = [];
  for (const c of cases) {
    const r = await readCaseResult(c, options);
    if (r) results.push(r);
  }
  if (results.length === 0)
    throw new Error(`${store}: no finished case of this set; run \`gate eval run\` first`);
  const candidates = TUNE_THRESHOLDS.map((block_on) => ({
    block_on,
    rates: ratesOf(
      confusionOf(results.map((r) => ({ label: r.label, ...r.thresholds[thresholdName(block_on)]! }))),
    ),
  }));
  const chosen = chooseCandidate(candidates, target);
  return {
    result: {
      target,
      cases: results.length,
      candidates,
      ...(chosen ? { chosen } : {}),
      notes: [
        "The gate's judge gives no confidence score: only the blocking severities were tuned.",
        ...(results.length < cases.length
          ? [`${cases.length - results.length} case(s) of the set have no result yet and were left out.`]
          : []),
      ],
    },
    policy,
  };
}

/** The tuned policy as YAML: the evaluated policy with the chosen `block_on`, the figures above it as comments. */
export function renderTunedPolicy(policy: GatePolicy, result: TuneResult, chosen: TuneCandidate): string {
  const line = (c: TuneCandidate) =>
    `#   block_on [${c.block_on.join(", ")}]: precision ${formatProportion(c.rates.precision)}, recall ${formatProportion(c.rates.recall)}, false-positive rate ${formatProportion(c.rates.false_positive_rate)}`;
  return [
    `# Tuned by \`debate gate eval tune\` for precision >= ${result.target} with the best recall, over ${result.cases} evaluated case(s)`,
    "# (95% Wilson intervals; the labels are SZZ's, as right as eval.md says: read the figures as estimates).",
    "# Chosen:",
    line(chosen),
    "# Weighed:",
    ...result.candidates.map(line),
    ...result.notes.map((n) => `# ${n}`),
    stringify({ ...policy, block_on: chosen.block_on }).trimEnd(),
    "",
  ].join("\n");
}
