// How far `gate eval build`'s labels can be trusted, as measured on the hand-labelled histories in
// test/fixtures/szz-histories (its README says how each case was decided), and what that does to the
// gate's figures. The oracle test recomputes these counts from the fixture and fails when they differ.
import { type Proportion, wilson } from "./metrics.js";

/** The measured quality of SZZ labels on the shipped oracle. */
export const LABEL_QUALITY = {
  /** Where the figures come from. */
  oracle: "test/fixtures/szz-histories: defu, destr and kleur (MIT), every bad case hand-labelled",
  /** Bad cases whose blamed commit really wrote the defect the fix removed, of the bad cases built. */
  labels: { k: 16, n: 34 },
  /** Commits taken for bug fixes that fix a bug, of those taken. */
  fixes: { k: 49, n: 56 },
} as const;

/** How labels are made, in one sentence for reports. */
export const LABEL_METHOD =
  "Bad cases come from SZZ: commits whose subject line says they fix a bug (conventional type fix, or a fix word), their removed lines blamed on the fix's parent (renames, moves and copies followed, whitespace ignored, cosmetic commits passed over, tests, docs and lock files left out); good cases are commits no fix blamed.";

/** A range [low, high] a figure lies in when the labels are as wrong as measured. */
export type Bounds = [number, number];

/**
 * Recall and false-positive rate of the gate if only a share of the "bad" labels are right (within the
 * interval of `precision`): a mislabelled bad case is taken to be a good change, and any of them may be
 * among those blocked. Good labels are taken as right (SZZ's misses are not measured). Undefined without bad cases.
 */
export function boundsUnderLabels(
  counts: { bad: number; badBlocked: number; good: number; goodBlocked: number },
  precision: Proportion,
): { recall: Bounds; false_positive_rate: Bounds } | undefined {
  const { bad, badBlocked, good, goodBlocked } = counts;
  if (bad === 0 || precision.low === undefined || precision.high === undefined) return undefined;
  const fewest = Math.floor(bad * (1 - precision.high));
  const most = Math.ceil(bad * (1 - precision.low));
  const recall: Bounds = [1, 0];
  const fpr: Bounds = [1, 0];
  for (let wrong = fewest; wrong <= Math.min(most, bad - 1); wrong++) {
    const real = bad - wrong;
    recall[0] = Math.min(recall[0], Math.max(0, badBlocked - wrong) / real);
    recall[1] = Math.max(recall[1], Math.min(badBlocked, real) / real);
    if (good + wrong > 0) {
      fpr[0] = Math.min(fpr[0], (goodBlocked + Math.max(0, badBlocked - real)) / (good + wrong));
      fpr[1] = Math.max(fpr[1], (goodBlocked + Math.min(badBlocked, wrong)) / (good + wrong));
    }
  }
  return { recall, false_positive_rate: fpr };
}

/** The measured label precision with its Wilson interval. */
export const labelPrecision = (): Proportion => wilson(LABEL_QUALITY.labels.k, LABEL_QUALITY.labels.n);
/** The measured fix-detection precision with its Wilson interval. */
export const fixPrecision = (): Proportion => wilson(LABEL_QUALITY.fixes.k, LABEL_QUALITY.fixes.n);
