/** Model output longer than this (in UTF-16 code units) is refused before any parsing. */
export const MAX_MODEL_OUTPUT_CHARS = 1_000_000;
/** How many `{` starts extractJson tries before giving up (bounds the work on hostile text). */
export const MAX_JSON_CANDIDATES = 64;
/** Tolerance of the zero-sum rule. */
export const ZERO_SUM_TOLERANCE = 0.01;
/** Largest change a rescore may make. */
export const MAX_RESCORE_DELTA = 0.5;
/** Tolerance when comparing scores that went through JSON and arithmetic. */
export const SCORE_EPSILON = 1e-6;
/** How deeply a model's JSON may nest (an answer needs about 5 levels); deeper is refused before parsing. */
export const MAX_JSON_DEPTH = 64;
